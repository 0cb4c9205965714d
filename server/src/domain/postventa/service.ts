/**
 * After the sale (issue 8): the policy document (made once and kept), the policy and quote e-mails (queued in the
 * outbox), resumable quotes behind signed links, and the withdrawal (botón de arrepentimiento: CCyC art. 1110,
 * Ley 24.240 art. 34 — within 10 calendar days of the purchase, Argentina time; the policy becomes ANULADA) and
 * cancellation (botón de baja: Ley 24.240 art. 10 ter, Res. SSN 360/2024 mod. 435/2025, Disp. SSDCyLC 954/2025 —
 * BAJA from 24 h of the day of the request, Argentina time: no more debits, the unearned premium is refunded)
 * requests, answered with a tracking code the holder can look up (with their DNI or e-mail). A baja does not take
 * away a withdrawal still inside its 10 days: it is accepted after the baja and the policy becomes ANULADA.
 * Texts: src/i18n/es.json › servidor.postventa.*, legal.* (the baja's effective date: legal.bajaRige, one text for
 * the form, the result page, the lookup page, the e-mail and the policy PDF).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db, Queryable } from '../../db/index.ts';
import { cotizacionesEnviadasRepository } from '../../db/repositories/cotizaciones-enviadas.ts';
import { polizasRepository } from '../../db/repositories/polizas.ts';
import { tramitesRepository, type TipoTramite } from '../../db/repositories/tramites.ts';
import { cotizacionesRepository, type Cotizacion, type Cupo } from '../../db/repositories/cotizaciones.ts';
import { correosRepository, type AdjuntoRef } from '../../db/repositories/correos.ts';
import type { Domicilio } from '../../db/repositories/domicilios.ts';
import type { Persona } from '../../db/repositories/personas.ts';
import { ApiError, notFound } from '../../errors.ts';
import { limiteCotizacionesExcedido } from '../../plugins/limits.ts';
import { RUTA_CONSULTA_TRAMITE } from '../../../../src/screens/postventa/rutas.ts';
import type { Adjunto } from '../correo/outbox.ts';
import { cuerpoCorreo } from '../correo/plantilla.ts';
import { pdfCotizacion } from '../documentos/cotizacion.ts';
import { fecha, pesos } from '../documentos/formato.ts';
import { pdfPoliza, type DatosPoliza } from '../documentos/poliza.ts';
import { pdfCondiciones } from '../documentos/condiciones.ts';
import { RUTAS_POSTVENTA } from '../../../../src/screens/postventa/rutas.ts';
import { RUTA_CONDICIONES_GENERALES, RUTAS_LEGALES } from '../../../../src/screens/legal/rutas.ts';
import { detalleCuotas } from '../../../../src/i18n/cuotas.ts';
import { descripcion, type Catalogos } from '../lists/catalogos.ts';
import type { Lists } from '../lists/index.ts';
import { desgloseImpuestos, rateAll } from '../rating/engine.ts';
import { entradaDeCotizacion } from '../rating/entrada.ts';
import type { Tariff } from '../rating/tariff.ts';
import { hoyArgentina, sumarDias } from '../validation/fechas.ts';
import { rangoDeFechas } from '../../../../src/form/dates.ts';
import type { RevalidarFechas } from '../../plugins/revalidar.ts';
import { texto } from './textos.ts';
import type { Tokens } from './tokens.ts';

/** Days a withdrawal may be asked after the purchase (CCyC art. 1110). */
export const DIAS_ARREPENTIMIENTO = 10;
/** Validity of a resume link and of a policy download link, ms. */
export const VIGENCIA_ENLACE_COTIZACION_MS = 7 * 24 * 3_600_000;
export const VIGENCIA_ENLACE_POLIZA_MS = 30 * 24 * 3_600_000;

const FLUJO = JSON.parse(readFileSync(join(import.meta.dirname, '../../../../flow/flow.json'), 'utf8')) as {
  basePath: string;
  resume?: { param?: string; to?: string };
  steps: { id: string; path?: string }[];
};
/** The query parameter of a resume link: the flow declares it (flow/flow.json › resume.param). */
export const PARAMETRO_RETOMAR = FLUJO.resume?.param ?? 'retomar';
/**
 * The page a resume link opens: the route of the step the flow resumes to (flow.json › resume.to; route rule of
 * src/engine/core/graph.ts), so the visitor sees that step's prerendered frame, never the home page, while the quote
 * loads (issue 23). The site root when the flow names no such step.
 */
const RUTA_RETOMAR = (() => {
  const paso = FLUJO.steps.find((s) => s.id === FLUJO.resume?.to);
  if (!paso) return '/';
  const propia = paso.path ?? paso.id;
  return `/${propia === '' ? FLUJO.basePath : `${FLUJO.basePath}/${propia}`}`;
})();

export type { TipoTramite } from '../../db/repositories/tramites.ts';
export interface Tramite {
  codigo: string;
  tipo: TipoTramite;
  numSecuPol: string;
  /** The policy's state now (a baja followed by a withdrawal: ANULADA). */
  estado: 'ANULADA' | 'BAJA';
  /** YYYY-MM-DD: ANULADA from the start of the vigencia; BAJA from 24 h of that day (the day of the request). */
  fechaEfectiva: string;
  /** YYYY-MM-DD, only while a withdrawal is still possible (a BAJA inside the 10 days): its last day. */
  arrepentimientoHasta?: string;
}
/** What the tracking-code lookup shows: the request, when it was made (YYYY-MM-DD, Argentina) and where it stands. */
export interface ConsultaTramite extends Tramite {
  fecha: string;
}

/** The sentence of a baja's effective date and what happens to the money (legal.bajaRige). @param efectiva YYYY-MM-DD */
export const textoBajaRige = (efectiva: string) => texto('legal.bajaRige', { fecha: fecha(efectiva) });
/** Last day (YYYY-MM-DD) a policy issued on `emitida` (YYYY-MM-DD, Argentina) may be withdrawn. */
export const ultimoDiaArrepentimiento = (emitida: string) => sumarDias(emitida, DIAS_ARREPENTIMIENTO);

export interface PostventaOptions {
  db: Db;
  tariff: Tariff;
  lists: Lists;
  /** The flow's catalogues (descriptions of the answers in the quote PDF). */
  catalogos: Catalogos;
  tokens: Tokens;
  /** Public base URL of the site for links in e-mails (env PUBLIC_URL), without trailing slash. */
  publicUrl: string;
  /** Called once a NEW withdrawal or cancellation is committed (not for a repeated request; metrics). */
  alRegistrarTramite?: (tipo: TipoTramite) => void;
  /** Today's date keywords over stored answers (plugins/revalidar.ts): a resumed quote's start date is checked again. */
  revalidarFechas: RevalidarFechas;
}

const e = (k: string, v?: Record<string, string | number>) => texto(`servidor.postventa.${k}`, v);
const nombreDe = (p: Persona) => `${p.firstName} ${p.lastName}`;
const calle = (d: Domicilio) => [d.addressName, d.noAddressNumber ? 'S/N' : d.numberAddress].filter(Boolean).join(' ');
const CODIGO_ALFABETO = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** A tracking code: prefix + 10 random characters without look-alikes (50 bits), e.g. "ARR-7K3M9Q2XHD". */
export function codigoSeguimiento(tipo: TipoTramite): string {
  const bytes = randomBytes(10);
  return `${tipo === 'ARREPENTIMIENTO' ? 'ARR' : 'BAJ'}-${[...bytes].map((b) => CODIGO_ALFABETO[b % 32]).join('')}`;
}


/**
 * A request as answered: the policy's state now, and the last day of the withdrawal while a BAJA still allows it.
 * @param estado the policy's state (VIGENTE cannot occur once a request exists) @param hasta last withdrawal day
 */
function respuesta(codigo: string, tipo: TipoTramite, numSecuPol: string, estado: string, fechaEfectiva: string, hasta: string, hoy: string): Tramite {
  const r: Tramite = { codigo, tipo, numSecuPol, estado: estado === 'ANULADA' ? 'ANULADA' : 'BAJA', fechaEfectiva };
  if (r.estado === 'BAJA' && hasta >= hoy) r.arrepentimientoHasta = hasta;
  return r;
}

/** The after-sale service over the database. */
export function createPostventa(opts: PostventaOptions) {
  const { db, tariff, lists, tokens } = opts;

  /** Renders the policy document from the stored application (payment method masked; `fin`: the ended state's mark). */
  async function renderPoliza(numSecuPol: string, fin?: DatosPoliza['fin']): Promise<Buffer> {
    const d = await polizasRepository(db).datos(numSecuPol);
    if (!d) throw new Error(`Póliza ${numSecuPol} inexistente`);
    const p = d.persona;
    const dom = d.domicilio;
    return pdfPoliza({
      numSecuPol: d.numSecuPol,
      emitidaEl: d.emitida,
      vigenciaDesde: d.desde,
      vigenciaHasta: d.hasta,
      asegurado: { nombre: nombreDe(p), documento: `${p.typeDoc} ${p.numberDoc}`, email: p.email, telefono: `(${p.areaCod}) ${p.phoneNumber}` },
      ubicacion: [
        [calle(dom), [dom.floor && `Piso ${dom.floor}`, dom.depto && `Depto. ${dom.depto}`].filter(Boolean).join(' ')].filter(Boolean).join(', '),
        `${dom.location}${dom.department && dom.department !== dom.location ? `, ${dom.department}` : ''}`,
        `${dom.province} (CP ${dom.zipCode})`,
      ],
      provincia: dom.province,
      plan: d.plan,
      impuestos: desgloseImpuestos(tariff, d.plan.prima, dom.idProvince),
      medioPago: d.medio,
      fin,
    });
  }

  /** Quote document of a stored quote. */
  async function renderCotizacion(cot: Cotizacion, creada: string, enlace?: string): Promise<Buffer> {
    const loc = lists.localidadesPorId.get(cot.codLocalidad);
    const { catalogos } = opts;
    return pdfCotizacion({
      fecha: creada,
      validaHasta: sumarDias(cot.initPolicyDate, -1) < creada ? creada : sumarDias(cot.initPolicyDate, -1),
      vivienda: `${descripcion(catalogos.tipoVivienda, cot.tipoVivienda)}, ${cot.metros} m² — ${descripcion(catalogos.usoVivienda, cot.usoVivienda)} — ${descripcion(catalogos.titularidad, cot.titularidad)}`,
      ubicacion: loc ? `${loc.nombre}, ${loc.provincia}` : cot.codLocalidad,
      inicio: cot.initPolicyDate,
      planes: cot.planes,
      enlace,
    });
  }

  const api = {
    /**
     * The policy PDF, made on first use and stored: every later call returns the same bytes (two concurrent first
     * calls store one of them and both return that one). A policy that ended (ANULADA by withdrawal, BAJA) is rendered
     * when served, marked with its state and dates on every page (issue 23: the same link never serves it unmarked).
     * @throws ApiError 404 when the policy does not exist
     */
    async pdfPoliza(numSecuPol: string): Promise<Buffer> {
      const polizas = polizasRepository(db);
      const row = await polizas.documento(numSecuPol);
      if (!row) throw notFound(e('polizaNoDisponible'));
      if (row.estado === 'ANULADA' || row.estado === 'BAJA') {
        const desde = row.desde ?? hoyArgentina();
        return renderPoliza(numSecuPol, { estado: row.estado, desde, pedidoEl: row.pedido ?? desde });
      }
      if (row.pdf) return Buffer.from(row.pdf);
      const pdf = await renderPoliza(numSecuPol);
      await polizas.guardarPdf(numSecuPol, pdf);
      return Buffer.from((await polizas.documento(numSecuPol))?.pdf as Uint8Array);
    },

    /** @returns the quote PDF of `cot` (made on request; quoted today in Argentina unless `creada` is given) */
    pdfCotizacion: (cot: Cotizacion, enlace?: string) => renderCotizacion(cot, hoyArgentina(), enlace),

    /** Signed download token of a policy (the thank-you page's link). */
    tokenPoliza: (numSecuPol: string) => tokens.firmar('poliza', numSecuPol, VIGENCIA_ENLACE_POLIZA_MS),

    /** Renders an outbox attachment by reference (the outbox worker calls it at send time). */
    async adjunto(ref: AdjuntoRef): Promise<Adjunto> {
      if (ref.tipo === 'poliza') {
        return { filename: texto('servidor.postventa.correos.poliza.archivo', { numSecuPol: ref.numSecuPol }), content: await api.pdfPoliza(ref.numSecuPol), contentType: 'application/pdf' };
      }
      if (ref.tipo === 'condiciones') {
        const d = await polizasRepository(db).datos(ref.numSecuPol);
        if (!d) throw new Error(`Póliza ${ref.numSecuPol} inexistente`);
        const content = await pdfCondiciones(tariff, { fecha: d.emitida, planes: [d.plan], numSecuPol: ref.numSecuPol });
        return { filename: texto('servidor.postventa.correos.poliza.archivoCondiciones', { numSecuPol: ref.numSecuPol }), content, contentType: 'application/pdf' };
      }
      const c = await cotizacionesRepository(db).get(ref.refId);
      if (!c) throw new Error(`Cotización ${ref.refId} inexistente`);
      return { filename: texto('servidor.postventa.correos.cotizacion.archivo'), content: await renderCotizacion(c, hoyArgentina(), ref.enlace), contentType: 'application/pdf' };
    },

    /**
     * Queues the policy e-mail in transaction `tx` — call it where the policy is recorded. HTML and text bodies with
     * the links the policy document refers to (issue 23): download the policy (signed, 30 days), the botón de
     * arrepentimiento, the botón de baja and the insured's service page; the policy and its conditions attached.
     */
    async encolarCorreoPoliza(tx: Queryable, numSecuPol: string): Promise<void> {
      const d = await polizasRepository(tx).datos(numSecuPol);
      if (!d) return;
      const k = 'servidor.postventa.correos.poliza';
      const vars = { numSecuPol, plan: d.plan.nombre, desde: fecha(d.desde), hasta: fecha(d.hasta), nombre: d.persona.firstName };
      const url = opts.publicUrl;
      const body = cuerpoCorreo(texto(`${k}.saludo`, vars), [
        ...texto(`${k}.parrafos`, vars).split('\n\n'),
        { enlace: `${url}/api/documentos/poliza/${api.tokenPoliza(numSecuPol)}`, texto: texto(`${k}.enlaces.descargar`) },
        texto('legal.siniestro'),
        { enlace: `${url}${RUTAS_LEGALES.atencion}`, texto: texto(`${k}.enlaces.atencion`) },
        texto('legal.arrepentimiento'),
        { enlace: `${url}${RUTAS_POSTVENTA.arrepentimiento}`, texto: texto('legal.botones.arrepentimiento') },
        texto('legal.baja'),
        { enlace: `${url}${RUTAS_POSTVENTA.baja}`, texto: texto('legal.botones.baja') },
      ]);
      await correosRepository(tx).encolar({
        tipo: 'POLIZA', para: d.persona.email, asunto: texto(`${k}.asunto`, vars), ...body, adjuntos: [{ tipo: 'poliza', numSecuPol }, { tipo: 'condiciones', numSecuPol }],
      });
    },

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
        const k = 'servidor.postventa.correos.cotizacion';
        const body = cuerpoCorreo(texto(`${k}.saludo`), [
          ...texto(`${k}.parrafos`).split('\n\n'),
          { lista: cot.planes.map((p) => texto(`${k}.plan`, { plan: p.nombre, cuota: pesos(p.premioCuota), premio: pesos(p.premio), detalle: detalleCuotas(p, pesos) })) },
          { enlace: `${opts.publicUrl}/api${RUTA_CONDICIONES_GENERALES}`, texto: texto(`${k}.condiciones`) },
          texto(`${k}.retomar`, { vence: fecha(row.vence) }),
          { enlace },
        ]);
        await correosRepository(tx).encolar({ tipo: 'COTIZACION', para, asunto: texto(`${k}.asunto`), ...body, adjuntos: [{ tipo: 'cotizacion', refId: cot.refId, enlace }] });
        return { email: para };
      });
    },

    /**
     * Opens a resume link for session `sesion`: a NEW quote of that session with the same inputs, re-priced with
     * today's tariff (a start date no longer allowed moves to tomorrow). It is a quote like any other: it counts on
     * the client address's hourly quote limit (`cupo`, counted by the statement that stores it), and ONE link re-quotes
     * at most `porEnlace.max` times an hour (`porEnlace.consumir(clave)`, counted before re-pricing).
     * @throws ApiError 404 with a Spanish message for a tampered, unknown or expired link; 429 past either limit
     */
    async retomar(token: string, sesion: string, ip: string | null, limites: { cupo: Cupo; porEnlace: (clave: string) => Promise<void> }) {
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
      const tarifaCambiada = cot.tarifaVersion !== tariff.version || JSON.stringify(planes.map((p) => p.premio)) !== JSON.stringify(cot.planes.map((p) => p.premio));
      // a date today's schema keyword no longer allows (x-diasDesdeHoy) moves to the first date it allows
      const datos = { ...cot.datos };
      let fechaMovida = false;
      for (const v of opts.revalidarFechas(datos)) {
        const primera = v.keyword === 'x-diasDesdeHoy' ? rangoDeFechas(v.schema).min : undefined;
        if (primera && /^\/[^/]+$/.test(v.field)) {
          datos[v.field.slice(1)] = primera;
          fechaMovida = true;
        }
      }
      const initPolicyDate = typeof datos.initPolicyDate === 'string' ? datos.initPolicyDate : cot.initPolicyDate;
      const refId = randomUUID();
      const guardada = await repo.insertConCupo({ ...cot, datos, refId, sesion, ip, tarifaVersion: tariff.version, initPolicyDate, inspection, planes }, limites.cupo);
      if (!guardada) throw limiteCotizacionesExcedido();
      return {
        respuestas: env.respuestas,
        versionFlujo: env.version,
        tarifaCambiada,
        fechaMovida,
        cotizacion: { refId, tarifaVersion: tariff.version, initPolicyDate, inspection, zona: { codigo: cot.zona, descripcion: tariff.zonas[cot.zona].descripcion }, planes },
      };
    },

    /**
     * Records a withdrawal or cancellation when number, DNI and e-mail match one policy, changes its state and
     * queues the confirmation to the policy's e-mail of record (with the tracking code, how to look it up and how to
     * object if the holder did not ask for it). Asking again returns the same tracking code (no second e-mail).
     * A withdrawal is accepted until {@link ultimoDiaArrepentimiento} even after a baja: the policy becomes ANULADA.
     * @throws ApiError 404 — the same answer for an unknown policy and for data that do not match (no enumeration);
     *   409 when the 10 days passed (withdrawal) or the policy already ended (ANULADA; or BAJA, for a baja)
     */
    async tramite(tipo: TipoTramite, datos: { numSecuPol: string; dni: string; email: string }): Promise<Tramite> {
      let nuevo = false;
      const t = await db.transaction(async (tx): Promise<Tramite> => {
        const polizas = polizasRepository(tx);
        const tramites = tramitesRepository(tx);
        const p = await polizas.bloquearParaTramite(datos.numSecuPol.trim().toUpperCase(), datos.dni, datos.email.trim());
        if (!p) throw notFound(e('noEncontrada'));
        const hoy = hoyArgentina();
        const hasta = ultimoDiaArrepentimiento(p.emitida);
        const previo = await tramites.previo(p.numSecuPol, tipo);
        if (previo) return respuesta(previo.codigo, tipo, p.numSecuPol, p.estado, previo.fecha, hasta, hoy);
        if (p.estado === 'ANULADA') throw new ApiError(409, 'CONFLICTO', e('yaAnulada'));
        if (tipo === 'ARREPENTIMIENTO' && hasta < hoy) throw new ApiError(409, 'CONFLICTO', e(p.estado === 'BAJA' ? 'yaDadaDeBaja' : 'plazoVencido'));
        const estado = tipo === 'ARREPENTIMIENTO' ? 'ANULADA' : 'BAJA';
        const fechaEfectiva = tipo === 'ARREPENTIMIENTO' ? p.desde : hoy;
        const codigo = codigoSeguimiento(tipo);
        await tramites.insertar(codigo, tipo, p.numSecuPol, fechaEfectiva);
        await polizas.cambiarEstado(p.numSecuPol, estado, fechaEfectiva);
        const r = respuesta(codigo, tipo, p.numSecuPol, estado, fechaEfectiva, hasta, hoy);
        const k = 'servidor.postventa.correos.tramite';
        const vars = { codigo, numSecuPol: p.numSecuPol, fecha: fecha(hoy), nombre: p.persona.firstName };
        const enlace = `${opts.publicUrl}${RUTA_CONSULTA_TRAMITE}`;
        const body = cuerpoCorreo(texto(`${k}.saludo`, vars), [
          texto(`${k}.${tipo === 'ARREPENTIMIENTO' ? 'arrepentimiento' : 'baja'}`, vars),
          ...(tipo === 'BAJA' ? [textoBajaRige(fechaEfectiva)] : []),
          ...(r.arrepentimientoHasta ? [texto('legal.bajaArrepentimientoHasta', { hasta: fecha(r.arrepentimientoHasta) })] : []),
          texto(`${k}.codigo`, vars),
          texto(`${k}.consultar`, vars),
          { enlace },
          texto(`${k}.objetar`, vars),
        ]);
        // to the policy's e-mail of record (the request's e-mail only had to match it)
        await correosRepository(tx).encolar({
          tipo, para: p.persona.email, asunto: texto(`${k}.${tipo === 'ARREPENTIMIENTO' ? 'asuntoArrepentimiento' : 'asuntoBaja'}`, vars), ...body, adjuntos: [],
        });
        nuevo = true;
        return r;
      });
      if (nuevo) opts.alRegistrarTramite?.(tipo);
      return t;
    },

    /**
     * The tracking-code lookup: the request `codigo` when `dniOEmail` is the holder's DNI (digits; dots and spaces
     * ignored) or e-mail (case-insensitive).
     * @throws ApiError 404 — the same answer for an unknown code and for a DNI/e-mail that does not match
     */
    async consulta(codigo: string, dniOEmail: string): Promise<ConsultaTramite> {
      const dato = dniOEmail.trim();
      const esEmail = dato.includes('@');
      const t = await tramitesRepository(db).consultar(codigo.trim().toUpperCase(), esEmail ? dato : dato.replace(/[\s.]/g, ''), esEmail);
      if (!t) throw notFound(e('tramiteNoEncontrado'));
      return { ...respuesta(t.codigo, t.tipo, t.numSecuPol, t.estado, t.fechaEfectiva, ultimoDiaArrepentimiento(t.emitida), hoyArgentina()), fecha: t.fecha };
    },
  };
  return api;
}
export type Postventa = ReturnType<typeof createPostventa>;
