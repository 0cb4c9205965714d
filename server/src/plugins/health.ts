/**
 * Health endpoints for a reverse proxy / orchestrator, outside rate limits, sessions and CSRF:
 * - GET /api/health/live  → 200 `{ estado: "ok" }` while the process runs (never touches the database);
 * - GET /api/health/ready → 200 `{ estado: "ok", base: "pglite"|"postgres", correosFallidos: n }` when the database
 *   answers within 2 s, else 503 SERVICIO_NO_DISPONIBLE; also 503 from the moment the instance starts shutting down
 *   (drain). `correosFallidos` counts the outbox's dead letters (FALLIDO: `npm run correo:reencolar` requeues them); it
 *   is for monitoring and never makes the instance unready.
 */
import type { FastifyInstance } from 'fastify';
import { correosRepository } from '../db/repositories/correos.ts';
import { serviceUnavailable } from '../errors.ts';
import { ref, responses } from '../routes/shared.ts';

export const READY_TIMEOUT_MS = 2000;

/** Registers /live and /ready (mount at /api/health). */
export default async function healthRoutes(app: FastifyInstance) {
  app.get('/live', { schema: { tags: ['salud'], response: responses(ref('health', 'Live')) } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { estado: 'ok' };
  });

  app.get('/ready', { schema: { tags: ['salud'], response: responses(ref('health', 'Ready')) } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const { db, lifecycle } = app.deps;
    if (lifecycle.cerrando) throw serviceUnavailable();
    let timer: NodeJS.Timeout | undefined;
    let correosFallidos: number;
    try {
      correosFallidos = await Promise.race([
        correosRepository(db).contarFallidos(), // also the probe: the database answers
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), READY_TIMEOUT_MS);
        }),
      ]);
    } catch {
      throw serviceUnavailable();
    } finally {
      clearTimeout(timer);
    }
    return { estado: 'ok', base: db.kind, correosFallidos };
  });
}
