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

interface AjvErrorVerbose extends FastifySchemaValidationError {
  parentSchema?: Record<string, unknown>;
}

const TIPOS: Record<string, string> = {
  string: 'un texto',
  integer: 'un número entero',
  number: 'un número',
  boolean: 'sí o no (true/false)',
  array: 'una lista',
  object: 'un objeto',
};

const FORMATOS: Record<string, string> = {
  email: 'Ingresá un e-mail válido.',
  date: 'Ingresá una fecha válida (AAAA-MM-DD).',
  uuid: 'El identificador no es válido.',
};

/** Spanish message for one Ajv error (keyword-based, unless the schema carries `x-mensaje`). */
function mensaje(e: AjvErrorVerbose): string {
  const p = e.params as Record<string, unknown>;
  const parent = e.parentSchema ?? {};
  if (e.keyword === 'required') return 'Este dato es obligatorio.';
  if (e.keyword === 'additionalProperties') return 'Este dato no corresponde a este pedido.';
  if (e.keyword === 'x-texto') return MENSAJE_TEXTO_INVALIDO;
  if (typeof parent['x-mensaje'] === 'string') return parent['x-mensaje'];
  switch (e.keyword) {
    case 'type': {
      const tipos = String(p.type).split(',').map((t) => TIPOS[t] ?? t);
      return `Tiene que ser ${tipos.join(' o ')}.`;
    }
    case 'enum':
      return `Elegí una de estas opciones: ${(p.allowedValues as unknown[]).join(', ')}.`;
    case 'const':
      return 'El valor no es válido.';
    case 'minimum':
    case 'maximum':
      return typeof parent.minimum === 'number' && typeof parent.maximum === 'number'
        ? `Ingresá un número entre ${parent.minimum} y ${parent.maximum}.`
        : e.keyword === 'minimum'
          ? `Ingresá un número mayor o igual a ${p.limit}.`
          : `Ingresá un número menor o igual a ${p.limit}.`;
    case 'minLength':
      return p.limit === 1 ? 'Este dato es obligatorio.' : `Ingresá al menos ${p.limit} caracteres.`;
    case 'maxLength':
      return `Ingresá como máximo ${p.limit} caracteres.`;
    case 'format':
      return FORMATOS[String(p.format)] ?? 'El formato no es válido.';
    case 'pattern':
      return 'El formato no es válido.';
    case 'x-texto':
      return MENSAJE_TEXTO_INVALIDO;
    case 'x-json-libre':
      return MENSAJE_JSON_LIBRE;
    case 'uniqueItems':
      return 'No repitas opciones.';
    case 'maxItems':
      return `Elegí como máximo ${p.limit}.`;
    default:
      return 'El dato no es válido.';
  }
}

/** Ajv errors → one `FieldError` per JSON pointer (first error of a field wins; `if` wrappers dropped). */
export function toFieldErrors(validation: FastifySchemaValidationError[]): FieldError[] {
  const byField = new Map<string, string>();
  for (const e of validation as AjvErrorVerbose[]) {
    if (e.keyword === 'if') continue;
    const p = e.params as Record<string, unknown>;
    const extra = e.keyword === 'required' ? p.missingProperty : e.keyword === 'additionalProperties' ? p.additionalProperty : undefined;
    const field = extra === undefined ? e.instancePath : `${e.instancePath}/${String(extra)}`;
    if (!byField.has(field)) byField.set(field, field === '' && e.keyword === 'type' ? 'Enviá los datos en formato JSON.' : mensaje(e));
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
  if (status === 413) return new ApiError(413, 'VALIDACION', 'Los datos enviados son demasiado grandes.');
  if (status === 503) return serviceUnavailable();
  if (status === 415) return new ApiError(415, 'VALIDACION', 'Enviá los datos en formato JSON (Content-Type: application/json).');
  if (status >= 400 && status < 500) {
    const json = err.code?.startsWith('FST_ERR_CTP_') || err instanceof SyntaxError;
    return new ApiError(status, 'VALIDACION', json ? 'El pedido no es un JSON válido.' : MENSAJES.VALIDACION);
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
    return reply.status(api.statusCode).send({ status: api.statusCode, code: api.code, message: api.message, ...(api.errors ? { errors: api.errors } : {}) });
  });
});
