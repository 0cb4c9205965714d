/**
 * GET /api/grabador — whether testers may record journeys (`?grabar=1`) on this deployment's production build
 * (GRABADOR=1 on a server with NODE_ENV=development — config.ts; development builds always may). Tester's recorder.
 */
import type { FastifyInstance } from 'fastify';
import { ref, responses } from '../shared.ts';

/** Registers GET / (mounted at /api/grabador). */
export default async function grabadorRoutes(app: FastifyInstance) {
  app.get(
    '/',
    {
      schema: {
        tags: ['grabador'],
        summary: 'Si el grabador de recorridos está habilitado',
        response: responses(ref('grabador', 'EstadoResponse')),
      },
    },
    async () => ({
      habilitado: app.deps.settings.grabador,
    }),
  );
}
