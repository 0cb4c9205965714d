/**
 * Data retention: bounded storage without manual clean-ups (the statements: db/repositories/retencion.ts).
 * `depurar` deletes, in one transaction that only one instance runs at a time (transaction-level advisory lock):
 * - business logs and funnel events (embudo_eventos) older than `logsDias` days;
 * - abandoned quotes — created more than `cotizacionesDias` days ago and never turned into an application — with the
 *   personal data, addresses, rejections and (encrypted) payment methods recorded for them;
 * - Idempotency-Key answers older than one day and shared counters whose window ended.
 * `createRetentionJob` runs it every `intervaloMs` on every instance (the lock makes extra runs no-ops).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import { retencionRepository, type Borrados, type Retencion } from '../../db/repositories/retencion.ts';

export type { Retencion } from '../../db/repositories/retencion.ts';

/**
 * Deletes what is past its retention (db/repositories/retencion.ts › borrarVencidos) in one transaction.
 * @returns rows deleted per table, or null when another instance was running it
 */
export async function depurar(db: Db, r: Retencion): Promise<Borrados | null> {
  return db.transaction(async (tx) => {
    const repo = retencionRepository(tx);
    if (!(await repo.bloquear())) return null;
    return repo.borrarVencidos(r);
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
