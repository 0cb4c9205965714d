/**
 * The conditions document: Condiciones Generales (the tariff's general clauses and general exclusions)
 * and Condiciones Particulares (per coverage: what it covers, its deductible, its exclusions, and its suma asegurada in
 * each plan shown), all generated from the tariff (server/tariffs › condiciones, coberturas.*.exclusiones/franquicia —
 * reference texts, the document says so). Three uses: the general document (no quote: sums as the tariff states them,
 * e.g. "80 % del valor del edificio"), a quote's document (the quoted plans' sums in ARS) and a policy's (its plan
 * with the chosen optionals). Texts: src/i18n/es.json › servidor.postventa.pdf.condiciones.*.
 */
import type { Plan } from '../rating/engine.ts';
import type { SumaPlan, Tariff } from '../rating/tariff.ts';
import { texto } from '../postventa/textos.ts';
import { pesosEnteros } from '../../../../src/core/money.ts';
import { fecha } from './formato.ts';
import { COLOR, encabezado, renderizar, seccion, tabla, type Contenido } from './pdf.ts';

const T = (k: string, v?: Record<string, string | number>) => texto(`servidor.postventa.pdf.condiciones.${k}`, v);

export interface DatosCondiciones {
  /** YYYY-MM-DD: the day the document is made. */
  fecha: string;
  /**
   * The plans whose sums are shown: priced plans (a quote, or a policy's one plan with its chosen optionals — only
   * those with `selecc` S are listed then), or undefined for the general document (every plan of the tariff).
   */
  planes?: Plan[];
  /** Policy number when the document goes with a policy. */
  numSecuPol?: string;
}

/** The deductible of a coverage in words. */
export function franquiciaTexto(f: { porcentaje?: number; minimo?: number; monto?: number } | undefined): string {
  if (!f) return T('sinFranquicia');
  if (f.monto !== undefined) return T('franquiciaMonto', { monto: pesosEnteros(f.monto) });
  return T(f.minimo !== undefined ? 'franquiciaPorcentajeMinimo' : 'franquiciaPorcentaje', {
    porcentaje: f.porcentaje ?? 0,
    minimo: pesosEnteros(f.minimo ?? 0),
  });
}

/** A tariff suma as the general document states it (no quote): "80 % del valor del edificio" or "$ 10.000.000". */
function sumaTarifa(tariff: Tariff, cod: string, s: SumaPlan): string {
  if ('monto' in s) return pesosEnteros(s.monto);
  return T(`base.${tariff.coberturas[cod].base}`, { porcentaje: Math.round(s.porcentaje * 100) });
}

/** @returns the conditions PDF bytes */
export async function pdfCondiciones(tariff: Tariff, d: DatosCondiciones): Promise<Buffer> {
  const c = tariff.condiciones;
  const poliza = d.numSecuPol !== undefined;
  // columns: one per plan; rows: the coverages any shown plan has, in tariff order
  const columnas = d.planes
    ? d.planes.map((p) => ({
        nombre: p.nombre,
        suma: (cod: string) => {
          const cob = Object.values(p.coberturas)
            .flat()
            .find((x) => x.codCobertura === cod && (!poliza || x.selecc === 'S'));
          return cob ? pesosEnteros(cob.sumaAsegurada) : '—';
        },
      }))
    : Object.values(tariff.planes).map((p) => ({
        nombre: p.nombre,
        suma: (cod: string) => {
          const s = p.coberturas[cod] ?? p.opcionales[cod];
          return s ? sumaTarifa(tariff, cod, s) : '—';
        },
      }));
  const codigos = Object.keys(tariff.coberturas).filter((cod) => columnas.some((col) => col.suma(cod) !== '—'));
  const cobertura = (cod: string): Contenido => {
    const cob = tariff.coberturas[cod];
    return {
      unbreakable: true,
      margin: [0, 6, 0, 4],
      stack: [
        { text: `${cob.descCobertura}${cob.lista === 'optional' ? ` (${T('opcional')})` : ''}`, bold: true, color: COLOR.marca },
        { text: cob.textoWeb, margin: [0, 2, 0, 2] },
        { text: [{ text: `${T('franquicia')}: `, bold: true }, franquiciaTexto(cob.franquicia)] },
        ...(cob.exclusiones?.length
          ? [
              { text: `${T('noCubre')}:`, bold: true, margin: [0, 2, 0, 1] },
              { ul: cob.exclusiones, margin: [8, 0, 0, 0] },
            ]
          : []),
        tabla(
          [T('plan'), T('suma')],
          columnas.map((col) => [col.nombre, col.suma(cod)]),
          ['*', 250],
          [1],
        ),
      ],
    };
  };
  const content: Contenido[] = [
    encabezado(T('titulo'), texto('servidor.postventa.pdf.producto'), [
      ...(poliza
        ? [
            { text: texto('servidor.postventa.pdf.numero'), fontSize: 8, color: '#dbe7f3' },
            { text: d.numSecuPol, fontSize: 14, bold: true, noWrap: true },
          ]
        : []),
      { text: T('tarifa', { version: tariff.version, fecha: fecha(d.fecha) }), fontSize: 8, color: '#dbe7f3' },
    ]),
    { text: T(poliza ? 'bajadaPoliza' : d.planes ? 'bajadaCotizacion' : 'bajadaGeneral'), margin: [0, 10, 0, 0] },
    ...(c ? [{ text: c.supuesto, style: 'chico', margin: [0, 6, 0, 0] }] : []),
    ...seccion(T('generales')),
    { ol: c?.generales ?? [], margin: [0, 0, 0, 0] },
    ...seccion(T('exclusionesGenerales')),
    { text: T('exclusionesGeneralesBajada'), margin: [0, 0, 0, 3] },
    { ul: c?.exclusionesGenerales ?? [] },
    ...seccion(T('particulares')),
    { text: T('particularesBajada'), margin: [0, 0, 0, 4] },
    ...codigos.map(cobertura),
  ];
  return renderizar(content, {
    title: `${T('titulo')}${poliza ? ` ${d.numSecuPol}` : ''}`,
    subject: texto('servidor.postventa.pdf.producto'),
  });
}
