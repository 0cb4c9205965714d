/**
 * Entry point (`npm run serve`): reads the environment (config.ts — every variable is listed there and in
 * server/README.md), opens the database, builds the app and listens.
 *
 * Production shape: N stateless instances behind a reverse proxy over one PostgreSQL (DATABASE_URL); PGlite (the
 * default) is for ONE process and its folder is locked. On SIGTERM/SIGINT the instance stops accepting connections,
 * readiness turns 503, requests in flight finish, emission jobs in progress finish or are handed back, and the
 * database closes; past SHUTDOWN_TIMEOUT_MS (+5 s) the process exits with code 1.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from './app.ts';
import { readConfig } from './config.ts';
import { createPgliteDb, createPostgresDb, type Db } from './db/index.ts';
import { loadPaymentKey } from './domain/pagos/vault.ts';
import { loadLinkKey } from './domain/postventa/tokens.ts';
import { verificarAseguradora } from './domain/legal/aseguradora.ts';

let config;
let db: Db;
try {
  config = readConfig(process.env);
  verificarAseguradora(process.env); // production never publishes the example insurer data
  mkdirSync(config.dataDir, { recursive: true });
  db = config.databaseUrl
    ? await createPostgresDb(config.databaseUrl, undefined, config.db, (err) =>
        console.warn(`PostgreSQL: conexión perdida (${err.message}); se reabre al próximo pedido.`),
      )
    : await createPgliteDb(join(config.dataDir, 'pglite'), {
        hilo: true, // PostgreSQL's work on its own thread, beside the HTTP one
        onError: (err) => console.error(`PGlite: el hilo de la base terminó (${err.message}); los pedidos responden 503 hasta reiniciar.`),
      });
} catch (err) {
  console.error(`No se pudo iniciar la API: ${(err as Error).message}`);
  process.exit(1);
}

const app = await build({
  db,
  logger: { level: config.logLevel },
  staticDir: config.staticDir,
  schemasDir: config.schemasDir,
  tariffFile: config.tariffFile,
  emisionDelayMs: config.emision.delayMs,
  emisionPollMs: config.emision.pollMs,
  emisionLeaseMs: config.emision.leaseMs,
  emisionRetryBaseMs: config.emision.retryBaseMs,
  emisionMaxIntentos: config.emision.maxIntentos,
  shutdownTimeoutMs: config.shutdownTimeoutMs,
  retention: config.retention,
  paymentKey: loadPaymentKey(config.paymentKeyHex, join(config.dataDir, 'payment.key')),
  rateLimitMax: config.rateLimitMax,
  embudoLotesPorMinuto: config.embudoLotesPorMinuto,
  trustProxy: config.trustProxy,
  cotizacionesExentas: config.cotizacionesExentas,
  publicUrl: config.postventa.publicUrl,
  smtpUrl: config.postventa.smtpUrl,
  mailFrom: config.postventa.mailFrom,
  linkKey: loadLinkKey(config.postventa.linkKeyHex, join(config.dataDir, 'link.key')),
  tramitesPorHora: config.postventa.tramitesPorHora,
  tramitesPorPolizaPorHora: config.postventa.tramitesPorPolizaPorHora,
  retomarPorEnlacePorHora: config.postventa.retomarPorEnlacePorHora,
  antibot: config.antibot,
  devPages: config.desarrollo,
  correo: config.postventa.correo,
  metrics: config.metrics,
  settings: {
    chat: config.chat,
    grabador: config.grabador,
    vistaPrevia: config.vistaPrevia,
    cotizacionesPorHoraPorIp: config.cotizacionesPorHoraPorIp,
    cookieSecure: config.cookieSecure,
  },
});

const shutdownTimeoutMs = config.shutdownTimeoutMs;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info(`${signal}: cerrando (sin pedidos nuevos; se terminan los que están en curso)`);
    app.deps.lifecycle.cerrando = true;
    const force = setTimeout(() => {
      app.log.error('cierre: se agotó el tiempo; salida forzada');
      process.exit(1);
    }, shutdownTimeoutMs + 5_000);
    force.unref();
    // Keep-alive connections that turn idle after the close began (their request was in flight) are closed as soon
    // as they do, instead of waiting for the client to drop them.
    const idle = setInterval(() => app.server.closeIdleConnections(), 100);
    idle.unref();
    app.close().then(
      () => {
        app.log.info('cierre completo');
        process.exit(0);
      },
      (err: unknown) => {
        app.log.error({ err }, 'cierre con error');
        process.exit(1);
      },
    );
  });
}

const address = await app.listen({ port: config.port, host: config.host });
const url = address.replace('0.0.0.0', 'localhost').replace('127.0.0.1', 'localhost');
console.log(`Cotizador Hogar API escuchando en ${url} (docs: ${url}/api/docs, base: ${db.kind})`);
if (app.deps.metricsUrl) console.log(`Métricas (Prometheus) en ${app.deps.metricsUrl}`);
