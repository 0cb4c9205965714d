/**
 * After the sale (issue 8): the policy document (made once and kept), the policy and quote e-mails (queued in the
 * outbox), resumable quotes behind signed links, and the withdrawal (botón de arrepentimiento: CCyC art. 1110,
 * Ley 24.240 art. 34 — within 10 calendar days of the purchase, Argentina time; the policy becomes ANULADA) and
 * cancellation (botón de baja: Ley 24.240 art. 10 ter, Res. SSN 360/2024 mod. 435/2025 — BAJA from the day of the
 * request, or from the start of the vigencia if it had not started) requests, answered with a tracking code.
 * Texts: src/i18n/es.json › servidor.postventa.*, legal.*.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db, Queryable } from '../../db/index.ts';
import { cotizacionesRepository, type Cotizacion } from '../../db/repositories/cotizaciones.ts';
import { correosRepository, type AdjuntoRef } from '../../db/repositories/correos.ts';
import type { Domicilio } from '../../db/repositories/domicilios.ts';
import type { Persona } from '../../db/repositories/personas.ts';
import { ApiError, notFound } from '../../errors.ts';
import type { Adjunto } from '../correo/outbox.ts';
import { cuerpoCorreo } from '../correo/plantilla.ts';
import { pdfCotizacion } from '../documentos/cotizacion.ts';
import { fecha, pesos } from '../documentos/formato.ts';
import { pdfPoliza, type DatosPoliza } from '../documentos/poliza.ts';
import { pdfCondiciones } from '../documentos/condiciones.ts';
import { RUTAS_POSTVENTA } from '../../../../src/screens/postventa/rutas.ts';
import { RUTA_CONDICIONES_GENERALES, RUTAS_LEGALES } from '../../../../src/screens/legal/rutas.ts';
import { detalleCuotas } from '../../../../src/i18n/cuotas.ts';
import { TIPOS_TITULARIDAD, TIPOS_VIVIENDA, USOS_VIVIENDA } from '../lists/catalogos.ts';
import type { Lists } from '../lists/index.ts';
import { desgloseImpuestos, rateAll, type Plan, type RatingInput } from '../rating/engine.ts';
import type { Tariff } from '../rating/tariff.ts';
import { hoyArgentina, sumarDias } from '../validation/fechas.ts';
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
const PARAMETRO_RETOMAR = FLUJO.resume?.param ?? 'retomar';
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

export type TipoTramite = 'ARREPENTIMIENTO' | 'BAJA';
export interface Tramite {
  codigo: string;
  tipo: TipoTramite;
  numSecuPol: string;
  estado: 'ANULADA' | 'BAJA';
  /** YYYY-MM-DD. */
  fechaEfectiva: string;
}

export interface PostventaOptions {
  db: Db;
  tariff: Tariff;
  lists: Lists;
  tokens: Tokens;
  /** Public base URL of the site for links in e-mails (env PUBLIC_URL), without trailing slash. */
  publicUrl: string;
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

/** Rating input of a stored quote. */
function entradaDe(c: Cotizacion): RatingInput {
  return { tipoVivienda: c.tipoVivienda, usoVivienda: c.usoVivienda, titularidad: c.titularidad, barrioCerrado: c.barrioCerrado, metros: c.metros, zona: c.zona, provinciaId: c.idProvincia } as RatingInput;
}

/** The after-sale service over the database. */
export function createPostventa(opts: PostventaOptions) {
  const { db, tariff, lists, tokens } = opts;

  async function datosPoliza(q: Queryable, numSecuPol: string) {
    const rows = await q.query<{ numSecuPol: string; emitida: string; desde: string; hasta: string; persona: Persona; domicilio: Domicilio; plan: Plan; medio: string }>(
      `SELECT p.num_secu_pol AS "numSecuPol", to_char(p.emitida_en AT TIME ZONE 'America/Argentina/Buenos_Aires', 'YYYY-MM-DD') AS emitida,
         to_char(p.vigencia_desde, 'YYYY-MM-DD') AS desde, to_char(p.vigencia_hasta, 'YYYY-MM-DD') AS hasta, s.persona, s.domicilio, s.plan, m.descripcion AS medio
       FROM polizas p JOIN solicitudes s ON s.numero_solicitud = p.numero_solicitud JOIN medios_pago m ON m.id = s.medio_pago_id
       WHERE p.num_secu_pol = $1`,
      [numSecuPol],
    );
    return rows[0] ?? null;
  }

  /** Renders the policy document from the stored application (payment method masked; `fin`: the ended state's mark). */
  async function renderPoliza(numSecuPol: string, fin?: DatosPoliza['fin']): Promise<Buffer> {
    const d = await datosPoliza(db, numSecuPol);
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
    const desc = (items: readonly { codigo: string; descripcion: string }[], c: string) => items.find((i) => i.codigo === c)?.descripcion ?? c;
    return pdfCotizacion({
      fecha: creada,
      validaHasta: sumarDias(cot.initPolicyDate, -1) < creada ? creada : sumarDias(cot.initPolicyDate, -1),
      vivienda: `${desc(TIPOS_VIVIENDA, cot.tipoVivienda)}, ${cot.metros} m² — ${desc(USOS_VIVIENDA, cot.usoVivienda)} — ${desc(TIPOS_TITULARIDAD, cot.titularidad)}`,
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
      const leer = async () => (await db.query<{ pdf: Uint8Array | null; estado: string; desde: string | null; pedido: string | null }>(
        `SELECT p.pdf, p.estado, to_char(p.estado_desde, 'YYYY-MM-DD') AS desde,
           (SELECT to_char(min(t.creado_en) AT TIME ZONE 'America/Argentina/Buenos_Aires', 'YYYY-MM-DD') FROM tramites t WHERE t.num_secu_pol = p.num_secu_pol) AS pedido
         FROM polizas p WHERE p.num_secu_pol = $1`,
        [numSecuPol],
      ))[0];
      const row = await leer();
      if (!row) throw notFound(e('polizaNoDisponible'));
      if (row.estado === 'ANULADA' || row.estado === 'BAJA') {
        const desde = row.desde ?? hoyArgentina();
        return renderPoliza(numSecuPol, { estado: row.estado, desde, pedidoEl: row.pedido ?? desde });
      }
      if (row.pdf) return Buffer.from(row.pdf);
      const pdf = await renderPoliza(numSecuPol);
      await db.query('UPDATE polizas SET pdf = $2 WHERE num_secu_pol = $1 AND pdf IS NULL', [numSecuPol, pdf]);
      return Buffer.from((await leer()).pdf as Uint8Array);
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
        const d = await datosPoliza(db, ref.numSecuPol);
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
      const d = await datosPoliza(tx, numSecuPol);
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
     */
    async enviarCotizacion(cot: Cotizacion, respuestas: unknown, versionFlujo: number): Promise<{ email: string }> {
      return db.transaction(async (tx) => {
        const [row] = await tx.query<{ id: string; vence: string }>(
          `INSERT INTO cotizaciones_enviadas (ref_id, respuestas, version_flujo, vence_en) VALUES ($1, $2, $3, now() + make_interval(secs => $4::float8 / 1000))
           RETURNING id, to_char(vence_en AT TIME ZONE 'America/Argentina/Buenos_Aires', 'YYYY-MM-DD') AS vence`,
          [cot.refId, JSON.stringify(respuestas), versionFlujo, VIGENCIA_ENLACE_COTIZACION_MS],
        );
        const enlace = `${opts.publicUrl}${RUTA_RETOMAR}?${PARAMETRO_RETOMAR}=${tokens.firmar('cotizacion', row.id, VIGENCIA_ENLACE_COTIZACION_MS)}`;
        const k = 'servidor.postventa.correos.cotizacion';
        const body = cuerpoCorreo(texto(`${k}.saludo`), [
          ...texto(`${k}.parrafos`).split('\n\n'),
          { lista: cot.planes.map((p) => texto(`${k}.plan`, { plan: p.nombre, cuota: pesos(p.premioCuota), premio: pesos(p.premio), detalle: detalleCuotas(p, pesos) })) },
          { enlace: `${opts.publicUrl}/api${RUTA_CONDICIONES_GENERALES}`, texto: texto(`${k}.condiciones`) },
          texto(`${k}.retomar`, { vence: fecha(row.vence) }),
          { enlace },
        ]);
        await correosRepository(tx).encolar({ tipo: 'COTIZACION', para: cot.email, asunto: texto(`${k}.asunto`), ...body, adjuntos: [{ tipo: 'cotizacion', refId: cot.refId, enlace }] });
        return { email: cot.email };
      });
    },

    /**
     * Opens a resume link for session `sesion`: a NEW quote of that session with the same inputs, re-priced with
     * today's tariff (a start date no longer allowed moves to tomorrow).
     * @throws ApiError 404 with a Spanish message for a tampered, unknown or expired link
     */
    async retomar(token: string, sesion: string, ip: string | null) {
      const v = tokens.verificar('cotizacion', token);
      if (!v.ok) throw notFound(e(v.motivo === 'VENCIDO' ? 'enlaceVencido' : 'enlaceInvalido'));
      const [env] = await db.query<{ refId: string; respuestas: unknown; version: number; vigente: boolean }>(
        'SELECT ref_id AS "refId", respuestas, version_flujo AS version, vence_en > now() AS vigente FROM cotizaciones_enviadas WHERE id = $1',
        [v.id],
      );
      if (!env) throw notFound(e('enlaceInvalido'));
      if (!env.vigente) throw notFound(e('enlaceVencido'));
      const repo = cotizacionesRepository(db);
      const cot = await repo.get(env.refId);
      if (!cot) throw notFound(e('enlaceVencido'));
      const { planes, inspection } = rateAll(tariff, entradaDe(cot));
      const tarifaCambiada = cot.tarifaVersion !== tariff.version || JSON.stringify(planes.map((p) => p.premio)) !== JSON.stringify(cot.planes.map((p) => p.premio));
      const hoy = hoyArgentina();
      const fechaMovida = cot.initPolicyDate <= hoy || cot.initPolicyDate > sumarDias(hoy, 30);
      const initPolicyDate = fechaMovida ? sumarDias(hoy, 1) : cot.initPolicyDate;
      const refId = randomUUID();
      await repo.insert({ ...cot, refId, sesion, ip, tarifaVersion: tariff.version, initPolicyDate, inspection, planes });
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
     * queues the confirmation e-mail. Asking again returns the same tracking code.
     * @throws ApiError 404 — the same answer for an unknown policy and for data that do not match (no enumeration);
     *   409 when the 10 days passed (withdrawal) or the policy already ended the other way
     */
    async tramite(tipo: TipoTramite, datos: { numSecuPol: string; dni: string; email: string }): Promise<Tramite> {
      return db.transaction(async (tx) => {
        const [p] = await tx.query<{ numSecuPol: string; estado: string; emitida: string; desde: string; persona: Persona }>(
          `SELECT p.num_secu_pol AS "numSecuPol", p.estado, to_char(p.emitida_en AT TIME ZONE 'America/Argentina/Buenos_Aires', 'YYYY-MM-DD') AS emitida,
             to_char(p.vigencia_desde, 'YYYY-MM-DD') AS desde, s.persona
           FROM polizas p JOIN solicitudes s ON s.numero_solicitud = p.numero_solicitud
           WHERE p.num_secu_pol = $1 AND s.persona->>'numberDoc' = $2 AND lower(s.persona->>'email') = lower($3) FOR UPDATE OF p`,
          [datos.numSecuPol.trim().toUpperCase(), datos.dni, datos.email.trim()],
        );
        if (!p) throw notFound(e('noEncontrada'));
        const [previo] = await tx.query<{ codigo: string; fecha: string }>(
          `SELECT codigo, to_char(fecha_efectiva, 'YYYY-MM-DD') AS fecha FROM tramites WHERE num_secu_pol = $1 AND tipo = $2`,
          [p.numSecuPol, tipo],
        );
        const estado = tipo === 'ARREPENTIMIENTO' ? 'ANULADA' : 'BAJA';
        if (previo) return { codigo: previo.codigo, tipo, numSecuPol: p.numSecuPol, estado, fechaEfectiva: previo.fecha };
        if (p.estado === 'BAJA') throw new ApiError(409, 'CONFLICTO', e('yaDadaDeBaja'));
        if (p.estado === 'ANULADA') throw new ApiError(409, 'CONFLICTO', e('yaAnulada'));
        const hoy = hoyArgentina();
        if (tipo === 'ARREPENTIMIENTO' && sumarDias(p.emitida, DIAS_ARREPENTIMIENTO) < hoy) throw new ApiError(409, 'CONFLICTO', e('plazoVencido'));
        const fechaEfectiva = tipo === 'ARREPENTIMIENTO' ? p.desde : p.desde > hoy ? p.desde : hoy;
        const codigo = codigoSeguimiento(tipo);
        await tx.query('INSERT INTO tramites (codigo, tipo, num_secu_pol, fecha_efectiva) VALUES ($1, $2, $3, $4)', [codigo, tipo, p.numSecuPol, fechaEfectiva]);
        await tx.query('UPDATE polizas SET estado = $2, estado_desde = $3 WHERE num_secu_pol = $1', [p.numSecuPol, estado, fechaEfectiva]);
        const k = 'servidor.postventa.correos.tramite';
        const vars = { codigo, numSecuPol: p.numSecuPol, fecha: fecha(hoy), efectiva: fecha(fechaEfectiva), nombre: p.persona.firstName };
        const body = cuerpoCorreo(texto(`${k}.saludo`, vars), [texto(`${k}.${tipo === 'ARREPENTIMIENTO' ? 'arrepentimiento' : 'baja'}`, vars), texto(`${k}.codigo`, vars)]);
        await correosRepository(tx).encolar({
          tipo, para: p.persona.email, asunto: texto(`${k}.${tipo === 'ARREPENTIMIENTO' ? 'asuntoArrepentimiento' : 'asuntoBaja'}`, vars), ...body, adjuntos: [],
        });
        return { codigo, tipo, numSecuPol: p.numSecuPol, estado, fechaEfectiva };
      });
    },
  };
  return api;
}
export type Postventa = ReturnType<typeof createPostventa>;
