/**
 * Session persistence (SPEC §4 "the whole state is written to local storage on every change and
 * restored at start-up. Restore errors are swallowed"; §8 "Local-storage read or write failures are
 * logged to the console and ignored").
 * Sensitive leaves (card number, CBU) are cut out by JSON pointer before anything is written.
 */
import { createEffect, sample, type Effect, type Store } from 'effector';
import { parsePointer } from '../../core/flow/pointer.ts';

type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/** Deep copy of plain objects and arrays; other values are kept as they are. Cycles are preserved. */
function deepCopy<T>(value: T, seen = new WeakMap<object, unknown>()): T {
  if (!isContainer(value)) return value;
  const known = seen.get(value);
  if (known !== undefined) return known as T;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(deepCopy(item, seen));
    return out as T;
  }
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const [k, v] of Object.entries(value)) out[k] = deepCopy(v, seen);
  return out as T;
}

/**
 * Deep copy of `value` without the members at the given JSON pointers (RFC 6901, e.g.
 * `/answers/metodo-de-pago/numberPaymentCard`). Pointers that do not resolve, or are malformed, are
 * ignored; an array element is removed with its index (later indexes shift). `value` is not mutated.
 * Used so the card number and CBU never reach local storage (SPEC §4, wire contract "Payment").
 */
export function omitPointers<T>(value: T, pointers: string[]): T {
  const copy = deepCopy(value);
  for (const pointer of pointers) {
    const tokens = parsePointer(pointer);
    if (!tokens || tokens.length === 0) continue;
    let parent: unknown = copy;
    for (const token of tokens.slice(0, -1)) {
      parent = isContainer(parent) && Object.hasOwn(parent, token) ? (parent as Record<string, unknown>)[token] : undefined;
    }
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) {
      if (/^(0|[1-9]\d*)$/.test(last) && Number(last) < parent.length) parent.splice(Number(last), 1);
    } else if (isContainer(parent) && Object.hasOwn(parent, last)) {
      delete (parent as Record<string, unknown>)[last];
    }
  }
  return copy;
}

/**
 * Writes `JSON.stringify(omitPointers(state, exclude))` under `key`.
 * Never throws: no storage, quota exceeded, private mode or a circular state are logged with
 * `console.error` and ignored (SPEC §8).
 */
export function writeState(storage: Storage | undefined, key: string, state: unknown, exclude: string[]): void {
  try {
    if (!storage) throw new Error('localStorage no disponible');
    storage.setItem(key, JSON.stringify(omitPointers(state, exclude)));
  } catch (error) {
    console.error(`[persistencia] No se pudo guardar "${key}"`, error);
  }
}

/**
 * Reads and parses the JSON under `key`.
 * @returns the parsed value, or `null` when absent, unreadable or corrupted. Never throws; read
 *   failures are logged with `console.error` (SPEC §4 restore errors swallowed, §8).
 *   The value is not validated: the caller checks its shape (e.g. flow version) before using it.
 */
export function readState<T>(storage: Storage | undefined, key: string): T | null {
  try {
    if (!storage) return null;
    const raw = storage.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as T);
  } catch (error) {
    console.error(`[persistencia] No se pudo leer "${key}"`, error);
    return null;
  }
}

/** `window.localStorage`, or `undefined` where reading the property itself throws (blocked cookies). */
function defaultStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * Persists a store on every change (SPEC §4).
 * @param opts.key local-storage key (bump it when the state shape breaks).
 * @param opts.$state the store to persist; each `$state.updates` runs `persistFx`.
 * @param opts.exclude JSON pointers never written (card number, CBU).
 * @param opts.storage storage getter, default `localStorage`; called on each read/write.
 * @returns `restoreFx` — reads once, resolves to the stored value or `null` (never fails; the caller
 *   decides whether to apply it); `persistFx` — writes a value (never fails).
 */
export function createPersistence<T>(opts: { key: string; $state: Store<T>; exclude: string[]; storage?: () => Storage | undefined }): {
  restoreFx: Effect<void, T | null>;
  persistFx: Effect<T, void>;
} {
  const getStorage = opts.storage ?? defaultStorage;
  const restoreFx = createEffect<void, T | null>(() => readState<T>(getStorage(), opts.key));
  const persistFx = createEffect<T, void>((state) => writeState(getStorage(), opts.key, state, opts.exclude));

  // when the state changes, then write it to storage
  sample({ clock: opts.$state.updates, target: persistFx });

  return { restoreFx, persistFx };
}
