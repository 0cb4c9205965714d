/**
 * Data retention's statements (domain/maintenance/retention.ts decides when they run): one instance at a time
 * (a transaction-level advisory lock), then every expired row goes, counted per table.
 */
import type { Queryable } from '../types.ts';

/** Constant advisory-lock key for "Cotizador Hogar retention". */
const LOCK_ID = 7270012;

/** How long data is kept, days. */
export interface Retencion {
  /** Business logs and funnel events. */
  logsDias: number;
  /** Quotes never turned into an application, with what was recorded for them. */
  cotizacionesDias: number;
}

/** Rows deleted per table. */
export type Borrados = Record<string, number>;

/** Retention over a transaction `tx` (the lock and the temporary table last until it ends). */
export function retencionRepository(tx: Queryable) {
  /** Runs `DELETE … ` (without RETURNING) and @returns how many rows it deleted. */
  const borrar = async (sql: string, params: unknown[] = []) =>
    (await tx.query<{ n: number }>(`WITH d AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM d`, params))[0].n;
  return {
    /** @returns true when this transaction took the retention lock (false: another instance is running it) */
    async bloquear(): Promise<boolean> {
      const [lock] = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [LOCK_ID]);
      return lock.ok;
    },

    /**
     * Deletes business logs and funnel events older than `logsDias` days; abandoned quotes — created more than
     * `cotizacionesDias` days ago and never turned into an application — with the personal data, addresses,
     * rejections and (encrypted) payment methods recorded for them; Idempotency-Key answers older than one day; and
     * shared counters whose window ended over an hour ago.
     */
    async borrarVencidos(r: Retencion): Promise<Borrados> {
      const logs = await borrar('DELETE FROM logs WHERE creado_en < now() - make_interval(days => $1)', [r.logsDias]);
      const embudo = await borrar('DELETE FROM embudo_eventos WHERE recibido_en < now() - make_interval(days => $1)', [r.logsDias]);
      await tx.query(
        `CREATE TEMP TABLE abandonadas ON COMMIT DROP AS
         SELECT ref_id FROM cotizaciones c WHERE creada_en < now() - make_interval(days => $1)
           AND NOT EXISTS (SELECT 1 FROM solicitudes s WHERE s.ref_id = c.ref_id)`,
        [r.cotizacionesDias],
      );
      const hijos: Borrados = {};
      for (const tabla of ['personas', 'domicilios', 'rechazos', 'medios_pago']) {
        hijos[tabla] = await borrar(`DELETE FROM ${tabla} WHERE ref_id IN (SELECT ref_id FROM abandonadas)`);
      }
      const cotizaciones = await borrar('DELETE FROM cotizaciones WHERE ref_id IN (SELECT ref_id FROM abandonadas)');
      const idempotencia = await borrar("DELETE FROM idempotencia WHERE creada_en < now() - interval '1 day'");
      const limites = await borrar("DELETE FROM limites WHERE vence_en < now() - interval '1 hour'");
      return { logs, embudo, cotizaciones, ...hijos, idempotencia, limites };
    },
  };
}
