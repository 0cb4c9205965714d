/**
 * The quote document: what was quoted, the three plans (monthly installment, annual premio, included
 * coverages with sumas aseguradas), the date and how long it is valid, and — when e-mailed — the resume link.
 * Texts: src/i18n/es.json › servidor.postventa.pdf.*.
 */
import type { Plan } from '../rating/engine.ts';
import { texto } from '../postventa/textos.ts';
import { detalleCuotas } from '../../../../src/core/cuotas.ts';
import { pesos, pesosEnteros } from '../../../../src/core/money.ts';
import { fecha } from './formato.ts';
import { COLOR, encabezado, pares, renderizar, seccion, type Contenido } from './pdf.ts';

export interface DatosCotizacion {
  /** YYYY-MM-DD: quoted on, valid until (inclusive). */
  fecha: string;
  validaHasta: string;
  vivienda: string;
  ubicacion: string;
  inicio: string;
  planes: Plan[];
  /** Resume link (only in the e-mailed copy). */
  enlace?: string;
}

const T = (k: string, v?: Record<string, string | number>) => texto(`servidor.postventa.pdf.${k}`, v);

/** @returns the quote PDF bytes */
export async function pdfCotizacion(d: DatosCotizacion): Promise<Buffer> {
  const plan = (p: Plan): Contenido => ({
    width: '*',
    table: {
      widths: ['*'],
      body: [
        [
          {
            margin: [8, 8, 8, 8],
            stack: [
              { text: p.nombre, bold: true, fontSize: 12, color: COLOR.marca },
              p.recomendado
                ? { text: T('recomendado').toUpperCase(), fontSize: 7.5, bold: true, color: COLOR.acento, margin: [0, 2, 0, 0] }
                : { text: ' ', fontSize: 7.5 },
              {
                text: [
                  { text: pesos(p.premioCuota), bold: true, fontSize: 14 },
                  { text: ` ${T('porMes')}`, color: COLOR.gris },
                ],
                margin: [0, 6, 0, 0],
              },
              { text: T('premioAnual', { monto: pesos(p.premio), detalle: detalleCuotas(p) }), style: 'chico', margin: [0, 0, 0, 6] },
              { text: T('incluye'), bold: true, fontSize: 8.5, margin: [0, 2, 0, 2] },
              ...[...p.coberturas.primary, ...p.coberturas.secondary, ...p.coberturas.urgencyAssistance].map((c) => ({
                columns: [
                  { text: c.descCobertura, fontSize: 8, width: '*' },
                  { text: pesosEnteros(c.sumaAsegurada), fontSize: 8, width: 'auto', color: COLOR.gris },
                ],
                margin: [0, 1, 0, 1],
              })),
            ],
          },
        ],
      ],
    },
    layout: {
      hLineColor: () => (p.recomendado ? COLOR.acento : COLOR.linea),
      vLineColor: () => (p.recomendado ? COLOR.acento : COLOR.linea),
    },
  });
  const content: Contenido[] = [
    encabezado(T('cotizacion'), T('producto'), [{ text: fecha(d.fecha), fontSize: 12, bold: true }]),
    { text: T('cotizacionValidez', { fecha: fecha(d.fecha), hasta: fecha(d.validaHasta) }), margin: [0, 10, 0, 0], bold: true },
    ...seccion(T('datosCotizados')),
    pares([
      [T('vivienda'), d.vivienda],
      [T('ubicacion'), d.ubicacion],
      [T('inicio'), fecha(d.inicio)],
    ]),
    ...seccion(T('planes')),
    { columns: d.planes.map(plan), columnGap: 8 },
    ...(d.enlace ? [{ text: T('retomar', { enlace: d.enlace }), margin: [0, 14, 0, 0], link: d.enlace, color: COLOR.marca }] : []),
    { text: texto('legal.referencia'), style: 'chico', margin: [0, 14, 0, 0] },
  ];
  return renderizar(content, { title: T('cotizacion'), subject: T('producto') });
}
