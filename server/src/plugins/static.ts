/**
 * The built web app (Vite `dist/`) at `/` with SPA fallback, plus the 404 of everything else:
 * a GET outside /api that matches no file answers the route's prerendered page (`<route>/index.html`, e.g.
 * /seguro-hogar/metros, written by scripts/prerender/) or else `shell.html` (the unrendered app; `index.html` for
 * a build without it); anything else, and every unknown /api path, answers 404 NO_ENCONTRADO in the error shape.
 * Files are sent precompressed (.br/.gz beside them) when the client accepts it; hashed assets are cached for a year.
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
  if (spa) {
    await app.register(fastifyStatic, {
      root,
      wildcard: true,
      index: ['index.html'],
      preCompressed: true,
      redirect: false,
      // Vite names assets by content hash: they never change under the same name
      setHeaders: (res, file) => {
        if (file.startsWith(join(root, 'assets'))) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  const fallback = root && existsSync(join(root, 'shell.html')) ? 'shell.html' : 'index.html';
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    if (spa && (request.method === 'GET' || request.method === 'HEAD') && path !== '/api' && !path.startsWith('/api/')) {
      const own = join(path.replace(/^\/+|\/+$/g, ''), 'index.html');
      const page = !own.startsWith('..') && !own.includes('/../') && existsSync(join(root, own)) ? own : fallback;
      return reply.type('text/html; charset=utf-8').sendFile(page);
    }
    throw notFound();
  });
});
