/**
 * One visitor of an in-process API (Fastify `inject`), as the web client talks to it: its cookies, a fresh CSRF token
 * per POST, the Idempotency-Key, errors thrown as `{ status, ...body }`. The headless replay's `request` option
 * (tools/replay/headless.ts) for `npm run replay -- --headless` and the suite.
 */
import type { FastifyInstance } from 'fastify';
import type { ApiRequest } from '../../src/engine/calls.ts';

/** One request the visitor made and the API's answer (the flow walker reads them to say which call refused what). */
export interface ApiLog {
  req: ApiRequest;
  status: number;
  body?: Record<string, unknown>;
}

/**
 * @param log when given, every reply is appended to it
 * @returns a request function for one new visitor of `app` (its own cookie jar)
 */
export function visitor(app: FastifyInstance, log?: ApiLog[]): (req: ApiRequest) => Promise<unknown> {
  const cookies = new Map<string, string>();
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (res: { cookies: { name: string; value: string }[] }) => res.cookies.forEach((c) => cookies.set(c.name, c.value));
  return async (req: ApiRequest): Promise<unknown> => {
    const headers: Record<string, string> = { cookie: cookie() };
    if (req.method === 'POST') {
      const csrf = await app.inject({ method: 'GET', url: '/api/set-csrf', headers: { cookie: cookie() } });
      keep(csrf);
      headers.cookie = cookie();
      headers['x-xsrf-token'] = csrf.json().csrfToken;
      if (req.idempotencyKey) headers['idempotency-key'] = req.idempotencyKey;
    }
    const query = req.query
      ? `?${new URLSearchParams(
          Object.entries(req.query)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [k, String(v)]),
        )}`
      : '';
    const res = await app.inject({
      method: req.method,
      url: `/api${req.path}${query}`,
      headers,
      ...(req.method === 'POST' ? { payload: req.body as object } : {}),
    });
    keep(res);
    const body = res.body ? (res.json() as Record<string, unknown>) : undefined;
    log?.push({ req, status: res.statusCode, body });
    if (res.statusCode >= 400) throw { status: res.statusCode, ...body };
    return body;
  };
}
