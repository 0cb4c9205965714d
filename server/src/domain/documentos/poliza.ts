/**
 * The policy document: insurer band, policy number, vigencia, insured person and address, plan, every
 * included coverage with its suma asegurada, the optional ones, the premio breakdown (prima, IVA, tasa SSN, sellos
 * of the province — from the rating engine), installments, the payment method masked (brand/bank + last 4 only),
 * how to report a claim, how to get a copy (Res. SSN 360/2024 mod. 435/2025), withdrawal/cancellation rights and
 * the SSN customer-service block. Texts: src/i18n/es.json › servidor.postventa.pdf.*, legal.*.
 */
import type { Plan } from '../rating/engine.ts';
import { parrafos, texto } from '../postventa/textos.ts';
import { detalleCuotas } from '../../../../src/core/cuotas.ts';
import { pesos, pesosEnteros } from '../../../../src/core/money.ts';
import { fecha } from './formato.ts';
import { COLOR, encabezado, pares, recuadro, renderizar, seccion, tabla, type Contenido } from './pdf.ts';

export interface DatosPoliza {
  numSecuPol: string;
  /** YYYY-MM-DD (Argentina). */
  emitidaEl: string;
  vigenciaDesde: string;
  vigenciaHasta: string;
  asegurado: { nombre: string; documento: string; email: string; telefono: string };
  /** Address lines of the insured risk. */
  ubicacion: string[];
  provincia: string;
  plan: Plan;
  /** ARS per vigencia, from the rating engine (desgloseImpuestos). */
  impuestos: { iva: number; tasaSsn: number; sellos: number };
  /** Already masked, e.g. "Visa terminada en 4242" / "CBU Banco de Galicia terminada en 1356". */
  medioPago: string;
  /**
   * A policy that ended: ANULADA (botón de arrepentimiento: void from the start) or BAJA (botón de baja),
   * with the date it takes effect (YYYY-MM-DD) and the day it was asked for. The document then carries the state on
   * every page (watermark) and a banner with the dates under the insurer band.
   */
  fin?: { estado: 'ANULADA' | 'BAJA'; desde: string; pedidoEl: string };
}

const T = (k: string, v?: Record<string, string | number>) => texto(`servidor.postventa.pdf.${k}`, v);

/** @returns the policy PDF bytes */
export async function pdfPoliza(d: DatosPoliza): Promise<Buffer> {
  const content: Contenido[] = [
    encabezado(T('poliza'), T('producto'), [
      { text: T('numero'), fontSize: 8, color: '#dbe7f3' },
      { text: d.numSecuPol, fontSize: 16, bold: true },
      { text: T('emitida', { fecha: fecha(d.emitidaEl) }), fontSize: 8, color: '#dbe7f3' },
    ]),
    ...(d.fin ? [bandaFin(d.fin)] : []),
    bandaVigencia(d),
    aseguradoYUbicacion(d),
    ...coberturas(d.plan),
    premio(d),
    ...avisosLegales(),
  ];
  return renderizar(
    content,
    { title: `${T('poliza')} ${d.numSecuPol}`, subject: T('producto') },
    d.fin && T(d.fin.estado === 'ANULADA' ? 'marcaAnulada' : 'marcaBaja'),
  );
}

const SIN_LINEAS = { hLineWidth: () => 0, vLineWidth: () => 0 };

/** The red banner of a policy that ended (ANULADA or BAJA) with the date it takes effect and the day it was asked for. */
function bandaFin(fin: NonNullable<DatosPoliza['fin']>): Contenido {
  const anulada = fin.estado === 'ANULADA';
  return {
    margin: [0, 12, 0, 0],
    ...recuadro(
      [
        { text: T(anulada ? 'anuladaTitulo' : 'bajaTitulo'), bold: true, fontSize: 14, color: '#ffffff' },
        {
          text: T(anulada ? 'anuladaTexto' : 'bajaTexto', { desde: fecha(fin.desde), pedido: fecha(fin.pedidoEl) }),
          color: '#ffffff',
          margin: [0, 3, 0, 0],
        },
      ],
      { fillColor: () => '#b3261e', ...SIN_LINEAS },
    ),
  };
}

/** The vigencia band: from/to dates on a light background. */
function bandaVigencia(d: DatosPoliza): Contenido {
  return {
    margin: [0, 12, 0, 0],
    ...recuadro(
      [
        { text: T('vigencia').toUpperCase(), style: 'seccion' },
        {
          text: T('vigenciaTexto', { desde: fecha(d.vigenciaDesde), hasta: fecha(d.vigenciaHasta) }),
          fontSize: 11,
          bold: true,
          margin: [0, 3, 0, 0],
        },
      ],
      { fillColor: () => COLOR.fondo, ...SIN_LINEAS },
    ),
  };
}

/** Two columns: the insured person (name, document, contact) and the insured address with the plan's name. */
function aseguradoYUbicacion(d: DatosPoliza): Contenido {
  return {
    columns: [
      {
        width: '*',
        stack: [
          ...seccion(T('asegurado'), 249),
          pares([
            [T('asegurado'), d.asegurado.nombre],
            [T('documento'), d.asegurado.documento],
            [T('contacto'), `${d.asegurado.email}\n${d.asegurado.telefono}`],
          ]),
        ],
      },
      { width: 16, text: '' },
      {
        width: '*',
        stack: [
          ...seccion(T('ubicacion'), 249),
          { text: d.ubicacion.join('\n') },
          { text: `${T('plan')}: ${d.plan.nombre}`, bold: true, margin: [0, 6, 0, 0] },
        ],
      },
    ],
  };
}

/** Every included coverage with its suma asegurada, then the optional ones the visitor chose (or a line saying none). */
function coberturas(plan: Plan): Contenido[] {
  const incluidas = [...plan.coberturas.primary, ...plan.coberturas.secondary, ...plan.coberturas.urgencyAssistance];
  const opcionales = plan.coberturas.optional.filter((c) => c.selecc === 'S');
  const filaCob = (c: Plan['coberturas']['primary'][number]) => [c.descCobertura, pesosEnteros(c.sumaAsegurada)];
  return [
    ...seccion(T('coberturas')),
    tabla([T('cobertura'), T('suma')], incluidas.map(filaCob), ['*', 120], [1]),
    ...seccion(T('opcionales')),
    opcionales.length
      ? tabla([T('cobertura'), T('suma')], opcionales.map(filaCob), ['*', 120], [1])
      : { text: T('sinOpcionales'), color: COLOR.gris },
  ];
}

/** The premio breakdown (prima, IVA, tasa SSN, sellos of the province, total) beside the installments and payment method. */
function premio(d: DatosPoliza): Contenido {
  const derecha = (monto: number) => ({ text: pesos(monto), alignment: 'right' });
  return {
    unbreakable: true,
    stack: [
      ...seccion(T('premio')),
      {
        columns: [
          {
            width: 280,
            table: {
              widths: ['*', 110],
              body: [
                [T('prima'), derecha(d.plan.prima)],
                [T('iva'), derecha(d.impuestos.iva)],
                [T('tasaSsn'), derecha(d.impuestos.tasaSsn)],
                [T('sellos', { provincia: d.provincia }), derecha(d.impuestos.sellos)],
                [
                  { text: T('total'), bold: true },
                  { text: pesos(d.plan.premio), bold: true, alignment: 'right' },
                ],
              ],
            },
            layout: {
              hLineWidth: (i: number, node: { table: { body: unknown[] } }) => (i === node.table.body.length - 1 ? 0.8 : 0),
              vLineWidth: () => 0,
              hLineColor: () => COLOR.marca,
              paddingTop: () => 3,
              paddingBottom: () => 3,
            },
          },
          { width: 20, text: '' },
          {
            width: '*',
            stack: [
              { text: T('cuotas', { detalle: detalleCuotas(d.plan) }), bold: true, margin: [0, 3, 0, 6] },
              { text: T('medioPago'), color: COLOR.gris },
              { text: d.medioPago },
            ],
          },
        ],
      },
    ],
  };
}

/** How to report a claim, how to get a copy, withdrawal/cancellation rights and the SSN customer-service block. */
function avisosLegales(): Contenido[] {
  return [
    { unbreakable: true, stack: [...seccion(T('siniestroTitulo')), { text: texto('legal.siniestro') }] },
    { unbreakable: true, stack: [...seccion(T('copiaTitulo')), { text: texto('legal.copia') }] },
    {
      unbreakable: true,
      stack: [
        ...seccion(T('derechosTitulo')),
        { text: texto('legal.arrepentimiento') },
        { text: texto('legal.baja'), margin: [0, 4, 0, 0] },
      ],
    },
    {
      unbreakable: true,
      margin: [0, 16, 0, 0],
      ...recuadro(
        [
          { text: texto('legal.ssn.titulo'), bold: true, fontSize: 10, color: COLOR.marca, margin: [0, 0, 0, 4] },
          ...parrafos('legal.ssn.parrafos').map((p) => ({ text: p, fontSize: 8.5, margin: [0, 0, 0, 3] })),
        ],
        { hLineColor: () => COLOR.marca, vLineColor: () => COLOR.marca, hLineWidth: () => 0.8, vLineWidth: () => 0.8 },
        [8, 6, 8, 4],
      ),
    },
  ];
}
