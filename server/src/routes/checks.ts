/**
 * Semantic checks shared by several route areas (beyond the JSON Schema shape checks): they return the field
 * errors with JSON pointers so a route can report every bad field at once as 400 VALIDACION.
 */
import type { FastifyInstance } from 'fastify';
import type { Domicilio } from '../db/repositories/domicilios.ts';
import type { Persona } from '../db/repositories/personas.ts';
import { RatingError } from '../domain/rating/engine.ts';
import { validarCodigoPostal } from '../domain/validation/codigo-postal.ts';
import { validarDocumento, type TipoDocumento } from '../domain/validation/documento.ts';
import { validarPrefijo, validarTelefono } from '../domain/validation/telefono.ts';
import { validationError, type FieldError } from '../errors.ts';
import { mensaje } from '../../../src/core/messages.ts';

/**
 * Phone (ENACOM): an unknown area code is reported on `areaField`, anything else on `numberField`. Whether a phone is
 * required is the request schema's say: when it is not sent (undefined), there is nothing to check here.
 */
export function erroresTelefono(
  app: FastifyInstance,
  areaCod: string | undefined,
  phoneNumber: string | undefined,
  areaField: string,
  numberField: string,
): FieldError[] {
  if (areaCod === undefined || phoneNumber === undefined) return [];
  const { codigosArea } = app.deps.lists;
  const prefijo = validarPrefijo(areaCod, codigosArea);
  if (!prefijo.valido) return [{ field: areaField, message: prefijo.mensaje }];
  const tel = validarTelefono(areaCod, phoneNumber, codigosArea);
  return tel.valido ? [] : [{ field: numberField, message: tel.mensaje }];
}

/**
 * Person: document number by type, phone; pointers under `prefix` (e.g. "/persona"). (Age 18–99 today is the
 * schema's `x-edad` on datos-personales.schema.json#/properties/birthDate.)
 */
export function erroresPersona(app: FastifyInstance, p: Persona, prefix = ''): FieldError[] {
  const errors: FieldError[] = [];
  const doc = validarDocumento(p.typeDoc as TipoDocumento, p.numberDoc);
  if (!doc.valido) errors.push({ field: `${prefix}/numberDoc`, message: doc.mensaje });
  errors.push(...erroresTelefono(app, p.areaCod, p.phoneNumber, `${prefix}/areaCod`, `${prefix}/phoneNumber`));
  return errors;
}

/**
 * Address: province and census locality exist and match, postal code is 4 digits or a CPA of that province.
 * (`numberAddress` unless `noAddressNumber` and `checkTyC` are enforced by the schema.)
 */
export function erroresDomicilio(app: FastifyInstance, d: Domicilio, prefix = ''): FieldError[] {
  const { lists } = app.deps;
  const errors: FieldError[] = [];
  const provincia = lists.provinciasPorId.get(d.idProvince);
  if (!provincia) errors.push({ field: `${prefix}/idProvince`, message: mensaje('validacion.provincia') });
  const loc = lists.localidadesPorId.get(d.codLocation);
  if (!loc) errors.push({ field: `${prefix}/codLocation`, message: mensaje('validacion.localidad') });
  else if (provincia && loc.provinciaId !== provincia.id) {
    errors.push({ field: `${prefix}/codLocation`, message: mensaje('servidor.localidadProvincia') });
  }
  const cp = validarCodigoPostal(d.zipCode, provincia?.iso);
  if (!cp.valido) errors.push({ field: `${prefix}/zipCode`, message: cp.mensaje });
  return errors;
}

/**
 * Runs a rating call, turning a RatingError into 400 VALIDACION on its field.
 * @param prefix JSON pointer prefix when the rated fields are nested in the body
 */
export function priceOr400<T>(fn: () => T, prefix = ''): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof RatingError) throw validationError([{ field: prefix + err.field, message: err.message }]);
    throw err;
  }
}
