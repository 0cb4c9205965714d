/**
 * Entry point (`npm run serve`): reads the environment, opens the database, builds the app and listens.
 *
 * Environment (all optional):
 *   PORT (3000), HOST (0.0.0.0), DATABASE_URL (PostgreSQL; default: PGlite files in DATA_DIR/pglite),
 *   DATA_DIR (<repo>/data), STATIC_DIR (<repo>/dist), PAYMENT_KEY (64 hex chars; default: DATA_DIR/payment.key,
 *   generated once), EMISSION_DELAY_MS (800), RATE_LIMIT_MAX (300 requests/min/IP), COTIZACIONES_POR_HORA (30),
 *   CHAT_HABILITADO (true), CHAT_TELEFONO (5491100000000), TRUST_PROXY (false), LOG_LEVEL (info).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from './app.ts';
import { createPgliteDb, createPostgresDb } from './db/index.ts';
import { loadPaymentKey } from './domain/payment/vault.ts';

const env = process.env;
const repoDir = join(import.meta.dirname, '../..');
const dataDir = env.DATA_DIR ?? join(repoDir, 'data');
const port = Number(env.PORT ?? 3000);
const host = env.HOST ?? '0.0.0.0';
const int = (v: string | undefined, fallback: number) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : fallback);

mkdirSync(dataDir, { recursive: true });
const db = env.DATABASE_URL ? await createPostgresDb(env.DATABASE_URL) : await createPgliteDb(join(dataDir, 'pglite'));

const app = await build({
  db,
  logger: { level: env.LOG_LEVEL ?? 'info' },
  staticDir: env.STATIC_DIR ?? join(repoDir, 'dist'),
  emissionDelayMs: int(env.EMISSION_DELAY_MS, 800),
  paymentKey: loadPaymentKey(env.PAYMENT_KEY, join(dataDir, 'payment.key')),
  rateLimitMax: int(env.RATE_LIMIT_MAX, 300),
  trustProxy: env.TRUST_PROXY === 'true',
  settings: {
    chat: { habilitado: env.CHAT_HABILITADO !== 'false', telefono: env.CHAT_TELEFONO ?? '5491100000000' },
    cotizacionesPorHoraPorIp: int(env.COTIZACIONES_POR_HORA, 30),
  },
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info(`${signal}: cerrando`);
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}

const address = await app.listen({ port, host });
const url = address.replace('0.0.0.0', 'localhost');
console.log(`Cotizador Hogar API escuchando en ${url} (docs: ${url}/api/docs, base: ${db.kind})`);
