/**
 * `build(opts)` assembles the reference API: external plugins (security headers, JSON-only bodies, cookies + CSRF,
 * schemas, swagger, error handler, Prometheus metrics), the app layer (`app.deps`: database, repositories, lists,
 * tariff, vault, emission, metrics) and, under /api, health endpoints plus — behind shared rate limits, the visitor
 * session, CSRF and Idempotency-Key — one route plugin per area; then the static web app with SPA fallback. Returns a
 * ready Fastify instance whose emission worker and retention job (and metrics server, with METRICS_PORT) are running;
 * `app.close()` drains requests, finishes or hands back emission jobs and closes the database it was given.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppDeps, Settings } from './context.ts';
import { createPgliteDb, type Db } from './db/index.ts';
import { migrate } from './db/migrate.ts';
import { createRepositories } from './db/repositories/index.ts';
import { createAntibot } from './domain/antibot/index.ts';
import { createRecaptcha, type RecaptchaOptions } from './domain/antibot/recaptcha.ts';
import { createCorreoService, type CorreoOptions } from './domain/correo/outbox.ts';
import { createEmissionService } from './domain/emission/service.ts';
import { createPostventa } from './domain/postventa/service.ts';
import { createTokens, redactarTokens } from './domain/postventa/tokens.ts';
import { leerCatalogos } from './domain/lists/catalogos.ts';
import { loadLists } from './domain/lists/index.ts';
import { buscarMensaje } from '../../src/core/messages.ts';
import { createRetentionJob } from './domain/maintenance/retention.ts';
import { createMetrics } from './domain/metrics/index.ts';
import { enmascararNumerosDePago } from './domain/payment/enmascarar.ts';
import { createVault } from './domain/payment/vault.ts';
import { loadTariff } from './domain/rating/tariff.ts';
import contentTypePlugin from './plugins/content-type.ts';
import csrfPlugin from './plugins/csrf.ts';
import errorHandlerPlugin from './plugins/error-handler.ts';
import healthRoutes from './plugins/health.ts';
import idempotencyPlugin from './plugins/idempotency.ts';
import limitsPlugin from './plugins/limits.ts';
import { LOG_REDACT_TOKENS, LOG_SERIALIZERS } from './plugins/logging.ts';
import { metricsPlugin, startMetricsServer } from './plugins/metrics.ts';
import schemasPlugin, { createAjv, SCHEMAS_DIR } from './plugins/schemas.ts';
import { crearRevalidador } from './plugins/revalidar.ts';
import sessionPlugin from './plugins/session.ts';
import securityPlugin from './plugins/security.ts';
import staticPlugin from './plugins/static.ts';
import swaggerPlugin from './plugins/swagger.ts';
import antibotRoutes from './routes/antibot/index.ts';
import chatRoutes from './routes/chat/index.ts';
import grabadorRoutes from './routes/grabador/index.ts';
import vistaPreviaRoutes from './routes/vista-previa/index.ts';
import cotizacionRoutes from './routes/cotizacion/index.ts';
import csrfRoutes from './routes/csrf/index.ts';
import devRoutes from './routes/dev/index.ts';
import domicilioRoutes from './routes/domicilio/index.ts';
import embudoRoutes from './routes/embudo/index.ts';
import emisionRoutes from './routes/emision/index.ts';
import listasRoutes from './routes/listas/index.ts';
import logsRoutes from './routes/logs/index.ts';
import pagosRoutes from './routes/pagos/index.ts';
import postventaRoutes from './routes/postventa/index.ts';
import condicionesRoutes from './routes/documentos/condiciones.ts';
import recaptchaRoutes from './routes/recaptcha/index.ts';
import salesforceRoutes from './routes/salesforce/index.ts';

const SERVER_DIR = join(import.meta.dirname, '..');
export const DEFAULT_TARIFF_FILE = join(SERVER_DIR, 'tariffs/2026-11.json');
export const DEFAULT_LISTS_DIR = join(SERVER_DIR, 'data/ar');
export const VERSION = '1.2.7';

export interface BuildOptions {
  /** Database (owned by the app: closed on `app.close()`). Default: a fresh in-memory PGlite. */
  db?: Db;
  /** Fastify logger option (default off). Payment numbers, link tokens, cookies and the CSRF header are always redacted. */
  logger?: FastifyServerOptions['logger'];
  /** Built web app to serve at `/` with SPA fallback (ignored when it has no index.html). */
  staticDir?: string;
  /** Stand-in for the payment entity's answer during emission, ms (default 800). */
  emissionDelayMs?: number;
  /** Emission worker: polling interval (250), claim lease (30000), first retry delay (1000), attempts (10), ms. */
  emissionPollMs?: number;
  emissionLeaseMs?: number;
  emissionRetryBaseMs?: number;
  emissionMaxIntentos?: number;
  /** How long `close()` waits for emission jobs in progress before handing them back, ms (default 10000). */
  shutdownTimeoutMs?: number;
  /** Retention (days) and how often it runs (ms); defaults 90 / 30 days, hourly. */
  retention?: { logsDias: number; cotizacionesDias: number; intervaloMs: number };
  /** AES-256 key for payment numbers, 32 bytes. Default: random per process (fine for tests only). */
  paymentKey?: Buffer;
  /** Tariff file (default server/tariffs/2026-11.json) and CSV folder (default server/data/ar). */
  tariffFile?: string;
  /** Schema folder: step schemas + `api/` wire schemas (default the repository's `schemas/`; env SCHEMAS_DIR). */
  schemasDir?: string;
  listsDir?: string;
  /** Client addresses or subnets exempt from the hourly quote limit (env COTIZACIONES_EXENTAS; plugins/exentas.ts). */
  cotizacionesExentas?: string[];
  /** Requests per minute per IP under /api before 429 (default 300). */
  rateLimitMax?: number;
  /** Funnel batches (POST /api/embudo/eventos) per minute per IP before 429 (default 120). */
  embudoLotesPorMinuto?: number;
  /** Trusted reverse proxies (client IP and protocol from X-Forwarded-*): false, a hop count or addresses (config.ts). */
  trustProxy?: false | number | string[];
  settings?: Partial<Settings>;
  /** After the sale (issue 8): link-token key (≥ 32 bytes; default random per process), public URL for e-mailed links,
   *  SMTP (undefined: outbox only), sender, outbox worker timings (domain/correo/outbox.ts), requests per hour per IP for
   *  the withdrawal/cancellation buttons and the e-mail of a quote. */
  linkKey?: Buffer;
  publicUrl?: string;
  smtpUrl?: string;
  mailFrom?: string;
  correo?: Pick<CorreoOptions, 'pollMs' | 'leaseMs' | 'smtpTimeoutMs' | 'retryBaseMs' | 'maxBackoffMs' | 'vidaMaxMs' | 'concurrencia'>;
  tramitesPorHora?: number;
  /** Withdrawal/cancellation requests per policy number, and lookups per tracking code, per hour (default 5). */
  tramitesPorPolizaPorHora?: number;
  /** Resumes of one e-mailed quote link per hour (default 5); each also counts on the address's quote limit. */
  retomarPorEnlacePorHora?: number;
  /**
   * The development pages (/api/dev/*: every e-mail with its PDF, any policy's state and tracking codes) exist — for
   * loopback clients only (routes/dev). Default false; main.ts sets it only for NODE_ENV=development|test.
   */
  devPages?: boolean;
  /**
   * Prometheus metrics (issue 22; plugins/metrics.ts): `port` starts a metrics-only server on `host` (default
   * 127.0.0.1; 0 = any free port), `token` serves GET /api/metrics behind `Authorization: Bearer <token>`; neither →
   * metrics are kept but not served. `dbTimeoutMs`: how long a scrape waits for the database gauges (default 1000).
   */
  metrics?: { port?: number; host?: string; token?: string; dbTimeoutMs?: number };
  /**
   * Anti-bot check (issue 22 item 8; domain/antibot): `activo` → cotizar refuses a quote without a solved, unexpired,
   * unused proof-of-work challenge from GET /api/antibot/desafio (400, servidor.antibotInvalido). Default OFF here so
   * tests and tools that call cotizar directly keep working; main.ts turns it on (env ANTIBOT, default on).
   * `clave`: HMAC secret, the same on every instance (default derived from `linkKey`); `dificultad`: largest counter
   * (default 50 000); `vidaSeg`: challenge lifetime (default 1800). `recaptcha`: reCAPTCHA Enterprise settings for
   * POST /api/recaptcha/evaluate (default: the stand-in that accepts any token).
   */
  antibot?: { activo?: boolean; clave?: string; dificultad?: number; vidaSeg?: number; recaptcha?: RecaptchaOptions };
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
  ...LOG_REDACT_TOKENS,
];

/**
 * Masks payment-like numbers inside every JSON string literal (values and keys) of a serialised log line; a literal
 * with escapes is read first, so "4242\n4242…" is masked like "4242 4242…".
 */
export function enmascararEnJson(line: string): string {
  return line.replace(/"(?:[^"\\]|\\.)*"/g, (literal) => {
    if (!literal.includes('\\')) return enmascararNumerosDePago(literal);
    let texto: string;
    try {
      texto = JSON.parse(literal) as string;
    } catch {
      return enmascararNumerosDePago(literal);
    }
    const enmascarado = enmascararNumerosDePago(texto);
    return enmascarado === texto ? literal : JSON.stringify(enmascarado);
  });
}

/** Every log line as it leaves: payment numbers masked, link tokens replaced by "[token]". */
export const redactarLinea = (line: string): string => redactarTokens(enmascararEnJson(line));

/**
 * @returns a ready Fastify instance (migrations applied, pending issuances resumed)
 * @throws Error when the tariff or the lists cannot be loaded, or a migration fails
 */
export async function build(opts: BuildOptions = {}): Promise<FastifyInstance> {
  // Every log line leaves with card-like and CBU-like numbers masked inside any string value, whatever field it hides
  // in (numbers such as responseTime are not strings and stay intact; ISO timestamps never look like one), and link
  // tokens replaced by "[token]" (the request URL already goes out redacted: plugins/logging.ts).
  const pino = { redact: LOG_REDACT, timestamp: () => `,"time":"${new Date().toISOString()}"`, hooks: { streamWrite: redactarLinea } };
  const logger =
    opts.logger && typeof opts.logger === 'object'
      ? { ...opts.logger, ...pino, serializers: { ...opts.logger.serializers, ...LOG_SERIALIZERS } }
      : opts.logger
        ? { ...pino, serializers: LOG_SERIALIZERS }
        : false;
  // A hop count trusts the nearest N addresses of the chain (socket peer first), as proxy-addr counts hops; Fastify 5
  // refuses bare numbers, so it gets the function. Only safe when instances are reachable through the proxy alone.
  const tp = opts.trustProxy ?? false;
  const trustProxy = typeof tp === 'number' ? (_addr: string, i: number) => i < tp : tp;
  const app = Fastify({ logger, trustProxy, bodyLimit: 64 * 1024, return503OnClosing: true, routerOptions: { maxParamLength: 512 } });

  const db = opts.db ?? (await createPgliteDb());
  await migrate(db);
  const paymentKey = opts.paymentKey ?? randomBytes(32);
  const vault = createVault(paymentKey);
  const settings = {
    chat: { habilitado: true, telefono: '5491100000000', ...opts.settings?.chat },
    grabador: opts.settings?.grabador ?? false,
    vistaPrevia: opts.settings?.vistaPrevia ?? false,
    cotizacionesPorHoraPorIp: opts.settings?.cotizacionesPorHoraPorIp ?? 30,
    cookieSecure: opts.settings?.cookieSecure ?? ('auto' as const),
  };
  const lists = loadLists(opts.listsDir ?? DEFAULT_LISTS_DIR);
  const catalogos = leerCatalogos(opts.schemasDir ?? SCHEMAS_DIR, buscarMensaje);
  const tariff = loadTariff(opts.tariffFile ?? DEFAULT_TARIFF_FILE);
  const linkKey = opts.linkKey ?? randomBytes(32);
  const tokens = createTokens(linkKey);
  const servirMetricas = opts.metrics?.port !== undefined || Boolean(opts.metrics?.token);
  const metrics = createMetrics({ db, dbTimeoutMs: opts.metrics?.dbTimeoutMs, proceso: servirMetricas });
  // the same step and wire schemas (and date keywords) as the request validators (plugins/schemas.ts)
  const revalidarFechas = crearRevalidador(() => createAjv({ coerceTypes: false, removeAdditional: false }, opts.schemasDir ?? SCHEMAS_DIR));
  const postventa = createPostventa({
    db, tariff, lists, catalogos, tokens, revalidarFechas, publicUrl: (opts.publicUrl ?? 'http://localhost:3000').replace(/\/+$/, ''),
    alRegistrarTramite: (tipo) => (tipo === 'ARREPENTIMIENTO' ? metrics.arrepentimientos : metrics.bajas).inc(),
  });
  const correo = createCorreoService({
    db, log: app.log, smtpUrl: opts.smtpUrl, remitente: opts.mailFrom ?? 'Hogar Protegido Seguros <polizas@hogarprotegido.example>',
    adjunto: (ref) => postventa.adjunto(ref), ...opts.correo,
  });
  const deps: AppDeps = {
    db,
    repos: createRepositories(db),
    lists,
    catalogos,
    tariff,
    vault,
    correo,
    tokens,
    emision: createEmissionService({
      db, vault, log: app.log, delayMs: opts.emissionDelayMs ?? 800, pollMs: opts.emissionPollMs, leaseMs: opts.emissionLeaseMs,
      retryBaseMs: opts.emissionRetryBaseMs, maxIntentos: opts.emissionMaxIntentos, shutdownTimeoutMs: opts.shutdownTimeoutMs,
      alEmitir: (tx, numSecuPol) => postventa.encolarCorreoPoliza(tx, numSecuPol),
      despuesDeEmitir: () => {
        metrics.polizasEmitidas.inc();
        correo.despertar();
      },
      alTomar: (atrasoSeg) => metrics.emisionAtraso.observe(atrasoSeg),
    }),
    metrics,
    settings,
    lifecycle: { cerrando: false },
    revalidarFechas,
  };
  app.decorate('deps', deps);
  app.decorate('postventa', postventa);
  app.decorate('antibot', {
    ...createAntibot({
      db, dificultad: opts.antibot?.dificultad, vidaSeg: opts.antibot?.vidaSeg,
      secreto: opts.antibot?.clave ?? createHmac('sha256', linkKey).update('antibot').digest('hex'),
    }),
    activo: opts.antibot?.activo ?? false,
    recaptcha: opts.antibot?.recaptcha ? createRecaptcha(opts.antibot.recaptcha) : undefined,
  });
  const retention = createRetentionJob(db, opts.retention ?? { logsDias: 90, cotizacionesDias: 30, intervaloMs: 3_600_000 }, app.log);
  app.addHook('preClose', async () => {
    deps.lifecycle.cerrando = true;
  });
  // While draining, every answer closes its keep-alive connection, so the close does not wait for idle clients.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (deps.lifecycle.cerrando) reply.header('connection', 'close');
    return payload;
  });
  const servidorMetricas = opts.metrics?.port !== undefined ? await startMetricsServer(metrics, opts.metrics.port, opts.metrics.host) : undefined;
  deps.metricsUrl = servidorMetricas?.url;
  app.addHook('onClose', async () => {
    await servidorMetricas?.close();
    await retention.stop();
    await deps.emision.close();
    await deps.correo.close();
    await db.close();
  });

  await app.register(securityPlugin, { staticDir: opts.staticDir });
  await app.register(contentTypePlugin);
  await app.register(csrfPlugin);
  await app.register(schemasPlugin, { schemasDir: opts.schemasDir });
  await app.register(errorHandlerPlugin);
  await app.register(metricsPlugin, { metrics, token: opts.metrics?.token });
  await app.register(swaggerPlugin, { version: VERSION });

  await app.register(healthRoutes, { prefix: '/api/health' });
  await app.register(
    async (api) => {
      await api.register(limitsPlugin, { rateLimitMax: opts.rateLimitMax ?? 300, cotizacionesPorHora: settings.cotizacionesPorHoraPorIp, embudoLotesPorMinuto: opts.embudoLotesPorMinuto ?? 120, cotizacionesExentas: opts.cotizacionesExentas });
      await api.register(sessionPlugin, { secure: settings.cookieSecure });
      api.addHook('onRequest', (request, reply, done) => {
        if (request.method === 'POST') api.csrfProtection(request, reply, done);
        else done();
      });
      await api.register(idempotencyPlugin, { secret: createHmac('sha256', paymentKey).update('idempotency-key').digest() });
      await api.register(csrfRoutes);
      await api.register(chatRoutes, { prefix: '/chat' });
      await api.register(grabadorRoutes, { prefix: '/grabador' });
      await api.register(vistaPreviaRoutes, { prefix: '/vista-previa' });
      await api.register(listasRoutes, { prefix: '/listas' });
      await api.register(cotizacionRoutes, { prefix: '/cotizacion' });
      await api.register(salesforceRoutes, { prefix: '/salesforce' });
      await api.register(domicilioRoutes, { prefix: '/domicilio' });
      await api.register(pagosRoutes, { prefix: '/pagos' });
      await api.register(emisionRoutes, { prefix: '/emision' });
      await api.register(recaptchaRoutes, { prefix: '/recaptcha' });
      await api.register(antibotRoutes, { prefix: '/antibot' });
      await api.register(logsRoutes, { prefix: '/logs' });
      await api.register(embudoRoutes, { prefix: '/embudo' });
      await api.register(postventaRoutes, {
        tramitesPorHora: opts.tramitesPorHora ?? 10, tramitesPorPolizaPorHora: opts.tramitesPorPolizaPorHora ?? 5, retomarPorEnlacePorHora: opts.retomarPorEnlacePorHora ?? 5,
      });
      await api.register(condicionesRoutes);
      if (opts.devPages ?? false) await api.register(devRoutes);
    },
    { prefix: '/api' },
  );
  await app.register(staticPlugin, { staticDir: opts.staticDir });

  await app.ready();
  deps.emision.start();
  deps.correo.start();
  return app;
}
