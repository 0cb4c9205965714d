/**
 * Resumable quotes: "Enviarme la cotización" stores what the visitor answered and e-mails a signed resume link; the
 * link opens a new quote of the visitor's session with the same inputs, re-priced with today's tariff. The link's
 * page and query parameter come from the flow (flow/flow.json › resume).
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/index.ts';
import { correosRepository } from '../../db/repositories/correos.ts';
import { cotizacionesRepository, type Cotizacion, type Cupo, type CupoExcedido } from '../../db/repositories/cotizaciones.ts';
import { cotizacionesEnviadasRepository } from '../../db/repositories/cotizaciones-enviadas.ts';
import { ApiError, notFound } from '../../errors.ts';
import type { RevalidarFechas } from '../../plugins/revalidar.ts';
import { rangoDeFechas } from '../../../../src/core/dates.ts';
import { compileFlow } from '../../../../src/core/flow/graph.ts';
import { loadFlowDef } from '../../producto.ts';
import { rateAll } from '../rating/engine.ts';
import { entradaDeCotizacion } from '../rating/entrada.ts';
import { textosDeTarifa } from '../rating/planes-guardados.ts';
import type { Tariff } from '../rating/tariff.ts';
import { correoCotizacion } from './correos.ts';
import { texto } from './textos.ts';
import type { Tokens } from './tokens.ts';

/** Validity of a resume link, ms. */
export const VIGENCIA_ENLACE_COTIZACION_MS = 7 * 24 * 3_600_000;

const FLUJO = compileFlow(loadFlowDef());
/** The query parameter of a resume link: the flow declares it (flow/flow.json › resume.param). */
export const PARAMETRO_RETOMAR = FLUJO.resume?.param ?? 'retomar';
/**
 * The page a resume link opens: the route of the step the flow resumes to (flow.json › resume.to, routed as the web
 * app routes it), so the visitor sees that step's prerendered frame, never the home page, while the quote loads.
 * The site root when the flow names no such step.
 */
const RUTA_RETOMAR = `/${FLUJO.steps.find((s) => s.id === FLUJO.resume?.to)?.path ?? ''}`;

export interface RetomarOptions {
  db: Db;
  tariff: Tariff;
  tokens: Tokens;
  /** Public base URL of the site for the e-mailed link, without trailing slash. */
  publicUrl: string;
  /** Today's date keywords over stored answers (plugins/revalidar.ts): a resumed quote's start date is checked again. */
  revalidarFechas: RevalidarFechas;
}

/** Limits a resume counts on (routes/postventa). */
export interface LimitesRetomar {
  /**
   * Stores the new quote with `insertar`, counted against the client address's hourly quote limit by the same
   * statement (plugins/limits.ts › cupoCotizaciones.guardar). @throws ApiError 429 when refused
   */
  guardar: (insertar: (cupos: readonly Cupo[]) => Promise<CupoExcedido | null>) => Promise<void>;
  /** Counts one resume of link `clave`. @throws ApiError 429 past its hourly bound */
  porEnlace: (clave: string) => Promise<void>;
}

const e = (k: string) => texto(`servidor.postventa.${k}`);

/** Sending and opening resume links over the database. */
export function createRetomar(opts: RetomarOptions) {
  const { db, tariff, tokens } = opts;

  /**
   * Answers `datos` checked against today's date keywords: a date `x-diasDesdeHoy` no longer allows moves to the
   * first date it allows. @returns the answers (a copy) and whether a date moved
   */
  function conFechasDeHoy(datos: Record<string, unknown>): { datos: Record<string, unknown>; fechaMovida: boolean } {
    const hoy = { ...datos };
    let fechaMovida = false;
    for (const v of opts.revalidarFechas(hoy)) {
      const primera = v.keyword === 'x-diasDesdeHoy' ? rangoDeFechas(v.schema).min : undefined;
      if (primera && /^\/[^/]+$/.test(v.field)) {
        hoy[v.field.slice(1)] = primera;
        fechaMovida = true;
      }
    }
    return { datos: hoy, fechaMovida };
  }

  return {
    /**
     * Stores what the visitor answered, signs a 7-day resume link and queues the quote e-mail (PDF attached).
     * @returns the address it goes to
     * @throws ApiError 409 when the quote has no e-mail (a flow that asks the contact details after the price)
     */
    async enviarCotizacion(cot: Cotizacion, respuestas: unknown, versionFlujo: number): Promise<{ email: string }> {
      const para = cot.email;
      if (!para) throw new ApiError(409, 'CONFLICTO', e('sinEmail'));
      return db.transaction(async (tx) => {
        const row = await cotizacionesEnviadasRepository(tx).insertar(cot.refId, respuestas, versionFlujo, VIGENCIA_ENLACE_COTIZACION_MS);
        const enlace = `${opts.publicUrl}${RUTA_RETOMAR}?${PARAMETRO_RETOMAR}=${tokens.firmar('cotizacion', row.id, VIGENCIA_ENLACE_COTIZACION_MS)}`;
        await correosRepository(tx).encolar(correoCotizacion(opts.publicUrl, cot, para, enlace, row.vence));
        return { email: para };
      });
    },

    /**
     * Opens a resume link for session `sesion`: a NEW quote of that session with the same inputs, re-priced with
     * today's tariff (a start date no longer allowed moves to tomorrow). It is a quote like any other: it counts on
     * the client address's hourly quote limit (`limites.guardar`), and ONE link re-quotes at most a bounded number of
     * times an hour (`limites.porEnlace`, counted before re-pricing).
     * @throws ApiError 404 with a Spanish message for a tampered, unknown or expired link; 429 past either limit
     */
    async retomar(token: string, sesion: string, ip: string | null, limites: LimitesRetomar) {
      const v = tokens.verificar('cotizacion', token);
      if (!v.ok) throw notFound(e(v.motivo === 'VENCIDO' ? 'enlaceVencido' : 'enlaceInvalido'));
      const env = await cotizacionesEnviadasRepository(db).get(v.id);
      if (!env) throw notFound(e('enlaceInvalido'));
      if (!env.vigente) throw notFound(e('enlaceVencido'));
      await limites.porEnlace(`retomar|${v.id}`);
      const repo = cotizacionesRepository(db);
      const cot = await repo.get(env.refId);
      if (!cot) throw notFound(e('enlaceVencido'));
      const { planes, inspection } = rateAll(tariff, entradaDeCotizacion(cot));
      const tarifaCambiada =
        cot.tarifaVersion !== tariff.version ||
        JSON.stringify(planes.map((p) => p.premio)) !== JSON.stringify(cot.planes.map((p) => p.premio));
      const { datos, fechaMovida } = conFechasDeHoy(cot.datos);
      const initPolicyDate = typeof datos.initPolicyDate === 'string' ? datos.initPolicyDate : cot.initPolicyDate;
      const refId = randomUUID();
      const nueva = {
        ...cot,
        datos,
        refId,
        sesion,
        ip,
        tarifaVersion: tariff.version,
        initPolicyDate,
        inspection,
        planes,
        textos: textosDeTarifa(tariff),
      };
      await limites.guardar((cupos) => repo.insertConCupos(nueva, cupos));
      return {
        respuestas: env.respuestas,
        versionFlujo: env.version,
        tarifaCambiada,
        fechaMovida,
        cotizacion: {
          refId,
          tarifaVersion: tariff.version,
          initPolicyDate,
          inspection,
          zona: { codigo: cot.zona, descripcion: tariff.zonas[cot.zona].descripcion },
          planes,
        },
      };
    },
  };
}
