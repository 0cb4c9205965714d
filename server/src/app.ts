/**
 * `build(opts)` assembles the reference API: external plugins (security headers, cookies + CSRF, schemas, swagger,
 * error handler), the app layer (`app.deps`: database, repositories, lists, tariff, vault, emission) and one route
 * plugin per area under /api, plus the static web app with SPA fallback. Returns a ready Fastify instance;
 * `app.close()` stops the emission timers and closes the database it was given.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppDeps, Settings } from './context.ts';
import { createPgliteDb, type Db } from './db/index.ts';
import { migrate } from './db/migrate.ts';
import { createRepositories } from './db/repositories/index.ts';
import { createEmissionService } from './domain/emission/service.ts';
import { loadLists } from './domain/lists/index.ts';
import { createVault } from './domain/payment/vault.ts';
import { loadTariff } from './domain/rating/tariff.ts';
import { ApiError, MENSAJES } from './errors.ts';
import csrfPlugin from './plugins/csrf.ts';
import errorHandlerPlugin from './plugins/error-handler.ts';
import schemasPlugin from './plugins/schemas.ts';
import securityPlugin from './plugins/security.ts';
import staticPlugin from './plugins/static.ts';
import swaggerPlugin from './plugins/swagger.ts';
import chatRoutes from './routes/chat/index.ts';
import cotizacionRoutes from './routes/cotizacion/index.ts';
import csrfRoutes from './routes/csrf/index.ts';
import domicilioRoutes from './routes/domicilio/index.ts';
import emisionRoutes from './routes/emision/index.ts';
import listasRoutes from './routes/listas/index.ts';
import logsRoutes from './routes/logs/index.ts';
import pagosRoutes from './routes/pagos/index.ts';
import recaptchaRoutes from './routes/recaptcha/index.ts';
import salesforceRoutes from './routes/salesforce/index.ts';

const SERVER_DIR = join(import.meta.dirname, '..');
export const DEFAULT_TARIFF_FILE = join(SERVER_DIR, 'tariffs/2026-11.json');
export const DEFAULT_LISTS_DIR = join(SERVER_DIR, 'data/ar');
export const VERSION = '1.2.7';

export interface BuildOptions {
  /** Database (owned by the app: closed on `app.close()`). Default: a fresh in-memory PGlite. */
  db?: Db;
  /** Fastify logger option (default off). Payment numbers, cookies and the CSRF header are always redacted. */
  logger?: FastifyServerOptions['logger'];
  /** Built web app to serve at `/` with SPA fallback (ignored when it has no index.html). */
  staticDir?: string;
  /** Delay before an application is issued, ms (default 800). */
  emissionDelayMs?: number;
  /** AES-256 key for payment numbers, 32 bytes. Default: random per process (fine for tests only). */
  paymentKey?: Buffer;
  /** Tariff file (default server/tariffs/2026-11.json) and CSV folder (default server/data/ar). */
  tariffFile?: string;
  listsDir?: string;
  /** Requests per minute per IP under /api before 429 (default 300). */
  rateLimitMax?: number;
  /** Trust X-Forwarded-* from a reverse proxy (client IP for rate limits). Default false. */
  trustProxy?: boolean;
  settings?: Partial<Settings>;
}

/** Pino redaction: never log payment numbers, cookies or CSRF tokens even if a body or headers get logged. */
export const LOG_REDACT = [
  'req.headers.cookie',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
  'req.body.numberPaymentCard',
  'req.body.numberCBU',
  'body.numberPaymentCard',
  'body.numberCBU',
  '*.numberPaymentCard',
  '*.numberCBU',
];

/**
 * @returns a ready Fastify instance (migrations applied, pending issuances resumed)
 * @throws Error when the tariff or the lists cannot be loaded, or a migration fails
 */
export async function build(opts: BuildOptions = {}): Promise<FastifyInstance> {
  const logger = opts.logger && typeof opts.logger === 'object' ? { ...opts.logger, redact: LOG_REDACT } : opts.logger ? { redact: LOG_REDACT } : false;
  const app = Fastify({ logger, trustProxy: opts.trustProxy ?? false, bodyLimit: 64 * 1024 });

  const db = opts.db ?? (await createPgliteDb());
  await migrate(db);
  const vault = createVault(opts.paymentKey ?? randomBytes(32));
  const deps: AppDeps = {
    db,
    repos: createRepositories(db),
    lists: loadLists(opts.listsDir ?? DEFAULT_LISTS_DIR),
    tariff: loadTariff(opts.tariffFile ?? DEFAULT_TARIFF_FILE),
    vault,
    emision: createEmissionService({ db, vault, delayMs: opts.emissionDelayMs ?? 800, log: app.log }),
    settings: {
      chat: { habilitado: true, telefono: '5491100000000', ...opts.settings?.chat },
      cotizacionesPorHoraPorIp: opts.settings?.cotizacionesPorHoraPorIp ?? 30,
    },
  };
  app.decorate('deps', deps);
  app.addHook('onClose', async () => {
    await deps.emision.close();
    await db.close();
  });

  await app.register(securityPlugin);
  await app.register(csrfPlugin);
  await app.register(schemasPlugin);
  await app.register(errorHandlerPlugin);
  await app.register(swaggerPlugin, { version: VERSION });

  await app.register(
    async (api) => {
      await api.register(rateLimit, {
        max: opts.rateLimitMax ?? 300,
        timeWindow: '1 minute',
        errorResponseBuilder: () => new ApiError(429, 'DEMASIADAS_SOLICITUDES', MENSAJES.DEMASIADAS_SOLICITUDES),
      });
      api.addHook('onRequest', (request, reply, done) => {
        if (request.method === 'POST') api.csrfProtection(request, reply, done);
        else done();
      });
      await api.register(csrfRoutes);
      await api.register(chatRoutes, { prefix: '/chat' });
      await api.register(listasRoutes, { prefix: '/listas' });
      await api.register(cotizacionRoutes, { prefix: '/cotizacion' });
      await api.register(salesforceRoutes, { prefix: '/salesforce' });
      await api.register(domicilioRoutes, { prefix: '/domicilio' });
      await api.register(pagosRoutes, { prefix: '/pagos' });
      await api.register(emisionRoutes, { prefix: '/emision' });
      await api.register(recaptchaRoutes, { prefix: '/recaptcha' });
      await api.register(logsRoutes, { prefix: '/logs' });
    },
    { prefix: '/api' },
  );
  await app.register(staticPlugin, { staticDir: opts.staticDir });

  await app.ready();
  await deps.emision.reanudar();
  return app;
}
