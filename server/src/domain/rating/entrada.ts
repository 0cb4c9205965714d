/**
 * The ONE rating-input builder: every place that prices — cotizar, datos-presupuesto, the resumed
 * quote (postventa › retomar) and emission (solicitar) — builds the engine's input here, so an answer a staffer adds
 * to a step and to the tariff's `factores` prices the same everywhere, to the cent.
 */
import type { RatingInput } from './engine.ts';

/** What a stored quote carries for pricing: its answers as sent to cotizar (`datos`) and where it was priced. */
export interface CotizacionTasable {
  /** The cotizar body as sent (every answer a rating dimension may name). */
  datos: Record<string, unknown>;
  /** Zone code resolved at quote time (tariff `zonas`). */
  zona: string;
  /** INDEC 2-digit province id of the quoted locality. */
  idProvincia: string;
}

/**
 * Rating input of a quote's answers at a location.
 * @param respuestas the cotizar body (or a stored quote's `datos`): every answer, untouched
 * @param ubicacion zone (tariff `zonas` key) and INDEC province id of the risk
 * @returns the answers plus `zona` and `provinciaId` (answers never override them)
 */
export function entradaDeRespuestas(respuestas: Record<string, unknown>, ubicacion: { zona: string; provinciaId: string }): RatingInput {
  return { ...respuestas, metros: respuestas.metros as number, zona: ubicacion.zona, provinciaId: ubicacion.provinciaId };
}

/**
 * Rating input of a stored quote, optionally moved to another location (the address step: emission re-prices at the
 * address's zone).
 */
export function entradaDeCotizacion(cot: CotizacionTasable, ubicacion?: { zona: string; provinciaId: string }): RatingInput {
  return entradaDeRespuestas(cot.datos, ubicacion ?? { zona: cot.zona, provinciaId: cot.idProvincia });
}
