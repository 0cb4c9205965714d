/**
 * Serving the instance's Prometheus metrics (domain/metrics) — never in public by default (they reveal sales volumes):
 * - {@link startMetricsServer}: a separate HTTP server on METRICS_PORT (bound to METRICS_HOST, default 127.0.0.1)
 *   answering `GET /metrics`; nothing else is served there;
 * - {@link metricsPlugin} with `token` (METRICS_TOKEN): `GET /api/metrics` on the main app, only with
 *   `Authorization: Bearer <token>` (compared in constant time); without it, or with another one, the same 404 as any
 *   unknown path (the endpoint does not reveal itself). Without a token the route does not exist.
 * The plugin also times every request of the app into `http_request_duration_seconds` (route pattern, not the URL).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../domain/metrics/index.ts';
import { notFound } from '../errors.ts';

/** Route label of a request no route matched (404 of an unknown path, the SPA fallback). */
export const SIN_RUTA = '(sin ruta)';

const huella = (s: string) => createHash('sha256').update(s).digest();

/** @returns whether the Authorization header is exactly "Bearer <token>" (constant time in the header's content) */
export function bearerValido(header: string | undefined, token: string): boolean {
  const dado = /^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(huella(dado), huella(token)) && dado.length > 0;
}

/** Times every request; with `token`, serves GET /api/metrics behind the bearer token. */
export const metricsPlugin = fp(async (app: FastifyInstance, opts: { metrics: Metrics; token?: string }) => {
  const { metrics, token } = opts;
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpDuracion.observe(
      { method: request.method, route: request.routeOptions.url ?? SIN_RUTA, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  if (!token) return;
  app.get('/api/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!bearerValido(request.headers.authorization, token)) throw notFound();
    return reply
      .header('content-type', metrics.registry.contentType)
      .header('cache-control', 'no-store')
      .send(await metrics.registry.metrics());
  });
});

/**
 * Starts the metrics-only server.
 * @param port METRICS_PORT (0: any free port) @param host METRICS_HOST (default: config.ts › DEFAULTS.metrics.host)
 * @returns its URL of `/metrics` and `close()`
 * @throws Error when the port cannot be bound
 */
export async function startMetricsServer(
  metrics: Metrics,
  port: number,
  host: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('No existe: las métricas están en GET /metrics.\n');
      return;
    }
    metrics.registry.metrics().then(
      (texto) => res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }).end(texto),
      () => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('No se pudieron reunir las métricas.\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const a = server.address() as AddressInfo;
  const h = a.family === 'IPv6' ? `[${a.address}]` : a.address;
  return {
    url: `http://${h}:${a.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
