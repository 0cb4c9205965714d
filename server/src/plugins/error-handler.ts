/**
 * The one error handler: every 4xx/5xx leaves as `{ status, code, message, errors? }` in Spanish
 * (schemas/api/README.md › Conventions). Schema validation errors become 400 VALIDACION with one entry per field
 * (JSON pointer + a clear message, from the schema's `x-mensaje` or from the failed keyword); malformed JSON is a 400;
 * CSRF failures 403; rate limits 429; the database away 503 (with Retry-After); anything unexpected a logged 500
 * whose message never reveals internals.
 */
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifySchemaValidationError } from 'fastify';
import { isDatabaseUnavailable } from '../db/index.ts';
import { ApiError, MENSAJES, serviceUnavailable, type FieldError } from '../errors.ts';
import { MENSAJE_JSON_LIBRE, MENSAJE_TEXTO_INVALIDO } from './input-guard.ts';
import { mensaje } from '../../../src/core/messages.ts';
import { fieldBounds } from '../../../src/core/bounds.ts';

interface AjvErrorVerbose extends FastifySchemaValidationError {
  parentSchema?: Record<string, unknown>;
}

const TIPOS = ['string', 'integer', 'number', 'boolean', 'array', 'object'];

/**
 * The es.json key named by a schema's `x-mensaje` for `keyword`: a string applies to every keyword of that field,
 * an object maps keywords to keys (`"*"` for the rest).
 */
export function claveXMensaje(schema: Record<string, unknown> | undefined, keyword: string): string | undefined {
  const x = schema?.['x-mensaje'];
  if (typeof x === 'string') return x;
  if (x && typeof x === 'object') {
    const m = x as Record<string, unknown>;
    const key = m[keyword] ?? m['*'];
    return typeof key === 'string' ? key : undefined;
  }
  return undefined;
}

/** Spanish message for one Ajv error (keyword-based, unless the schema names an es.json key in `x-mensaje`). */
function mensajeDeError(e: AjvErrorVerbose): string {
  const p = e.params as Record<string, unknown>;
  const parent = e.parentSchema ?? {};
  const esq = (key: string, params?: Record<string, string | number>) => mensaje(`servidor.esquema.${key}`, params);
  if (e.keyword === 'required' || e.keyword === 'dependencies') return esq('obligatorio');
  if (e.keyword === 'additionalProperties' || e.keyword === 'false schema') return esq('noCorresponde');
  if (e.keyword === 'x-texto') return MENSAJE_TEXTO_INVALIDO;
  const clave = claveXMensaje(parent, e.keyword);
  if (clave) return mensaje(clave, { ...fieldBounds(parent), ...(p as Record<string, string | number>) });
  switch (e.keyword) {
    case 'type': {
      const tipos = String(p.type)
        .split(',')
        .map((t) => (TIPOS.includes(t) ? esq(`tipos.${t}`) : t));
      return esq('tipo', { tipos: tipos.join(esq('o')) });
    }
    case 'enum':
      return esq('enum', { opciones: (p.allowedValues as unknown[]).join(', ') });
    case 'const':
      return esq('const');
    case 'minimum':
    case 'maximum':
      return typeof parent.minimum === 'number' && typeof parent.maximum === 'number'
        ? esq('entre', { min: parent.minimum, max: parent.maximum })
        : esq(e.keyword === 'minimum' ? 'minimo' : 'maximo', { limit: Number(p.limit) });
    case 'minLength':
      return p.limit === 1 ? esq('obligatorio') : esq('minLength', { limit: Number(p.limit) });
    case 'maxLength':
      return esq('maxLength', { limit: Number(p.limit) });
    case 'format':
      return ['email', 'date', 'uuid'].includes(String(p.format)) ? esq(`formatos.${String(p.format)}`) : esq('formato');
    case 'pattern':
      return esq('formato');
    case 'x-json-libre':
      return MENSAJE_JSON_LIBRE;
    case 'uniqueItems':
      return esq('uniqueItems');
    case 'maxItems':
      return esq('maxItems', { limit: Number(p.limit) });
    default:
      return esq('generico');
  }
}

/** Ajv errors → one `FieldError` per JSON pointer (first error of a field wins; `if` wrappers dropped). */
export function toFieldErrors(validation: FastifySchemaValidationError[]): FieldError[] {
  const byField = new Map<string, string>();
  for (const e of validation as AjvErrorVerbose[]) {
    if (e.keyword === 'if') continue;
    const p = e.params as Record<string, unknown>;
    const extra =
      e.keyword === 'required' || e.keyword === 'dependencies'
        ? p.missingProperty
        : e.keyword === 'additionalProperties'
          ? p.additionalProperty
          : undefined;
    const field = extra === undefined ? e.instancePath : `${e.instancePath}/${String(extra)}`;
    if (!byField.has(field))
      byField.set(field, field === '' && e.keyword === 'type' ? mensaje('servidor.cuerpoNoJson') : mensajeDeError(e));
  }
  return [...byField].map(([field, message]) => ({ field, message }));
}

/** Maps any error to the wire shape. */
export function toApiError(err: FastifyError | ApiError): ApiError {
  if (err instanceof ApiError) return err;
  if (err.validation) return new ApiError(400, 'VALIDACION', MENSAJES.VALIDACION, toFieldErrors(err.validation));
  if (err.code?.startsWith('FST_CSRF_')) return new ApiError(403, 'CSRF_INVALIDO', MENSAJES.CSRF_INVALIDO);
  if (isDatabaseUnavailable(err)) return serviceUnavailable();
  const status = err.statusCode ?? 500;
  if (status === 429) return new ApiError(429, 'DEMASIADAS_SOLICITUDES', MENSAJES.DEMASIADAS_SOLICITUDES);
  if (status === 404) return new ApiError(404, 'NO_ENCONTRADO', MENSAJES.NO_ENCONTRADO);
  if (status === 413) return new ApiError(413, 'VALIDACION', mensaje('servidor.demasiadoGrande'));
  if (status === 503) return serviceUnavailable();
  if (status === 415) return new ApiError(415, 'VALIDACION', mensaje('servidor.tipoContenido'));
  if (status >= 400 && status < 500) {
    const json = err.code?.startsWith('FST_ERR_CTP_') || err instanceof SyntaxError;
    return new ApiError(status, 'VALIDACION', json ? mensaje('servidor.jsonInvalido') : MENSAJES.VALIDACION);
  }
  return new ApiError(500, 'ERROR_INTERNO', MENSAJES.ERROR_INTERNO);
}

/** Installs the error handler (sends `toApiError(err)` in the wire shape; logs 5xx). */
export default fp(async function errorHandlerPlugin(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | ApiError, request, reply) => {
    const api = toApiError(err);
    if (api.statusCode === 503) {
      request.log.warn({ err: { message: err.message } }, 'servicio no disponible');
      reply.header('retry-after', '5');
    } else if (api.statusCode >= 500) request.log.error({ err }, 'error interno');
    else request.log.info({ code: api.code, status: api.statusCode }, api.message);
    return reply
      .status(api.statusCode)
      .send({ status: api.statusCode, code: api.code, message: api.message, ...(api.errors ? { errors: api.errors } : {}) });
  });
});
