/** GET /api/chat/habilitar — whether the WhatsApp chat is on (SPEC §1: enabled when p_estado = 'C'). */
import type { FastifyInstance } from 'fastify';
import { ref, responses } from '../shared.ts';

/** Registers GET /habilitar (mounted at /api/chat). */
export default async function chatRoutes(app: FastifyInstance) {
  app.get(
    '/habilitar',
    { schema: { tags: ['chat'], summary: 'Estado del chat', response: responses(ref('chat', 'HabilitarResponse')) } },
    async () => {
      const { habilitado, telefono } = app.deps.settings.chat;
      return { p_estado: habilitado ? 'C' : 'D', telefono };
    },
  );
}
