/**
 * `build(opts)` assembles the reference API: external plugins (security headers, JSON-only bodies, cookies + CSRF,
 * schemas, swagger, error handler, Prometheus metrics), the app layer (`app.deps`: database, repositories, lists,
 * tariff, vault, emission, metrics) and, under /api, health endpoints plus the API scope of routes/index.ts (shared
 * rate limits, the visitor session, CSRF, Idempotency-Key and one route plugin per area); then the static web app
 * with SPA fallback. Every setting comes complete from config.ts (`resolveAppConfig`: its DEFAULTS fill what the
 * caller leaves out). Returns a ready Fastify instance whose emission worker and retention job (and metrics server,
 * with a metrics port) are running; `app.close()` drains requests, finishes or hands back emission jobs and closes
 * the database it was given.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { resolveAppConfig, type AppConfig, type BuildOptions } from './config.ts';
import type { AppDeps } from './context.ts';
import { createPgliteDb, type Db } from './db/index.ts';
import { migrate } from './db/migrate.ts';
import { createRepositories } from './db/repositories/index.ts';
import { createAntibot } from './domain/antibot/index.ts';
import { createRecaptcha } from './domain/antibot/recaptcha.ts';
import { createCorreoService } from './domain/correo/outbox.ts';
import { createEmisionService } from './domain/emision/service.ts';
import { createPostventa, type Postventa } from './domain/postventa/service.ts';
import { createTokens, redactarTokens } from './domain/postventa/tokens.ts';
import { leerCatalogos } from './domain/listas/catalogos.ts';
import { loadLists } from './domain/listas/index.ts';
import { buscarMensaje } from '../../src/core/messages.ts';
import { createRetentionJob } from './domain/maintenance/retention.ts';
import { createMetrics } from './domain/metrics/index.ts';
import { enmascararNumerosDePago } from './domain/pagos/enmascarar.ts';
import { createVault } from './domain/pagos/vault.ts';
import { loadTariff } from './domain/rating/tariff.ts';
import contentTypePlugin from './plugins/content-type.ts';
import csrfPlugin from './plugins/csrf.ts';
import errorHandlerPlugin from './plugins/error-handler.ts';
import healthRoutes from './plugins/health.ts';
import { LOG_REDACT_TOKENS, LOG_SERIALIZERS } from './plugins/logging.ts';
import { metricsPlugin, startMetricsServer } from './plugins/metrics.ts';
import schemasPlugin, { createAjv, serializadoresAlUsarlos } from './plugins/schemas.ts';
import { crearRevalidador } from './plugins/revalidar.ts';
import securityPlugin from './plugins/security.ts';
import staticPlugin from './plugins/static.ts';
import swaggerPlugin from './plugins/swagger.ts';
import apiRoutes from './routes/index.ts';

export type { BuildOptions } from './config.ts';
export const VERSION = '1.2.7';

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

/** Fastify's logger option: pino with redaction, masking and our serializers, or off. */
function loggerDe(logger: AppConfig['logger']) {
  // Every log line leaves with card-like and CBU-like numbers masked inside any string value, whatever field it hides
  // in (numbers such as responseTime are not strings and stay intact; ISO timestamps never look like one), and link
  // tokens replaced by "[token]" (the request URL already goes out redacted: plugins/logging.ts).
  const pino = { redact: LOG_REDACT, timestamp: () => `,"time":"${new Date().toISOString()}"`, hooks: { streamWrite: redactarLinea } };
  if (logger && typeof logger === 'object') return { ...logger, ...pino, serializers: { ...logger.serializers, ...LOG_SERIALIZERS } };
  return logger ? { ...pino, serializers: LOG_SERIALIZERS } : false;
}

/**
 * The app layer (fastify/demo's "app" plugins): services over database `db`, wired to each other and to the metrics.
 * @returns what routes use (`app.deps`) and the after-sale service
 * @throws Error when the tariff or the lists cannot be loaded
 */
function createDeps(config: AppConfig, db: Db, log: FastifyBaseLogger): { deps: AppDeps; postventa: Postventa } {
  const vault = createVault(config.paymentKey);
  const lists = loadLists(config.listsDir);
  const catalogos = leerCatalogos(config.schemasDir, buscarMensaje);
  const tariff = loadTariff(config.tariffFile);
  const tokens = createTokens(config.linkKey);
  const servirMetricas = config.metrics.port !== undefined || Boolean(config.metrics.token);
  const metrics = createMetrics({ db, dbTimeoutMs: config.metrics.dbTimeoutMs, proceso: servirMetricas });
  // the same step and wire schemas (and date keywords) as the request validators (plugins/schemas.ts)
  const revalidarFechas = crearRevalidador(() => createAjv({ coerceTypes: false, removeAdditional: false }, config.schemasDir));
  const postventa = createPostventa({
    db,
    tariff,
    lists,
    catalogos,
    tokens,
    revalidarFechas,
    publicUrl: config.postventa.publicUrl,
    alRegistrarTramite: (tipo) => (tipo === 'ARREPENTIMIENTO' ? metrics.arrepentimientos : metrics.bajas).inc(),
  });
  const correo = createCorreoService({
    db,
    log,
    smtpUrl: config.postventa.smtpUrl,
    remitente: config.postventa.mailFrom,
    adjunto: (ref) => postventa.adjunto(ref),
    ...config.postventa.correo,
  });
  const emision = createEmisionService({
    db,
    vault,
    log,
    ...config.emision,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    alEmitir: (tx, numSecuPol) => postventa.encolarCorreoPoliza(tx, numSecuPol),
    despuesDeEmitir: () => {
      metrics.polizasEmitidas.inc();
      correo.despertar();
    },
    alTomar: (atrasoSeg) => metrics.emisionAtraso.observe(atrasoSeg),
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
    emision,
    metrics,
    settings: config.settings,
    lifecycle: { cerrando: false },
    revalidarFechas,
  };
  return { deps, postventa };
}

/**
 * @param opts what to set; the rest from config.ts › DEFAULTS (tests and tools pass a few, main.ts the environment's)
 * @returns a ready Fastify instance (migrations applied, pending issuances resumed)
 * @throws Error when the tariff or the lists cannot be loaded, or a migration fails
 */
export function build(opts: BuildOptions = {}): Promise<FastifyInstance> {
  return buildApp(resolveAppConfig(opts));
}

/** {@link build} over a complete configuration. */
export async function buildApp(config: AppConfig): Promise<FastifyInstance> {
  // A hop count trusts the nearest N addresses of the chain (socket peer first), as proxy-addr counts hops; Fastify 5
  // refuses bare numbers, so it gets the function. Only safe when instances are reachable through the proxy alone.
  const tp = config.trustProxy;
  const trustProxy = typeof tp === 'number' ? (_addr: string, i: number) => i < tp : tp;
  const app = Fastify({
    logger: loggerDe(config.logger),
    trustProxy,
    bodyLimit: 64 * 1024,
    return503OnClosing: true,
    routerOptions: { maxParamLength: 512 },
    // response serializers compiled at each route's first answer (plugins/schemas.ts)
    schemaController: { compilersFactory: { buildSerializer: serializadoresAlUsarlos } },
  });

  const db = config.db ?? (await createPgliteDb());
  await migrate(db);
  const { deps, postventa } = createDeps(config, db, app.log);
  app.decorate('deps', deps);
  app.decorate('postventa', postventa);
  app.decorate('antibot', {
    ...createAntibot({ db, dificultad: config.antibot.dificultad, vidaSeg: config.antibot.vidaSeg, secreto: config.antibot.clave }),
    activo: config.antibot.activo,
    recaptcha: config.antibot.recaptcha ? createRecaptcha(config.antibot.recaptcha) : undefined,
  });
  const retention = createRetentionJob(db, config.retention, app.log);
  app.addHook('preClose', async () => {
    deps.lifecycle.cerrando = true;
  });
  // While draining, every answer closes its keep-alive connection, so the close does not wait for idle clients.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (deps.lifecycle.cerrando) reply.header('connection', 'close');
    return payload;
  });
  const servidorMetricas =
    config.metrics.port !== undefined ? await startMetricsServer(deps.metrics, config.metrics.port, config.metrics.host) : undefined;
  deps.metricsUrl = servidorMetricas?.url;
  app.addHook('onClose', async () => {
    await servidorMetricas?.close();
    await retention.stop();
    await deps.emision.close();
    await deps.correo.close();
    await db.close();
  });

  await app.register(securityPlugin, { staticDir: config.staticDir });
  await app.register(contentTypePlugin);
  await app.register(csrfPlugin);
  await app.register(schemasPlugin, { schemasDir: config.schemasDir });
  await app.register(errorHandlerPlugin);
  await app.register(metricsPlugin, { metrics: deps.metrics, token: config.metrics.token });
  await app.register(swaggerPlugin, { version: VERSION });
  await app.register(healthRoutes, { prefix: '/api/health' });
  await app.register(apiRoutes, { prefix: '/api', config });
  await app.register(staticPlugin, { staticDir: config.staticDir });

  await app.ready();
  deps.emision.start();
  deps.correo.start();
  return app;
}
