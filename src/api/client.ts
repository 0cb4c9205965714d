/**
 * HTTP client for the reference API (SPEC §7; wire contract in schemas/api/README.md).
 * JSON in and out, cookies included, the CSRF dance before every POST, one error type with a
 * Spanish message. It never logs: request bodies may hold card numbers and CBUs.
 */
import { BASE } from '../app/base.ts';
import wretch from 'wretch';

/** Per-request time limit (ms); past it the request is aborted and reported as a network error. */
export const REQUEST_TIMEOUT_MS = 15_000;

/**
 * Waits before each retry of an idempotent POST (ms): a POST sent with an Idempotency-Key that timed out, found no
 * network or got 502/503/504 is sent again with the SAME key, at most this many times (the server answers a repeat
 * with the first answer, so a purchase is never made twice). A 4xx is never retried.
 */
export const POST_RETRY_DELAYS_MS = [1_000, 3_000] as const;

/** Message for a reply the app cannot read (non-JSON error body, broken success body). */
export const MENSAJE_ERROR_SERVIDOR = 'Tuvimos un problema. Volvé a intentar en unos minutos.';
/** Message for a request that never got a reply (offline, DNS, CORS, timeout). */
export const MENSAJE_ERROR_RED = 'No pudimos conectarnos. Revisá tu conexión y volvé a intentar.';

/** One invalid field of a 400 reply: `field` is a JSON pointer into the body or query. */
export type FieldError = { field: string; message: string };

/**
 * Every failed call (schemas/api/README.md "One error shape").
 * - `status`: HTTP status, `0` when no reply arrived.
 * - `code`: the server's stable code (`VALIDACION`, `CSRF_INVALIDO`, `NO_ENCONTRADO`, `CONFLICTO`,
 *   `DEMASIADAS_SOLICITUDES`, `ERROR_INTERNO`), or `ERROR_SERVIDOR` (unreadable reply), or `RED` (no reply).
 * - `message`: always Spanish, fit to show to the visitor.
 * - `errors`: per-field messages (400 only), else `[]`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: FieldError[];

  constructor(status: number, code: string, message: string, errors: FieldError[] = [], options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.errors = errors;
  }
}

/** The API client returned by {@link createApiClient}. */
export interface ApiClient {
  /** `GET {baseUrl}{path}?{query}`; `undefined` query values are left out. Resolves to the JSON reply. */
  get<T>(path: string, query?: Record<string, string | number | undefined>): Promise<T>;
  /**
   * `GET {baseUrl}/set-csrf`, then `POST {baseUrl}{path}` with `body` as JSON and `x-xsrf-token`.
   * With `opts.idempotencyKey` the POST carries `Idempotency-Key` and is retried safely with the same key after a
   * network failure, a timeout or 502/503/504 ({@link POST_RETRY_DELAYS_MS}); never after a 4xx.
   */
  post<T>(path: string, body: unknown, opts?: PostOptions): Promise<T>;
}

/** Options of {@link ApiClient.post}. */
export interface PostOptions {
  /** A key unique to this operation (e.g. `crypto.randomUUID()` made once per purchase attempt), 1–255 visible ASCII. */
  idempotencyKey?: string;
}

/** Failures worth retrying with the same Idempotency-Key: no reply, or the server/proxy says "try again". */
const isRetryable = (error: ApiError) => error.status === 0 || error.status === 502 || error.status === 503 || error.status === 504;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const isFieldError = (value: unknown): value is FieldError =>
  isRecord(value) && typeof value.field === 'string' && typeof value.message === 'string';

/** An HTTP error reply as wretch reports it: `message` holds the body text. */
const isHttpError = (error: unknown): error is Error & { status: number; response: Response } =>
  error instanceof Error && typeof (error as { status?: unknown }).status === 'number' && 'response' in error;

/** Maps anything thrown while calling the API to an {@link ApiError}. */
function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (!isHttpError(error)) return new ApiError(0, 'RED', MENSAJE_ERROR_RED, [], { cause: error });
  let body: unknown;
  try {
    body = JSON.parse(error.message);
  } catch {
    body = undefined;
  }
  if (isRecord(body) && typeof body.code === 'string' && typeof body.message === 'string' && body.message !== '') {
    const status = typeof body.status === 'number' ? body.status : error.status;
    const errors = Array.isArray(body.errors) ? body.errors.filter(isFieldError) : [];
    return new ApiError(status, body.code, body.message, errors, { cause: error });
  }
  return new ApiError(error.status, 'ERROR_SERVIDOR', MENSAJE_ERROR_SERVIDOR, [], { cause: error });
}

/** `?a=1&b=x` from the defined entries of `query`, or `''`. */
function queryString(query: Record<string, string | number | undefined> | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.append(key, String(value));
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

/**
 * Creates the API client (SPEC §7).
 * @param opts.baseUrl prefix of every path, default `/api`.
 * @param opts.fetch fetch implementation, default the global `fetch` (tests inject a fake).
 * Every request sends cookies (`credentials: 'include'`) and `Accept: application/json`, and is
 * aborted after {@link REQUEST_TIMEOUT_MS}. Replies are parsed as JSON (an empty body gives `undefined`).
 * Errors reject with {@link ApiError}: the server's error body as is; an unreadable reply →
 * `ERROR_SERVIDOR` with the HTTP status; no reply or timeout → status 0, `RED`.
 * A POST fetches a fresh CSRF token first (`GET /set-csrf` → `{ csrfToken }`, never from the HTTP cache; POSTs starting
 * while one is in flight share it) and sends it as `x-xsrf-token`; a missing token rejects with `ERROR_SERVIDOR`
 * without sending the POST.
 */
/** Where the API lives (SPEC §7); links to API documents (PDF downloads) use it too. */
export const API_BASE = `${BASE}/api`;

export function createApiClient(opts: { baseUrl?: string; fetch?: typeof fetch } = {}): ApiClient {
  const base = wretch(opts.baseUrl ?? API_BASE, { credentials: 'include' }).accept('application/json');
  const api = opts.fetch ? base.fetchPolyfill(opts.fetch) : base;

  async function send<T>(
    url: string,
    init: { method: 'GET'; noStore?: boolean } | { method: 'POST'; body: unknown; csrfToken: string; idempotencyKey?: string },
  ): Promise<T> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
    try {
      const request = api
        .url(url)
        .options(init.method === 'GET' && init.noStore ? { signal: controller.signal, cache: 'no-store' } : { signal: controller.signal });
      const response =
        init.method === 'GET'
          ? await request.get().res()
          : await request
              .headers(
                init.idempotencyKey
                  ? { 'x-xsrf-token': init.csrfToken, 'idempotency-key': init.idempotencyKey }
                  : { 'x-xsrf-token': init.csrfToken },
              )
              .json(init.body ?? {})
              .post()
              .res();
      const text = await response.text();
      if (text.trim() === '') return undefined as T;
      try {
        return JSON.parse(text) as T;
      } catch (error) {
        throw new ApiError(response.status, 'ERROR_SERVIDOR', MENSAJE_ERROR_SERVIDOR, [], { cause: error });
      }
    } catch (error) {
      throw toApiError(error);
    } finally {
      clearTimeout(timer);
    }
  }

  // POSTs that start while a `GET /set-csrf` is in flight share it: before the browser holds the secret cookie, two
  // parallel fetches would each make a secret and the second cookie would void the first token (403 CSRF_INVALIDO)
  let tokenInFlight: Promise<{ csrfToken?: unknown } | undefined> | null = null;
  const fetchToken = () => {
    tokenInFlight ??= send<{ csrfToken?: unknown } | undefined>('/set-csrf', { method: 'GET', noStore: true }).finally(() => {
      tokenInFlight = null;
    });
    return tokenInFlight;
  };

  return {
    get: <T>(path: string, query?: Record<string, string | number | undefined>) => send<T>(path + queryString(query), { method: 'GET' }),

    async post<T>(path: string, body: unknown, opts: PostOptions = {}): Promise<T> {
      const once = async () => {
        const reply = await fetchToken();
        const csrfToken = reply?.csrfToken;
        if (typeof csrfToken !== 'string' || csrfToken === '') {
          throw new ApiError(502, 'ERROR_SERVIDOR', MENSAJE_ERROR_SERVIDOR);
        }
        return send<T>(path, { method: 'POST', body, csrfToken, idempotencyKey: opts.idempotencyKey });
      };
      if (!opts.idempotencyKey) return once();
      for (let attempt = 0; ; attempt++) {
        try {
          return await once();
        } catch (error) {
          const apiError = toApiError(error);
          if (attempt >= POST_RETRY_DELAYS_MS.length || !isRetryable(apiError)) throw apiError;
          await new Promise((resolve) => setTimeout(resolve, POST_RETRY_DELAYS_MS[attempt]));
        }
      }
    },
  };
}

/** Readable cookie holding the last CSRF token the server issued (server/src/plugins/csrf.ts › CSRF_COOKIE_TOKEN). */
export const CSRF_TOKEN_COOKIE = 'XSRF-TOKEN';

/**
 * A POST that outlives the page (`fetch` with `keepalive`): a request the browser finishes even when the visitor
 * leaves or closes the tab meanwhile, which it cancels for any other fetch. For the funnel's batches (engine/funnel):
 * the ones sent as the page goes away, and the ones already on their way when it does. There is no time for the CSRF
 * round trip, so it sends the token of the readable `XSRF-TOKEN` cookie, which every earlier POST left; without that
 * cookie nothing is sent.
 * @param path API path, e.g. `/embudo/eventos`; @param body sent as JSON
 * @param opts.baseUrl default `/api`; opts.fetch / opts.cookies default the global `fetch` / `document.cookie`
 * @returns undefined when nothing was sent (no token cookie, or cookies that cannot be read); else the request:
 *   resolves on a 2xx reply, rejects with {@link ApiError} otherwise (the reply's status; 0 when none came)
 */
export function postKeepalive(
  path: string,
  body: unknown,
  opts: { baseUrl?: string; fetch?: typeof fetch; cookies?: () => string } = {},
): Promise<void> | undefined {
  let token = '';
  try {
    // document.cookie throws in a sandboxed document; a cookie that is not URI-encoded is no token of ours
    const cookies = opts.cookies ? opts.cookies() : typeof document !== 'undefined' ? document.cookie : '';
    const pair = cookies.split(/;\s*/).find((c) => c.startsWith(`${CSRF_TOKEN_COOKIE}=`));
    token = pair ? decodeURIComponent(pair.slice(CSRF_TOKEN_COOKIE.length + 1)) : '';
  } catch {
    return undefined;
  }
  if (!token) return undefined;
  const send = opts.fetch ?? fetch;
  let request: Promise<Response>;
  try {
    // called now, not in a later task: as the page goes away, this is the last moment it can start
    request = send(`${opts.baseUrl ?? API_BASE}${path}`, {
      method: 'POST',
      keepalive: true,
      credentials: 'include',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-xsrf-token': token },
      body: JSON.stringify(body),
    });
  } catch (error) {
    return Promise.reject(toApiError(error));
  }
  return request.then(
    (res) => {
      if (!res.ok) throw new ApiError(res.status, 'ERROR_SERVIDOR', MENSAJE_ERROR_SERVIDOR);
    },
    (error: unknown) => {
      throw toApiError(error);
    },
  );
}

/**
 * {@link postKeepalive} as the page goes away: fire and forget, never throws, never waits for the reply.
 * @returns whether the request was handed to the browser
 */
export function postOnPageExit(
  path: string,
  body: unknown,
  opts: { baseUrl?: string; fetch?: typeof fetch; cookies?: () => string } = {},
): boolean {
  try {
    const sent = postKeepalive(path, body, opts);
    sent?.catch(() => undefined);
    return sent !== undefined;
  } catch {
    return false;
  }
}
