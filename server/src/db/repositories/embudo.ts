/** The staff's funnel events (`embudo_eventos`, POST /embudo/eventos; read by scripts/report-funnel.ts). */
import type { Queryable } from '../index.ts';

/** One event as the wire carries it (schemas/api/embudo.json › Evento). `en`: the browser's time, ISO 8601. */
export interface EventoEmbudo {
  recorrido: string;
  paso: string;
  tipo: 'mostrado' | 'enviado';
  en: string;
  /** On an `enviado` of a step in flow.json › funnel.splitBy: the chosen value (e.g. TC, CBU). */
  rama?: string;
}

/** A stored event. `recibidoEn`: the server's time it arrived (what `--since` filters on). */
export interface EventoGuardado extends EventoEmbudo {
  recibidoEn: Date;
  versionFlujo: number;
  /** The batch was marked as a replay/preview/test journey (EventosBody.sintetico). */
  sintetico: boolean;
}

/** Funnel inserts and reads over `db`. */
export function embudoRepository(db: Queryable) {
  return {
    /** Stores a batch in one statement; `sintetico` marks every row (a replay's, the preview's, a test's). @returns how many rows were written */
    async insertar(versionFlujo: number, eventos: EventoEmbudo[], sintetico = false): Promise<number> {
      if (eventos.length === 0) return 0;
      const values: string[] = [];
      const params: unknown[] = [versionFlujo, sintetico];
      for (const e of eventos) {
        const i = params.length;
        values.push(`($${i + 1}::uuid, $${i + 2}, $${i + 3}, $${i + 4}::timestamptz, $1, $2, $${i + 5})`);
        params.push(e.recorrido, e.paso, e.tipo, e.en, e.rama ?? null);
      }
      const rows = await db.query<{ n: number }>(
        `WITH i AS (INSERT INTO embudo_eventos (recorrido, paso, tipo, ocurrido_en, version_flujo, sintetico, rama) VALUES ${values.join(', ')} RETURNING 1)
         SELECT count(*)::int AS n FROM i`,
        params,
      );
      return rows[0].n;
    },
    /** Every event received since `desde` (all when undefined), oldest first. */
    async desde(desde?: Date): Promise<EventoGuardado[]> {
      const rows = await db.query<{
        recorrido: string;
        paso: string;
        tipo: 'mostrado' | 'enviado';
        en: Date;
        recibido_en: Date;
        version_flujo: number;
        sintetico: boolean;
        rama: string | null;
      }>(
        `SELECT recorrido::text AS recorrido, paso, tipo, ocurrido_en AS en, recibido_en, version_flujo, sintetico, rama FROM embudo_eventos
         WHERE $1::timestamptz IS NULL OR recibido_en >= $1::timestamptz ORDER BY id`,
        [desde ? desde.toISOString() : null],
      );
      return rows.map((r) => ({
        recorrido: r.recorrido,
        paso: r.paso,
        tipo: r.tipo,
        en: new Date(r.en).toISOString(),
        recibidoEn: new Date(r.recibido_en),
        versionFlujo: r.version_flujo,
        sintetico: r.sintetico,
        ...(r.rama ? { rama: r.rama } : {}),
      }));
    },
  };
}
export type EmbudoRepository = ReturnType<typeof embudoRepository>;
