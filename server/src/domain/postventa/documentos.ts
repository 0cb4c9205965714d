/**
 * The after-sale documents: the policy PDF (made once and kept; marked when the policy ended), the quote PDF, the
 * policy's conditions, the signed download link of a policy, and the outbox's attachments rendered by reference at
 * send time. The PDF layouts are domain/documentos/*.
 */
import type { Db } from '../../db/index.ts';
import type { Cotizacion } from '../../db/repositories/cotizaciones.ts';
import { cotizacionesRepository } from '../../db/repositories/cotizaciones.ts';
import type { AdjuntoRef } from '../../db/repositories/correos.ts';
import type { Domicilio } from '../../db/repositories/domicilios.ts';
import type { Persona } from '../../db/repositories/personas.ts';
import { polizasRepository } from '../../db/repositories/polizas.ts';
import { notFound } from '../../errors.ts';
import type { Adjunto } from '../correo/outbox.ts';
import { pdfCondiciones } from '../documentos/condiciones.ts';
import { pdfCotizacion } from '../documentos/cotizacion.ts';
import { pdfPoliza, type DatosPoliza } from '../documentos/poliza.ts';
import { descripcion, type Catalogos } from '../listas/catalogos.ts';
import type { Lists } from '../listas/index.ts';
import { desgloseImpuestos } from '../rating/engine.ts';
import type { Tariff } from '../rating/tariff.ts';
import { hoyArgentina, sumarDias } from '../validation/fechas.ts';
import { texto } from './textos.ts';
import type { Tokens } from './tokens.ts';

/** Validity of a policy download link, ms. */
export const VIGENCIA_ENLACE_POLIZA_MS = 30 * 24 * 3_600_000;

export interface DocumentosOptions {
  db: Db;
  tariff: Tariff;
  lists: Lists;
  /** The flow's catalogues (descriptions of the answers in the quote PDF). */
  catalogos: Catalogos;
  tokens: Tokens;
}

const nombreDe = (p: Persona) => `${p.firstName} ${p.lastName}`;
const calle = (d: Domicilio) => [d.addressName, d.noAddressNumber ? 'S/N' : d.numberAddress].filter(Boolean).join(' ');
/** The insured address's lines: street and unit; locality and department; province and postcode. */
const ubicacion = (dom: Domicilio) => [
  [calle(dom), [dom.floor && `Piso ${dom.floor}`, dom.depto && `Depto. ${dom.depto}`].filter(Boolean).join(' ')].filter(Boolean).join(', '),
  `${dom.location}${dom.department && dom.department !== dom.location ? `, ${dom.department}` : ''}`,
  `${dom.province} (CP ${dom.zipCode})`,
];

/**
 * Renders the policy document from the stored application (payment method masked; `fin`: the ended state's mark).
 * @throws Error when the policy does not exist (callers check first)
 */
async function renderPoliza({ db, tariff }: DocumentosOptions, numSecuPol: string, fin?: DatosPoliza['fin']): Promise<Buffer> {
  const d = await polizasRepository(db).datos(numSecuPol);
  if (!d) throw new Error(`Póliza ${numSecuPol} inexistente`);
  const p = d.persona;
  const dom = d.domicilio;
  return pdfPoliza({
    numSecuPol: d.numSecuPol,
    emitidaEl: d.emitida,
    vigenciaDesde: d.desde,
    vigenciaHasta: d.hasta,
    asegurado: {
      nombre: nombreDe(p),
      documento: `${p.typeDoc} ${p.numberDoc}`,
      email: p.email,
      telefono: `(${p.areaCod}) ${p.phoneNumber}`,
    },
    ubicacion: ubicacion(dom),
    provincia: dom.province,
    plan: d.plan,
    impuestos: desgloseImpuestos(tariff, d.plan.prima, dom.idProvince),
    medioPago: d.medio,
    fin,
  });
}

/** Quote document of a stored quote, quoted on `creada` (YYYY-MM-DD), with the resume link when there is one. */
function renderCotizacion({ lists, catalogos }: DocumentosOptions, cot: Cotizacion, creada: string, enlace?: string): Promise<Buffer> {
  const loc = lists.localidadesPorId.get(cot.codLocalidad);
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

/** The after-sale documents over the database. */
export function createDocumentos(opts: DocumentosOptions) {
  const { db, tariff, tokens } = opts;
  const documentos = {
    /**
     * The policy PDF, made on first use and stored: every later call returns the same bytes (two concurrent first
     * calls store one of them and both return that one). A policy that ended (ANULADA by withdrawal, BAJA) is rendered
     * when served, marked with its state and dates on every page, so the same link never serves it unmarked.
     * @throws ApiError 404 when the policy does not exist
     */
    async pdfPoliza(numSecuPol: string): Promise<Buffer> {
      const polizas = polizasRepository(db);
      const row = await polizas.documento(numSecuPol);
      if (!row) throw notFound(texto('servidor.postventa.polizaNoDisponible'));
      if (row.estado === 'ANULADA' || row.estado === 'BAJA') {
        const desde = row.desde ?? hoyArgentina();
        return renderPoliza(opts, numSecuPol, { estado: row.estado, desde, pedidoEl: row.pedido ?? desde });
      }
      if (row.pdf) return Buffer.from(row.pdf);
      const pdf = await renderPoliza(opts, numSecuPol);
      await polizas.guardarPdf(numSecuPol, pdf);
      return Buffer.from((await polizas.documento(numSecuPol))?.pdf as Uint8Array);
    },

    /** @returns the quote PDF of `cot` (made on request, quoted today in Argentina) */
    pdfCotizacion: (cot: Cotizacion, enlace?: string) => renderCotizacion(opts, cot, hoyArgentina(), enlace),

    /** Signed download token of a policy (the thank-you page's link), valid {@link VIGENCIA_ENLACE_POLIZA_MS}. */
    tokenPoliza: (numSecuPol: string) => tokens.firmar('poliza', numSecuPol, VIGENCIA_ENLACE_POLIZA_MS),

    /**
     * Renders an outbox attachment by reference (the outbox worker calls it at send time).
     * @throws Error when the policy or quote it names does not exist
     */
    async adjunto(ref: AdjuntoRef): Promise<Adjunto> {
      if (ref.tipo === 'poliza') {
        return {
          filename: texto('servidor.postventa.correos.poliza.archivo', { numSecuPol: ref.numSecuPol }),
          content: await documentos.pdfPoliza(ref.numSecuPol),
          contentType: 'application/pdf',
        };
      }
      if (ref.tipo === 'condiciones') {
        const d = await polizasRepository(db).datos(ref.numSecuPol);
        if (!d) throw new Error(`Póliza ${ref.numSecuPol} inexistente`);
        const content = await pdfCondiciones(tariff, { fecha: d.emitida, planes: [d.plan], numSecuPol: ref.numSecuPol });
        return {
          filename: texto('servidor.postventa.correos.poliza.archivoCondiciones', { numSecuPol: ref.numSecuPol }),
          content,
          contentType: 'application/pdf',
        };
      }
      const c = await cotizacionesRepository(db).get(ref.refId);
      if (!c) throw new Error(`Cotización ${ref.refId} inexistente`);
      return {
        filename: texto('servidor.postventa.correos.cotizacion.archivo'),
        content: await renderCotizacion(opts, c, hoyArgentina(), ref.enlace),
        contentType: 'application/pdf',
      };
    },
  };
  return documentos;
}
