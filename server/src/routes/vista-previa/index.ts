/**
 * GET /api/vista-previa — whether the staff preview (`/<basePath>/__vista-previa`: every step of the flow opened with
 * sample answers, with the flow checker's problems of each) may open on this deployment's production build (config
 * VISTA_PREVIA=1; development builds always may). It shows no visitor data: only the flow, its texts and the schemas'
 * own `examples`.
 */
import type { FastifyInstance } from 'fastify';
import { ref, responses } from '../shared.ts';

/** Registers GET / (mounted at /api/vista-previa). */
export default async function vistaPreviaRoutes(app: FastifyInstance) {
  app.get(
    '/',
    {
      schema: {
        tags: ['vista-previa'],
        summary: 'Si la vista previa de staff está habilitada',
        response: responses(ref('vista-previa', 'EstadoResponse')),
      },
    },
    async () => ({
      habilitada: app.deps.settings.vistaPrevia,
    }),
  );
}
