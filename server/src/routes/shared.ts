/** Route helpers: schema references (schemas/api, see plugins/schemas.ts) and lookups shared by several areas. */

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Cotizacion } from '../db/repositories/cotizaciones.ts';
import type { Localidad } from '../domain/listas/index.ts';
import { MENSAJES, notFound, validationError } from '../errors.ts';
import { mensaje } from '../../../src/core/messages.ts';

/** `$ref` to a definition of a wire schema file, e.g. ref('cotizacion', 'CotizarBody'). */
export function ref(area: string, def: string): { $ref: string } {
  return { $ref: `${area}.json#/$defs/${def}` };
}

/** Response map: `ok` for the success status (200 unless given) + the error shape for every 4xx/5xx. */
export function responses(ok: { $ref: string }, status = 200): Record<string, { $ref: string }> {
  const error = ref('common', 'Error');
  return { [status]: ok, '4xx': error, '5xx': error };
}

/**
 * Loads a quote of the visitor's session (`request.sesion`, plugins/session.ts).
 * @throws ApiError 404 NO_ENCONTRADO "No encontramos tu cotización. Volvé a cotizar." — the same for an unknown
 *   refId and for another session's (no one learns which quotes exist)
 */
export async function requireCotizacion(app: FastifyInstance, refId: string, request: FastifyRequest): Promise<Cotizacion> {
  const cot = await app.deps.repos.cotizaciones.deSesion(refId, request.sesion);
  if (!cot) throw notFound(MENSAJES.COTIZACION_NO_ENCONTRADA);
  return cot;
}

/** Rating input of a stored quote (the one builder: domain/rating/entrada.ts). */
export { entradaDeCotizacion as ratingInputDe } from '../domain/rating/entrada.ts';

/**
 * Finds a census locality and checks it belongs to the province.
 * @param field JSON pointer reported on error (e.g. "/codLocation")
 * @throws ApiError 400 VALIDACION when unknown or in another province
 */
export function requireLocalidad(app: FastifyInstance, codigo: string, provinciaId: string | undefined, field: string): Localidad {
  const loc = app.deps.lists.localidadesPorId.get(codigo);
  if (!loc) throw validationError([{ field, message: mensaje('validacion.localidad') }]);
  if (provinciaId !== undefined && loc.provinciaId !== provinciaId) {
    throw validationError([{ field, message: mensaje('servidor.localidadProvincia') }]);
  }
  return loc;
}
