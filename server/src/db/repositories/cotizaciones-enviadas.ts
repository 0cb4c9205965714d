/**
 * Quotes e-mailed with a resume link (`cotizaciones_enviadas`): what the visitor had answered, the flow version it
 * was answered with, and when the link expires. The link carries this row's id, signed (domain/postventa/tokens.ts).
 */
import type { Queryable } from '../types.ts';

/** A stored e-mailed quote as a resume link finds it. */
export interface CotizacionEnviada {
  refId: string;
  respuestas: unknown;
  /** flow.json › version the answers were given under. */
  version: number;
  /** The link has not expired. */
  vigente: boolean;
}

/** E-mailed quotes over `db` (the database or a transaction). */
export function cotizacionesEnviadasRepository(db: Queryable) {
  return {
    /**
     * Stores the answers of quote `refId` with a link valid for `vigenciaMs` ms from now.
     * @returns the row id (the link's subject) and the last day of the link (YYYY-MM-DD, Argentina)
     */
    async insertar(refId: string, respuestas: unknown, versionFlujo: number, vigenciaMs: number): Promise<{ id: string; vence: string }> {
      const [row] = await db.query<{ id: string; vence: string }>(
        `INSERT INTO cotizaciones_enviadas (ref_id, respuestas, version_flujo, vence_en) VALUES ($1, $2, $3, now() + make_interval(secs => $4::float8 / 1000))
         RETURNING id, to_char(vence_en AT TIME ZONE 'America/Argentina/Buenos_Aires', 'YYYY-MM-DD') AS vence`,
        [refId, JSON.stringify(respuestas), versionFlujo, vigenciaMs],
      );
      return row;
    },

    /** @returns the e-mailed quote `id` (expired or not), or null */
    async get(id: string): Promise<CotizacionEnviada | null> {
      const [row] = await db.query<CotizacionEnviada>(
        'SELECT ref_id AS "refId", respuestas, version_flujo AS version, vence_en > now() AS vigente FROM cotizaciones_enviadas WHERE id = $1',
        [id],
      );
      return row ?? null;
    },
  };
}
export type CotizacionesEnviadasRepository = ReturnType<typeof cotizacionesEnviadasRepository>;
