/**
 * What the access log may show of a request: Fastify's own request serializer, except that the URL
 * goes out with every signed link token replaced by "[token]" — the policy PDF path
 * (`/api/documentos/poliza/<token>` → `/api/documentos/poliza/[token]`), the resume-link query parameter
 * (flow.json › resume.param, `?retomar=<token>`) and a `token` query parameter, plus anything shaped like a token
 * (domain/postventa/tokens.ts › redactarTokens). app.ts adds {@link LOG_REDACT_TOKENS} to pino's `redact` and runs
 * `redactarTokens` over every finished line, so a token in a body, params or an error message never leaves either.
 */
import type { FastifyRequest } from 'fastify';
import { PARAMETRO_RETOMAR } from '../domain/postventa/service.ts';
import { redactarTokens, TOKEN_REDACTADO } from '../domain/postventa/tokens.ts';

/** Query parameters whose value is a link token. */
const PARAMETROS_TOKEN = new Set([PARAMETRO_RETOMAR, 'token']);
/** Paths whose last segment is a link token (routes/postventa). */
const RUTA_TOKEN = /^(\/api\/documentos\/poliza\/)[^/?#]*/;

/**
 * @param url a request URL (path + query), e.g. "/api/documentos/poliza/eyJr….abc?x=1"
 * @returns the same URL with link tokens replaced by "[token]", e.g. "/api/documentos/poliza/[token]?x=1"
 */
export function redactarUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).replace(RUTA_TOKEN, `$1${TOKEN_REDACTADO}`);
  if (q === -1) return redactarTokens(path);
  const query = url
    .slice(q + 1)
    .split('&')
    .map((par) => {
      const eq = par.indexOf('=');
      if (eq === -1) return par;
      let nombre = par.slice(0, eq);
      try {
        nombre = decodeURIComponent(nombre);
      } catch {
        // a malformed name is compared as written
      }
      return PARAMETROS_TOKEN.has(nombre) ? `${par.slice(0, eq)}=${TOKEN_REDACTADO}` : par;
    })
    .join('&');
  return redactarTokens(`${path}?${query}`);
}

/** pino `redact` paths of request parts that carry a link token (bodies, params, query) if they ever get logged. */
export const LOG_REDACT_TOKENS = [
  'req.body.token',
  'body.token',
  'req.params.token',
  'params.token',
  `req.query.${PARAMETRO_RETOMAR}`,
  `query.${PARAMETRO_RETOMAR}`,
  'req.query.token',
  'query.token',
];

/** Fastify logger serializers: the request as Fastify logs it by default, with its URL redacted. */
export const LOG_SERIALIZERS = {
  req(req: FastifyRequest) {
    return {
      method: req.method,
      url: redactarUrl(req.url),
      version: req.headers?.['accept-version'] as string | undefined,
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket ? req.socket.remotePort : undefined,
    };
  },
};
