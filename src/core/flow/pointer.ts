/**
 * RFC 6901 JSON pointers: read and immutable write. Used by bindings, `save`, `forget` and
 * persistence exclusions.
 */

/** RFC 6901 JSON pointer into the engine context, e.g. `/answers/contacto/email` (declared here, not in types.ts, so
 * pointer.ts imports nothing: conditions.ts needs it and types.ts needs conditions.ts). */
export type Pointer = string;

/** Reference tokens of an RFC 6901 pointer (`~1` → `/`, `~0` → `~`); `''` → `[]`; null when it does not start with `/`. */
export function parsePointer(pointer: Pointer): string[] | null {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return null;
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** One reference token escaped for use in a pointer (`/` → `~1`, `~` → `~0`). */
export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function tokens(pointer: Pointer): string[] {
  const parsed = parsePointer(pointer);
  if (!parsed) throw new Error(`Puntero JSON inválido: "${pointer}" (debe empezar con "/")`);
  return parsed;
}

/** Value at `pointer` in `doc`, or `undefined` when any segment is missing. `''` is the whole doc. */
export function getAt(doc: unknown, pointer: Pointer): unknown {
  let cur: unknown = doc;
  for (const t of tokens(pointer)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[t];
  }
  return cur;
}

/**
 * Copy of `doc` with `value` at `pointer` (intermediate objects created as needed; `undefined`
 * removes the key). `doc` is never mutated. Setting `''` returns `value`.
 */
export function setAt<T>(doc: T, pointer: Pointer, value: unknown): T {
  const path = tokens(pointer);
  if (path.length === 0) return value as T;
  const write = (node: unknown, i: number): unknown => {
    const base = node !== null && typeof node === 'object' ? { ...(node as Record<string, unknown>) } : {};
    const key = path[i];
    if (i === path.length - 1) {
      if (value === undefined) delete base[key];
      else base[key] = value;
    } else {
      base[key] = write(base[key], i + 1);
    }
    return base;
  };
  return write(doc, 0) as T;
}
