/** GET /api/set-csrf — issues the CSRF secret cookie and token (see plugins/csrf.ts). */
import type { FastifyInstance } from 'fastify';
import { CSRF_COOKIE_TOKEN } from '../../plugins/csrf.ts';
import { ref, responses } from '../shared.ts';

/** Registers GET /set-csrf (mounted under /api). */
export default async function csrfRoutes(app: FastifyInstance) {
  app.get(
    '/set-csrf',
    { schema: { tags: ['csrf'], summary: 'Emite el token CSRF', response: responses(ref('csrf', 'SetCsrfResponse')) } },
    async (_request, reply) => {
      const csrfToken = reply.generateCsrf();
      reply.setCookie(CSRF_COOKIE_TOKEN, csrfToken, {
        path: '/',
        sameSite: 'lax',
        httpOnly: false,
        secure: app.deps.settings.cookieSecure,
      });
      reply.header('cache-control', 'no-store');
      return { csrfToken };
    },
  );
}
