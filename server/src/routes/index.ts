/**
 * The API under /api, listed once. `apiRoutes` is the /api scope: shared rate limits, the visitor session, CSRF on
 * every POST and Idempotency-Key, then every area's route plugin of {@link RUTAS_API} in its order (one folder per
 * area under routes/, as fastify/demo does; the URLs are the public API and do not change with a folder's name).
 */
import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../config.ts';
import idempotencyPlugin from '../plugins/idempotency.ts';
import limitsPlugin from '../plugins/limits.ts';
import sessionPlugin from '../plugins/session.ts';
import antibotRoutes from './antibot/index.ts';
import chatRoutes from './chat/index.ts';
import cotizacionRoutes from './cotizacion/index.ts';
import csrfRoutes from './csrf/index.ts';
import devRoutes from './dev/index.ts';
import condicionesRoutes from './documentos/condiciones.ts';
import domicilioRoutes from './domicilio/index.ts';
import embudoRoutes from './embudo/index.ts';
import emisionRoutes from './emision/index.ts';
import grabadorRoutes from './grabador/index.ts';
import listasRoutes from './listas/index.ts';
import logsRoutes from './logs/index.ts';
import pagosRoutes from './pagos/index.ts';
import postventaRoutes from './postventa/index.ts';
import recaptchaRoutes from './recaptcha/index.ts';
import salesforceRoutes from './salesforce/index.ts';
import vistaPreviaRoutes from './vista-previa/index.ts';

/** One area's routes: mounted at `/api<prefix>` (no prefix: the plugin names its own paths), with its options. */
interface RutaApi {
  plugin: FastifyPluginAsync<never>;
  prefix?: string;
  /** The plugin's options from the app's configuration. */
  opciones?: (config: AppConfig) => object;
  /** Registered only when this holds (default: always). */
  si?: (config: AppConfig) => boolean;
}

/** Every area under /api, in registration order. */
export const RUTAS_API: readonly RutaApi[] = [
  { plugin: csrfRoutes },
  { plugin: chatRoutes, prefix: '/chat' },
  { plugin: grabadorRoutes, prefix: '/grabador' },
  { plugin: vistaPreviaRoutes, prefix: '/vista-previa' },
  { plugin: listasRoutes, prefix: '/listas' },
  { plugin: cotizacionRoutes, prefix: '/cotizacion' },
  { plugin: salesforceRoutes, prefix: '/salesforce' },
  { plugin: domicilioRoutes, prefix: '/domicilio' },
  { plugin: pagosRoutes, prefix: '/pagos' },
  { plugin: emisionRoutes, prefix: '/emision' },
  { plugin: recaptchaRoutes, prefix: '/recaptcha' },
  { plugin: antibotRoutes, prefix: '/antibot' },
  { plugin: logsRoutes, prefix: '/logs' },
  { plugin: embudoRoutes, prefix: '/embudo' },
  // /documentos/poliza/:token, /documentos/cotizacion/:refId, /cotizacion/enviar|retomar, /postventa/*
  {
    plugin: postventaRoutes,
    opciones: ({ postventa: p }) => ({
      tramitesPorHora: p.tramitesPorHora,
      tramitesPorPolizaPorHora: p.tramitesPorPolizaPorHora,
      retomarPorEnlacePorHora: p.retomarPorEnlacePorHora,
    }),
  },
  { plugin: condicionesRoutes },
  { plugin: devRoutes, si: (config) => config.devPages },
];

/** The /api scope (register with `{ prefix: '/api', config }`). */
export default async function apiRoutes(api: FastifyInstance, { config }: { config: AppConfig }) {
  await api.register(limitsPlugin, {
    rateLimitMax: config.rateLimitMax,
    cotizacionesPorHora: config.settings.cotizacionesPorHoraPorIp,
    embudoLotesPorMinuto: config.embudoLotesPorMinuto,
    cotizacionesExentas: config.cotizacionesExentas,
  });
  await api.register(sessionPlugin, { secure: config.settings.cookieSecure });
  api.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'POST') api.csrfProtection(request, reply, done);
    else done();
  });
  await api.register(idempotencyPlugin, { secret: createHmac('sha256', config.paymentKey).update('idempotency-key').digest() });
  for (const r of RUTAS_API) {
    if (r.si && !r.si(config)) continue;
    await api.register(r.plugin as FastifyPluginAsync, { ...r.opciones?.(config), ...(r.prefix ? { prefix: r.prefix } : {}) });
  }
}
