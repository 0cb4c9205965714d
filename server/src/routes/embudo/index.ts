/**
 * POST /api/embudo/eventos — a batch of the staff's funnel events from the web app (engine/funnel in the
 * browser). Body: schemas/api/embudo.json › EventosBody (1 to 50 events, nothing personal: a random journey id, step
 * id, mostrado|enviado, the browser's time, the chosen `rama` of a split step; unknown fields → 400); `sintetico: true`
 * marks a replay's/preview's/test's batch, stored on every row, left out of the report by default. Rate-limited per IP (plugins/limits.ts › cupoEmbudo)
 * on top of the global /api limit. Answers `{ ok: true, registrados }`.
 */
import type { FastifyInstance } from 'fastify';
import type { EventoEmbudo } from '../../db/repositories/embudo.ts';
import { ref, responses } from '../shared.ts';

/** Registers POST /eventos (mounted at /api/embudo). */
export default async function embudoRoutes(app: FastifyInstance) {
  app.post<{ Body: { versionFlujo: number; eventos: EventoEmbudo[]; sintetico?: boolean } }>(
    '/eventos',
    {
      schema: {
        tags: ['embudo'],
        summary: 'Registra eventos del embudo de pasos',
        body: ref('embudo', 'EventosBody'),
        response: responses(ref('embudo', 'EventosRespuesta')),
      },
    },
    async (request) => {
      await app.cupoEmbudo.consumir(request);
      const registrados = await app.deps.repos.embudo.insertar(
        request.body.versionFlujo,
        request.body.eventos,
        request.body.sintetico === true,
      );
      return { ok: true, registrados };
    },
  );
}
