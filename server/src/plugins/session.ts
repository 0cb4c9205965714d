/**
 * The visitor's session: an httpOnly cookie `sesion` holding 32 random bytes (base64url), issued on
 * the first /api request that lacks a valid one (in practice GET /api/set-csrf) and valid until the browser closes.
 * Quotes, applications and Idempotency-Key answers are bound to `request.sesion`, the SHA-256 (hex) of the cookie:
 * the database never holds the cookie itself. Works across instances (nothing in memory).
 */
import { createHash, randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

export const SESSION_COOKIE = 'sesion';
const VALID = /^[A-Za-z0-9_-]{43}$/;

declare module 'fastify' {
  interface FastifyRequest {
    /** SHA-256 hex of the visitor's session cookie. */
    sesion: string;
  }
}

/** @returns the stored form of a session cookie value */
export function hashSesion(cookieValue: string): string {
  return createHash('sha256').update(cookieValue).digest('hex');
}

/**
 * Installs the session hook on `app` (register it inside the /api scope, after @fastify/cookie).
 * @param opts.secure the cookie's Secure attribute: 'auto' (when the trusted protocol is https) or true
 */
export default fp(async function sessionPlugin(app: FastifyInstance, opts: { secure: 'auto' | true }) {
  app.decorateRequest('sesion', '');
  app.addHook('onRequest', async (request, reply) => {
    const actual = request.cookies[SESSION_COOKIE];
    if (actual !== undefined && VALID.test(actual)) {
      request.sesion = hashSesion(actual);
      return;
    }
    const nueva = randomBytes(32).toString('base64url');
    reply.setCookie(SESSION_COOKIE, nueva, { path: '/', httpOnly: true, sameSite: 'lax', secure: opts.secure });
    request.sesion = hashSesion(nueva);
  });
});
