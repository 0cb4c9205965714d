/**
 * Request rate limits and the hourly quote quota, shared by every API instance.
 * Counted in the database (`limites` table, db/repositories/limites.ts: fixed windows from the first hit), so
 * N instances behind a proxy enforce ONE limit, and the embedded default (PGlite) needs nothing installed.
 * - Every /api request: at most `rateLimitMax` per minute per client IP → 429 DEMASIADAS_SOLICITUDES
 *   (@fastify/rate-limit). On PostgreSQL counted in `limites` (a store over it); on PGlite in this process's memory (@fastify/rate-limit's own store): PGlite's folder
 *   belongs to ONE process (db/lock.ts), so that counter already is the one limit, and a database round trip per
 *   request — half of a quote's statements, and most of its p99 under load — buys nothing. A restart
 *   forgets at most one minute of counts.
 * - `cotizar`: at most `cotizacionesPorHoraPorIp` quotes per hour per client IP (window from the first quote) →
 *   429 with {@link MENSAJE_LIMITE_COTIZACIONES}; the quote is counted by the statement that stores it
 *   (`cupoCotizaciones.de`, cotizaciones.ts › insertConCupo); `evaluar-ip` reads the same counter without counting.
 * - funnel batches (POST /embudo/eventos): at most `embudoLotesPorMinuto` per minute per client IP → 429
 *   DEMASIADAS_SOLICITUDES (with at most 50 events a batch, this bounds what one address can write).
 * - named counters (`cupoPorHora`): any other hourly bound on one key — e.g. how often ONE resume link may re-quote
 *   (`retomar|<link id>`) or how many after-sale requests ONE policy or tracking code may get (routes/postventa).
 * The client IP is `request.ip`, i.e. what the trusted proxies say (config TRUST_PROXY). Addresses in
 * `cotizacionesExentas` (COTIZACIONES_EXENTAS, plugins/exentas.ts) quote without the hourly limit.
 */
import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/index.ts';
import type { Cupo } from '../db/repositories/cotizaciones.ts';
import { limitesRepository } from '../db/repositories/limites.ts';
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
   * The request IP's counter (key, window, max) for a statement that counts the quote as it stores it
   * (cotizaciones.ts › insertConCupo: one round trip); when it refuses, answer {@link limiteCotizacionesExcedido}.
   */
  de(request: FastifyRequest): Cupo;
  /** @returns whether the request's IP may still quote this hour (does not count) */
  disponible(request: FastifyRequest): Promise<boolean>;
}

declare module 'fastify' {
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
  await app.register(rateLimit, {
    max: opts.rateLimitMax,
    timeWindow: '1 minute',
    ...(app.deps.db.kind === 'postgres' ? { store: databaseStore(app.deps.db) } : {}),
    keyGenerator: (request) => `api|${request.ip}`,
    errorResponseBuilder: () => new ApiError(429, 'DEMASIADAS_SOLICITUDES', MENSAJES.DEMASIADAS_SOLICITUDES),
  });
  // The quota and the funnel batches are counted in `limites` on either engine: the quota is also counted by the
  // statement that stores a quote (insertConCupo), so every reader and writer of it must see the same counter.
  const limites = limitesRepository(app.deps.db);
  app.decorate('cupoCotizaciones', {
    async consumir(request: FastifyRequest) {
      if (exenta(request.ip)) return;
      const { current } = await limites.incrementar(claveCotizar(request), HORA_MS);
      if (current > opts.cotizacionesPorHora) throw limiteCotizacionesExcedido();
    },
    // an exempt address is still counted by the storing statement, against a bound it never reaches (int4)
    de: (request: FastifyRequest) => ({
      clave: claveCotizar(request),
      ventanaMs: HORA_MS,
      max: exenta(request.ip) ? 2_147_483_647 : opts.cotizacionesPorHora,
    }),
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
