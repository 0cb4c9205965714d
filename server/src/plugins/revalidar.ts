/**
 * Answers that depend on "today" are checked again where a later step relies on them: a quote's
 * stored answers (`cotizaciones.datos`) are validated against the quote's request schema
 * (schemas/api/cotizacion.json#/$defs/CotizarBody, which `$ref`s the step schemas) with the same Ajv, keywords and
 * Argentine clock as the API (src/core/date-keywords.ts, src/core/dates.ts), and only the date keywords' failures are
 * kept: what was valid when quoted and is no longer valid today (`x-diasDesdeHoy` start date, `x-edad` age). No
 * route writes its own date rule.
 */
import type { Ajv, ErrorObject } from 'ajv';
import type { FastifySchemaValidationError } from 'fastify';
import { DATE_KEYWORDS } from '../../../src/core/date-keywords.ts';
import { toFieldErrors } from './error-handler.ts';

/** One stored answer that today's date keywords refuse. */
export interface RespuestaVencida {
  /** JSON pointer of the answer in the stored body, e.g. "/initPolicyDate". */
  field: string;
  /** The schema's Spanish message (its `x-mensaje`, bounds filled in), as the API answers it. */
  message: string;
  /** The failing keyword, `x-diasDesdeHoy` or `x-edad`. */
  keyword: string;
  /** The field's schema (to find, e.g., the first date allowed today: src/core/dates.ts › rangoDeFechas). */
  schema: Record<string, unknown>;
}

/** Checks stored answers against today's date keywords. @returns [] when every date still holds */
export type RevalidarFechas = (respuestas: Record<string, unknown>) => RespuestaVencida[];

const FECHAS = new Set(DATE_KEYWORDS.map((k) => String(k.keyword)));

/**
 * @param ajv makes an Ajv with the step and wire schemas registered (plugins/schemas.ts › createAjv, verbose); called
 *   on first use, so building the app pays nothing for it
 * @param ref the request schema the answers were sent with (default the quote's, `cotizacion.json#/$defs/CotizarBody`)
 * @returns the check; it throws Error on first use when `ref` is not registered
 */
export function crearRevalidador(ajv: () => Ajv, ref = 'cotizacion.json#/$defs/CotizarBody'): RevalidarFechas {
  let validate: ReturnType<Ajv['getSchema']>;
  return (respuestas) => {
    validate ??= ajv().getSchema(ref);
    if (!validate) throw new Error(`No existe el esquema ${ref}`);
    if (validate(respuestas)) return [];
    return ((validate.errors ?? []) as (ErrorObject & { parentSchema?: Record<string, unknown> })[])
      .filter((e) => FECHAS.has(e.keyword))
      .map((e) => ({
        field: e.instancePath,
        message: toFieldErrors([e as unknown as FastifySchemaValidationError])[0].message,
        keyword: e.keyword,
        schema: e.parentSchema ?? {},
      }));
  };
}
