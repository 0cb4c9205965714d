/**
 * The built web app (Vite `dist/`) at `/` with SPA fallback, plus the 404 of everything else:
 * a GET outside /api that matches no file answers `index.html` (client-side routes such as /seguro-hogar/metros);
 * anything else, and every unknown /api path, answers 404 NO_ENCONTRADO in the error shape.
 * Without a build (no `<staticDir>/index.html`) only the 404 part is active.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.ts';

/** Serves `opts.staticDir` (if built) and installs the not-found handler (SPA fallback or 404 NO_ENCONTRADO). */
export default fp(async function staticPlugin(app: FastifyInstance, opts: { staticDir?: string }) {
  const root = opts.staticDir;
  const spa = root !== undefined && existsSync(join(root, 'index.html'));
  if (spa) await app.register(fastifyStatic, { root, wildcard: true, index: ['index.html'] });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    if (spa && (request.method === 'GET' || request.method === 'HEAD') && path !== '/api' && !path.startsWith('/api/')) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    throw notFound();
  });
});
