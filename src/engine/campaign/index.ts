/**
 * Advertising-campaign parameters and the once-per-10-minutes click log (SPEC §1, §4, §7, §9).
 * Parameters come from the landing URL, live 10 minutes in local storage, and a click log is sent at most once per
 * 10 minutes per tab session, through the call the flow declares for it (flow.json › campaign.clickLog: its body
 * binding builds the wire payload from this module's {@link ClickLogInput} at `/input`). Every storage access
 * tolerates failure: `console.error` and carry on (SPEC §8).
 */
import { attach, createEffect, createEvent, createStore, sample, type Effect, type EventCallable, type Store } from 'effector';
import { browserName, deviceType } from '../device.ts';

/** Campaign query parameters kept (SPEC §3 "Campaign parameters stored"). */
export const CAMPAIGN_KEYS = ['gclid', 'gad_source', 'gad_campaignid', 'url_campaign', 'fbclid', 'utm_campaign'] as const;
/** One of {@link CAMPAIGN_KEYS}. */
export type CampaignKey = (typeof CAMPAIGN_KEYS)[number];
/** The campaign parameters present in a landing URL, trimmed and non-empty. */
export type CampaignParams = Partial<Record<CampaignKey, string>>;

/** SPEC §9: campaign parameters expire, and the click log is deduplicated, over 10 minutes (ms). */
export const CAMPAIGN_TTL_MS = 600_000;
/** Local-storage key of `{ params: CampaignParams, expiresAt: number }` (`expiresAt` in ms since epoch). */
export const CAMPAIGN_STORAGE_KEY = 'cotizador-hogar:campania';
/** Local-storage key of `{ [sessionKey]: sentAtMs }`, the click logs already sent. */
export const CLICK_LOG_STORAGE_KEY = 'cotizador-hogar:clic-log';
/** Session-storage key of this tab's random session id. */
export const SESSION_STORAGE_KEY = 'cotizador-hogar:sesion';

/**
 * What the module knows of a landing with campaign parameters, passed to the flow's click-log call as `/input`; the
 * flow's binding maps it onto the wire (e.g. `navegador`, `id_extra`, `request` of POST /logs/insertar-log-ok).
 */
export type ClickLogInput = {
  /** {@link browserName} of the landing's user agent. */
  navegador: string;
  /** {@link deviceType} of the landing's user agent. */
  dispositivo: 'mobile' | 'desktop';
  /** The campaign parameters, `JSON.stringify(CampaignParams)`. */
  parametros: string;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function warn(what: string, error: unknown): void {
  console.error(`[campaña] ${what}`, error);
}

/** Keeps only known keys with non-empty string values; `null` when none is left. */
function cleanParams(value: unknown): CampaignParams | null {
  if (!isRecord(value)) return null;
  const params: CampaignParams = {};
  for (const key of CAMPAIGN_KEYS) {
    const raw = value[key];
    if (typeof raw === 'string' && raw.trim() !== '') params[key] = raw.trim();
  }
  return Object.keys(params).length > 0 ? params : null;
}

/**
 * Reads the campaign parameters of a landing URL (SPEC §1, §4).
 * @param search `location.search`, with or without the leading `?`.
 * @returns the known keys with trimmed, non-empty values (first non-empty occurrence wins), or `null`
 *   when the URL carries none.
 */
export function captureCampaign(search: string): CampaignParams | null {
  const query = new URLSearchParams(search);
  const found: Record<string, string> = {};
  for (const key of CAMPAIGN_KEYS) {
    const value = query.getAll(key).find((v) => v.trim() !== '');
    if (value !== undefined) found[key] = value;
  }
  return cleanParams(found);
}

/** Stores `params` for 10 minutes: `{ params, expiresAt: nowMs + 600000 }` (SPEC §9). Never throws. */
export function saveCampaign(storage: Storage | undefined, params: CampaignParams, nowMs: number): void {
  try {
    if (!storage) throw new Error('localStorage no disponible');
    storage.setItem(CAMPAIGN_STORAGE_KEY, JSON.stringify({ params, expiresAt: nowMs + CAMPAIGN_TTL_MS }));
  } catch (error) {
    warn('No se pudieron guardar los parámetros', error);
  }
}

/**
 * The stored campaign parameters while unexpired (SPEC §9: 10 minutes).
 * Expired or corrupted entries are removed and give `null`; storage failures are logged and give `null`.
 */
export function loadCampaign(storage: Storage | undefined, nowMs: number): CampaignParams | null {
  try {
    const raw = storage?.getItem(CAMPAIGN_STORAGE_KEY);
    if (raw == null) return null;
    let stored: unknown;
    try {
      stored = JSON.parse(raw);
    } catch {
      stored = null;
    }
    const params = isRecord(stored) ? cleanParams(stored.params) : null;
    if (params && isRecord(stored) && typeof stored.expiresAt === 'number' && nowMs < stored.expiresAt) return params;
    storage?.removeItem(CAMPAIGN_STORAGE_KEY);
    return null;
  } catch (error) {
    warn('No se pudieron leer los parámetros', error);
    return null;
  }
}

/** Removes the stored campaign parameters (SPEC §4: on inactivity, "in every case"). Never throws. */
export function clearCampaign(storage: Storage | undefined): void {
  try {
    storage?.removeItem(CAMPAIGN_STORAGE_KEY);
  } catch (error) {
    warn('No se pudieron borrar los parámetros', error);
  }
}

/** `{ [sessionKey]: sentAtMs }` from storage; anything unreadable counts as empty. */
function readClickLog(storage: Storage | undefined): Record<string, number> {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(CLICK_LOG_STORAGE_KEY) ?? '{}');
    if (!isRecord(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
  } catch (error) {
    warn('No se pudo leer el registro de clics', error);
    return {};
  }
}

/**
 * Whether the click log is due for this session (SPEC §7, §9: at most once per 10 minutes per session
 * key): `true` when never sent or sent ≥ 600000 ms before `nowMs`. Unreadable storage → `true`.
 */
export function clickLogDue(storage: Storage | undefined, sessionKey: string, nowMs: number): boolean {
  const sentAt = readClickLog(storage)[sessionKey];
  return sentAt === undefined || nowMs - sentAt >= CAMPAIGN_TTL_MS;
}

/**
 * Records that the click log for `sessionKey` was sent at `nowMs`, dropping entries older than the
 * 10-minute window so the key does not grow. Never throws.
 */
/** True when `error` is an answer of the server (an HTTP status ≥ 400), not a network failure or abort. */
function serverRefused(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400;
}

/**
 * Forgets the click-log record of `sessionKey` (a send that failed), so the next landing retries.
 * Failure-tolerant like the rest of this module.
 */
export function releaseClickLog(storage: Storage | undefined, sessionKey: string): void {
  try {
    if (!storage) throw new Error('localStorage no disponible');
    const log = readClickLog(storage);
    delete log[sessionKey];
    storage.setItem(CLICK_LOG_STORAGE_KEY, JSON.stringify(log));
  } catch (error) {
    warn('No se pudo actualizar el registro de clics', error);
  }
}

export function markClickLogSent(storage: Storage | undefined, sessionKey: string, nowMs: number): void {
  try {
    if (!storage) throw new Error('localStorage no disponible');
    const log = Object.fromEntries(Object.entries(readClickLog(storage)).filter(([, sentAt]) => nowMs - sentAt < CAMPAIGN_TTL_MS));
    log[sessionKey] = nowMs;
    storage.setItem(CLICK_LOG_STORAGE_KEY, JSON.stringify(log));
  } catch (error) {
    warn('No se pudo guardar el registro de clics', error);
  }
}

/** A random id: `crypto.randomUUID` where available (secure contexts), else 128 random bits in hex. */
function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Fallback when session storage is unusable: one id for the life of this page. */
let pageSessionKey: string | undefined;

/**
 * This tab's session key for the click-log dedupe (SPEC §7 "per session key"): a random id kept in
 * `sessionStorage['cotizador-hogar:sesion']`, so it lives as long as the tab. If session storage
 * fails, an id for the life of the page is used (logged).
 */
export function getSessionKey(sessionStorage: Storage | undefined): string {
  try {
    if (!sessionStorage) throw new Error('sessionStorage no disponible');
    const existing = sessionStorage.getItem(SESSION_STORAGE_KEY);
    if (existing) return existing;
    const created = randomId();
    sessionStorage.setItem(SESSION_STORAGE_KEY, created);
    return created;
  } catch (error) {
    warn('No se pudo usar la clave de sesión', error);
    pageSessionKey ??= randomId();
    return pageSessionKey;
  }
}

/** `globalThis[name]`, or `undefined` where touching it throws (storage blocked by the browser). */
function webStorage(name: 'localStorage' | 'sessionStorage'): Storage | undefined {
  try {
    return globalThis[name];
  } catch {
    return undefined;
  }
}

/** What the landing page reports: `location.search`, `navigator.userAgent`, `navigator.maxTouchPoints`. */
export type Landing = { search: string; userAgent: string; maxTouchPoints?: number };

/** The campaign model returned by {@link createCampaignModel}. */
export interface CampaignModel {
  /** The app was opened: capture (or reload) the campaign and send the click log if due. */
  landed: EventCallable<Landing>;
  /** The session ended by inactivity: forget the campaign (SPEC §4 "in every case"). */
  cleared: EventCallable<void>;
  /** The campaign parameters of this visit, or `null`. */
  $campaign: Store<CampaignParams | null>;
}

/**
 * Campaign capture and click log (SPEC §1, §4, §7, §9).
 * - `landed`: parameters from the URL are saved for 10 minutes; without any, the stored unexpired
 *   ones are used. With parameters and {@link clickLogDue}, `clickLogFx` is called with a
 *   {@link ClickLogInput}. The send is recorded when it starts (so a reload while it is in flight does
 *   not send it twice: at most once per 10 minutes). A failure — a rejected effect or one that
 *   resolves with an `Error` (SPEC §8 "passed on as ordinary values") — is only logged to the
 *   console; when the server refused it (HTTP status ≥ 400) the record is released so the next
 *   landing retries, while after a network failure or abort it is kept (the log may have arrived).
 * - `cleared`: removes the stored parameters and resets `$campaign`.
 * @param opts.clickLogFx the flow's click-log call (its body built by the flow from the input); only this model's
 *   calls are watched.
 * @param opts.storage / opts.session getters, default `localStorage` / `sessionStorage`.
 * @param opts.now clock in ms since epoch, default `Date.now`.
 */
export function createCampaignModel(opts: {
  clickLogFx: Effect<ClickLogInput, unknown>;
  storage?: () => Storage | undefined;
  session?: () => Storage | undefined;
  now?: () => number;
}): CampaignModel {
  const storage = opts.storage ?? (() => webStorage('localStorage'));
  const session = opts.session ?? (() => webStorage('sessionStorage'));
  const now = opts.now ?? (() => Date.now());

  const landed = createEvent<Landing>();
  const cleared = createEvent<void>();

  /** Reads/writes storage for a landing: the campaign to use and whether its click log is due. */
  const resolveLandingFx = createEffect((landing: Landing) => {
    const nowMs = now();
    const captured = captureCampaign(landing.search);
    if (captured) saveCampaign(storage(), captured, nowMs);
    const params = captured ?? loadCampaign(storage(), nowMs);
    const sessionKey = getSessionKey(session());
    const logDue = params !== null && clickLogDue(storage(), sessionKey, nowMs);
    return { landing, params, sessionKey, logDue };
  });

  const sendClickLogFx = attach({
    effect: opts.clickLogFx,
    mapParams: ({ input }: { input: ClickLogInput; sessionKey: string }) => input,
  });
  const markSentFx = createEffect((sessionKey: string) => markClickLogSent(storage(), sessionKey, now()));
  const releaseFx = createEffect((sessionKey: string) => releaseClickLog(storage(), sessionKey));
  const reportLogFailureFx = createEffect((error: unknown) => {
    console.error('[campaña] No se pudo registrar el clic de campaña', error);
  });
  const clearStorageFx = createEffect(() => clearCampaign(storage()));

  const $campaign = createStore<CampaignParams | null>(null)
    .on(resolveLandingFx.doneData, (_, { params }) => params)
    .reset(cleared);

  // when the app is opened, then resolve the campaign against the URL and storage
  sample({ clock: landed, target: resolveLandingFx });

  // when a landing has campaign params and the log is due, then send the click log
  sample({
    clock: resolveLandingFx.doneData,
    filter: ({ params, logDue }) => params !== null && logDue,
    fn: ({ landing, params, sessionKey }) => ({
      sessionKey,
      input: {
        navegador: browserName(landing.userAgent),
        dispositivo: deviceType(landing.userAgent, landing.maxTouchPoints),
        parametros: JSON.stringify(params),
      } satisfies ClickLogInput,
    }),
    target: sendClickLogFx,
  });

  // when the click log starts, then it is recorded for this session (a reload meanwhile does not resend)
  sample({ clock: sendClickLogFx, fn: ({ sessionKey }) => sessionKey, target: markSentFx });

  // when the click log failed (rejected or resolved with an Error), then the record is released and the console told
  const logFailed = sample({
    clock: [
      sendClickLogFx.fail.map(({ params, error }) => ({ sessionKey: params.sessionKey, error })),
      sendClickLogFx.done
        .filter({ fn: ({ result }) => result instanceof Error })
        .map(({ params, result }) => ({ sessionKey: params.sessionKey, error: result })),
    ],
  });
  // …but only when the server answered with an error: after a network failure or an aborted request
  // (e.g. the visitor reloaded) the log may have arrived, and the spec asks for at most once
  sample({ clock: logFailed, filter: ({ error }) => serverRefused(error), fn: ({ sessionKey }) => sessionKey, target: releaseFx });
  sample({ clock: logFailed, fn: ({ error }) => error, target: reportLogFailureFx });

  // when the session ends by inactivity, then remove the stored campaign
  sample({ clock: cleared, target: clearStorageFx });

  return { landed, cleared, $campaign };
}
