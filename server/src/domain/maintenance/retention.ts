/**
 * Data retention (issue 10 item 12): bounded storage without manual clean-ups.
 * `depurar` deletes, in one transaction that only one instance runs at a time (transaction-level advisory lock):
 * - business logs and funnel events (embudo_eventos) older than `logsDias` days;
 * - abandoned quotes — created more than `cotizacionesDias` days ago and never turned into an application — with the
 *   personal data, addresses, rejections and (encrypted) payment methods recorded for them;
 * - Idempotency-Key answers older than one day and shared counters whose window ended.
 * `createRetentionJob` runs it every `intervaloMs` on every instance (the lock makes extra runs no-ops).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';

const LOCK_ID = 7270012; // constant advisory-lock key for "Cotizador Hogar retention"

export interface Retencion {
  logsDias: number;
  cotizacionesDias: number;
}

/** @returns rows deleted per table, or null when another instance was running it */
export async function depurar(db: Db, r: Retencion): Promise<Record<string, number> | null> {
  return db.transaction(async (tx) => {
    const [lock] = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [LOCK_ID]);
    if (!lock.ok) return null;
    const del = async (sql: string, params: unknown[] = []) =>
      (await tx.query<{ n: number }>(`WITH d AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM d`, params))[0].n;
    const logs = await del("DELETE FROM logs WHERE creado_en < now() - make_interval(days => $1)", [r.logsDias]);
    const embudo = await del('DELETE FROM embudo_eventos WHERE recibido_en < now() - make_interval(days => $1)', [r.logsDias]);
    await tx.query(
      `CREATE TEMP TABLE abandonadas ON COMMIT DROP AS
       SELECT ref_id FROM cotizaciones c WHERE creada_en < now() - make_interval(days => $1)
         AND NOT EXISTS (SELECT 1 FROM solicitudes s WHERE s.ref_id = c.ref_id)`,
      [r.cotizacionesDias],
    );
    const hijos: Record<string, number> = {};
    for (const tabla of ['personas', 'domicilios', 'rechazos', 'medios_pago']) {
      hijos[tabla] = await del(`DELETE FROM ${tabla} WHERE ref_id IN (SELECT ref_id FROM abandonadas)`);
    }
    const cotizaciones = await del('DELETE FROM cotizaciones WHERE ref_id IN (SELECT ref_id FROM abandonadas)');
    const idempotencia = await del("DELETE FROM idempotencia WHERE creada_en < now() - interval '1 day'");
    const limites = await del("DELETE FROM limites WHERE vence_en < now() - interval '1 hour'");
    return { logs, embudo, cotizaciones, ...hijos, idempotencia, limites };
  });
}

/** Periodic retention on this instance. @returns `stop()` */
export function createRetentionJob(db: Db, r: Retencion & { intervaloMs: number }, log: FastifyBaseLogger): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= depurar(db, r)
      .then((borrados) => {
        if (borrados && Object.values(borrados).some((n) => n > 0)) log.info({ borrados }, 'retención: datos vencidos borrados');
      })
      .catch((err: unknown) => log.warn({ error: (err as Error).message }, 'retención: falló; se reintenta en la próxima vuelta'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(run, r.intervaloMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
