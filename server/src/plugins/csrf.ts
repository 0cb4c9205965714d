/**
 * CSRF, double-submit flavour (SPEC §7, schemas/api/README.md › CSRF) with @fastify/cookie + @fastify/csrf-protection:
 * GET /api/set-csrf stores the secret in the httpOnly cookie `_csrf` and returns a token that is also set in the
 * readable cookie `XSRF-TOKEN`; every POST under /api must send it back in the header `x-xsrf-token`, else
 * 403 CSRF_INVALIDO (checked in `onRequest`, before the body is even parsed).
 */
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

export const CSRF_HEADER = 'x-xsrf-token';
export const CSRF_COOKIE_SECRET = '_csrf';
export const CSRF_COOKIE_TOKEN = 'XSRF-TOKEN';

/**
 * Registers @fastify/cookie and @fastify/csrf-protection (token read from the x-xsrf-token header; cookies Secure per
 * `app.deps.settings.cookieSecure`).
 */
export default fp(async function csrfPlugin(app: FastifyInstance) {
  await app.register(cookie);
  await app.register(csrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: CSRF_COOKIE_SECRET,
    cookieOpts: { path: '/', httpOnly: true, sameSite: 'lax', secure: app.deps.settings.cookieSecure },
    getToken: (request) => {
      const value = request.headers[CSRF_HEADER];
      return Array.isArray(value) ? value[0] : value;
    },
  });
});
