/**
 * Request rate limits and the hourly quote quota, shared by every API instance.
 * Counted in the database (`limites` table, db/repositories/limites.ts: fixed windows from the first hit), so
 * N instances behind a proxy enforce ONE limit, and the embedded default (PGlite) needs nothing installed.
 * - Every /api request: at most `rateLimitMax` per minute per client IP → 429 DEMASIADAS_SOLICITUDES
 *   (@fastify/rate-limit). On PostgreSQL counted in `limites` (a store over it); on PGlite in this process's memory
 *   (@fastify/rate-limit's own store): PGlite's folder belongs to ONE process (db/lock.ts), so that counter already is
 *   the one limit, and a database round trip per request buys nothing. A restart forgets at most one minute of counts.
 *   On PostgreSQL a route with `config.limiteEnSentencia` (cotizar) is counted by the statement that stores its quote
 *   ({@link CupoCotizaciones.guardar}) instead of a round trip of its own before the handler: one round trip, not two,
 *   for the most frequent storing request. Such a request that ends before that statement (a field error, a refused
 *   rating…) is counted as it is answered, and an address this process saw past the limit is refused at once, without
 *   the database, until its window ends. The one difference a client can see: past the limit, a cotizar with bad
 *   fields is answered its 400, the next good one the 429.
 * - `cotizar`: at most `cotizacionesPorHoraPorIp` quotes per hour per client IP (window from the first quote) →
 *   429 with {@link MENSAJE_LIMITE_COTIZACIONES}; the quote is counted by the statement that stores it
 *   (`cupoCotizaciones.guardar`, cotizaciones.ts › insertConCupos); `evaluar-ip` reads the same counter without counting.
 * - funnel batches (POST /embudo/eventos): at most `embudoLotesPorMinuto` per minute per client IP → 429
 *   DEMASIADAS_SOLICITUDES (with at most 50 events a batch, this bounds what one address can write).
 * - named counters (`cupoPorHora`): any other hourly bound on one key — e.g. how often ONE resume link may re-quote
 *   (`retomar|<link id>`) or how many after-sale requests ONE policy or tracking code may get (routes/postventa).
 * The client IP is `request.ip`, i.e. what the trusted proxies say (config TRUST_PROXY). Addresses in
 * `cotizacionesExentas` (COTIZACIONES_EXENTAS, plugins/exentas.ts) quote without the hourly limit.
 */
import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, onSendHookHandler } from 'fastify';
import type { Db } from '../db/index.ts';
import type { Cupo, CupoExcedido } from '../db/repositories/cotizaciones.ts';
import { limitesRepository, type LimitesRepository } from '../db/repositories/limites.ts';
import { ApiError, MENSAJES } from '../errors.ts';
import { mensaje } from '../../../src/core/messages.ts';
import { exentaDeCotizaciones } from './exentas.ts';

/** Shown to the visitor when their IP reached the hourly quote limit. */
export const MENSAJE_LIMITE_COTIZACIONES = mensaje('servidor.limiteCotizaciones');
const HORA_MS = 3_600_000;

/** The 429 of an IP past its hourly quotes. */
export function limiteCotizacionesExcedido(): ApiError {
  return new ApiError(429, 'DEMASIADAS_SOLICITUDES', MENSAJE_LIMITE_COTIZACIONES);
}

/** Key of an IP's quote counter in `limites`. */
const claveCotizar = (request: FastifyRequest) => `cotizar|${request.ip}`;
/** Key of an IP's per-minute request counter (@fastify/rate-limit's key; in `limites` on PostgreSQL). */
const claveApi = (request: FastifyRequest) => `api|${request.ip}`;
const MINUTO_MS = 60_000;
/** The 429 of an IP past its requests a minute (the same body as @fastify/rate-limit's). */
const demasiadasSolicitudes = () => new ApiError(429, 'DEMASIADAS_SOLICITUDES', MENSAJES.DEMASIADAS_SOLICITUDES);
/** Most addresses remembered as past the minute's limit (a flood of distinct addresses cannot grow the map further). */
const EXCEDIDAS_MAX = 10_000;

type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void;

/** A @fastify/rate-limit store class over `db` (fixed window from the first hit; see limites.ts). */
export function databaseStore(db: Db) {
  const repo = limitesRepository(db);
  return class DatabaseStore {
    incr(key: string, cb: Callback, timeWindow: number): void {
      repo.incrementar(key, timeWindow).then(
        (r) => cb(null, r),
        (err: Error) => cb(err),
      );
    }
    read(key: string, cb: Callback): void {
      repo.leer(key).then(
        (r) => cb(null, r),
        (err: Error) => cb(err),
      );
    }
    child(): DatabaseStore {
      return this;
    }
  };
}

export interface CupoCotizaciones {
  /** Counts one quote for the request's IP. @throws ApiError 429 when the hourly limit is exceeded */
  consumir(request: FastifyRequest): Promise<void>;
  /**
   * Stores a quote with `insertar`, a statement that counts it on the counters it is given as it stores it
   * (cotizaciones.ts › insertConCupos: one round trip): the IP's hourly quotes and, for a route with
   * `config.limiteEnSentencia` on PostgreSQL, first its requests a minute.
   * @throws ApiError 429 DEMASIADAS_SOLICITUDES — {@link MENSAJE_LIMITE_COTIZACIONES} past the hourly quotes, the
   *   generic message past the minute's requests — when `insertar` refused (nothing stored)
   */
  guardar(request: FastifyRequest, insertar: (cupos: readonly Cupo[]) => Promise<CupoExcedido | null>): Promise<void>;
  /** @returns whether the request's IP may still quote this hour (does not count) */
  disponible(request: FastifyRequest): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route stores through {@link CupoCotizaciones.guardar}, whose statement may also count the per-minute request
     * limit: on PostgreSQL it is not counted before the handler (see the module doc).
     */
    limiteEnSentencia?: boolean;
  }
  interface FastifyInstance {
    cupoCotizaciones: CupoCotizaciones;
    /** Counts one funnel batch for the request's IP. @throws ApiError 429 past `embudoLotesPorMinuto` a minute */
    cupoEmbudo: { consumir(request: FastifyRequest): Promise<void> };
    /**
     * Counts one hit on the hourly counter `clave` (shared by every instance, window from the first hit).
     * @throws ApiError 429 DEMASIADAS_SOLICITUDES with `mensaje` when this hit is past `max` in the window
     */
    cupoPorHora: { consumir(clave: string, max: number, mensaje: string): Promise<void> };
  }
}

/**
 * Registers the global /api limit and decorates `cupoCotizaciones` (register inside the /api scope, before routes).
 * @param opts.rateLimitMax requests per minute per IP @param opts.cotizacionesPorHora quotes per hour per IP
 * @param opts.embudoLotesPorMinuto funnel batches per minute per IP
 * @param opts.cotizacionesExentas client addresses or subnets without the hourly quote limit
 */
export default fp(async function limitsPlugin(
  app: FastifyInstance,
  opts: { rateLimitMax: number; cotizacionesPorHora: number; embudoLotesPorMinuto: number; cotizacionesExentas?: string[] },
) {
  const exenta = exentaDeCotizaciones(opts.cotizacionesExentas ?? []);
  const limites = limitesRepository(app.deps.db);
  const minuto = minutoEnSentencia(app, limites, opts.rateLimitMax);
  await app.register(rateLimit, {
    max: opts.rateLimitMax,
    timeWindow: MINUTO_MS,
    ...(app.deps.db.kind === 'postgres' ? { store: databaseStore(app.deps.db) } : {}),
    keyGenerator: claveApi,
    errorResponseBuilder: demasiadasSolicitudes,
  });
  // The quota and the funnel batches are counted in `limites` on either engine: the quota is also counted by the
  // statement that stores a quote (insertConCupos), so every reader and writer of it must see the same counter.
  const hora = (request: FastifyRequest): Cupo => ({
    clave: claveCotizar(request),
    ventanaMs: HORA_MS,
    // an exempt address is still counted by the storing statement, against a bound it never reaches (int4)
    max: exenta(request.ip) ? 2_147_483_647 : opts.cotizacionesPorHora,
  });
  app.decorate('cupoCotizaciones', {
    async consumir(request: FastifyRequest) {
      if (exenta(request.ip)) return;
      const { current } = await limites.incrementar(claveCotizar(request), HORA_MS);
      if (current > opts.cotizacionesPorHora) throw limiteCotizacionesExcedido();
    },
    async guardar(request: FastifyRequest, insertar: (cupos: readonly Cupo[]) => Promise<CupoExcedido | null>) {
      const delMinuto = minuto.cupo(request);
      const excedido = await insertar(delMinuto ? [delMinuto, hora(request)] : [hora(request)]);
      if (delMinuto) minuto.contado(request, excedido?.cupo === delMinuto ? excedido.ttlMs : undefined);
      if (!excedido) return;
      throw excedido.cupo === delMinuto ? demasiadasSolicitudes() : limiteCotizacionesExcedido();
    },
    async disponible(request: FastifyRequest) {
      if (exenta(request.ip)) return true;
      return (await limites.leer(claveCotizar(request))).current < opts.cotizacionesPorHora;
    },
  });
  app.decorate('cupoEmbudo', {
    async consumir(request: FastifyRequest) {
      const { current } = await limites.incrementar(`embudo|${request.ip}`, 60_000);
      if (current > opts.embudoLotesPorMinuto) throw new ApiError(429, 'DEMASIADAS_SOLICITUDES', MENSAJES.DEMASIADAS_SOLICITUDES);
    },
  });
  app.decorate('cupoPorHora', {
    async consumir(clave: string, max: number, mensaje: string) {
      const { current } = await limites.incrementar(clave, HORA_MS);
      if (current > max) throw new ApiError(429, 'DEMASIADAS_SOLICITUDES', mensaje);
    },
  });
});

/**
 * The per-minute request limit counted by a route's storing statement (PostgreSQL, `config.limiteEnSentencia`; see
 * the module doc). Adds an onRoute hook, so call it before @fastify/rate-limit is registered: it turns that route's
 * rate-limit hook off and gives it two of its own — refuse at once an address this process saw past the limit
 * (until its window ends), and count a request that is answered without the statement having counted it.
 * @returns `cupo(request)`: the minute's counter for the statement (undefined where it is counted before the handler);
 *   `contado(request, ttlMs?)`: the statement counted it (`ttlMs`: it was past the limit, ms left in its window)
 */
function minutoEnSentencia(app: FastifyInstance, limites: LimitesRepository, max: number) {
  const activo = app.deps.db.kind === 'postgres';
  const contados = new WeakSet<FastifyRequest>();
  /** Address keys seen past the limit → when their window ends (ms since the epoch), oldest first. */
  const excedidas = new Map<string, number>();
  const recordar = (clave: string, ttlMs: number) => {
    excedidas.delete(clave);
    if (excedidas.size >= EXCEDIDAS_MAX) excedidas.delete(excedidas.keys().next().value as string);
    excedidas.set(clave, Date.now() + ttlMs);
  };
  const rechazarConocidas: onRequestHookHandler = async (request) => {
    const clave = claveApi(request);
    const fin = excedidas.get(clave);
    if (fin === undefined) return;
    if (fin <= Date.now()) {
      excedidas.delete(clave);
      return;
    }
    contados.add(request); // past the limit already: another count changes nothing in its window
    throw demasiadasSolicitudes();
  };
  const contarSiFalta: onSendHookHandler = async (request: FastifyRequest, _reply: FastifyReply, payload) => {
    if (contados.has(request)) return payload;
    contados.add(request);
    try {
      const { current, ttl } = await limites.incrementar(claveApi(request), MINUTO_MS);
      if (current > max) recordar(claveApi(request), ttl);
    } catch (err) {
      // the answer is already decided (most likely a 503 with the database away): one count less, not a lost answer
      request.log.warn({ err }, 'no se pudo contar el pedido en el límite por minuto');
    }
    return payload;
  };
  if (activo) {
    app.addHook('onRoute', (route) => {
      if (!route.config?.limiteEnSentencia) return;
      route.config = { ...route.config, rateLimit: false };
      route.onRequest = [...[route.onRequest ?? []].flat(), rechazarConocidas];
      route.onSend = [...[route.onSend ?? []].flat(), contarSiFalta];
    });
  }
  return {
    cupo: (request: FastifyRequest): Cupo | undefined =>
      activo && request.routeOptions.config.limiteEnSentencia ? { clave: claveApi(request), ventanaMs: MINUTO_MS, max } : undefined,
    contado(request: FastifyRequest, ttlMs?: number) {
      contados.add(request);
      if (ttlMs !== undefined) recordar(claveApi(request), ttlMs);
    },
  };
}
