/**
 * PDF rendering with pdfmake (declarative layout over pdfkit) and the 14 standard PDF fonts (Helvetica: no font
 * files, Latin-1 + €/•/— covered). Local files and URLs are never read while rendering. Shared look of the policy and
 * the quote: brand band, section titles, tables, insurer footer with page numbers.
 */
import pdfmake from 'pdfmake';
import { ASEGURADORA } from '../legal/aseguradora.ts';
import { texto } from '../postventa/textos.ts';

const HELVETICA = { normal: 'Helvetica', bold: 'Helvetica-Bold', italics: 'Helvetica-Oblique', bolditalics: 'Helvetica-BoldOblique' };
pdfmake.setFonts({ Helvetica: HELVETICA });
pdfmake.setUrlAccessPolicy(() => false);
// only the standard font names (built into pdfkit) may be "opened"; no file of the machine ever is
pdfmake.setLocalAccessPolicy((path: string) => Object.values(HELVETICA).includes(path));

export const COLOR = { marca: '#0b3d6e', acento: '#0b7a53', gris: '#5b6675', linea: '#d5dbe3', fondo: '#f1f5f9' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Contenido = any;

/** Section title with a rule under it (`ancho` in points: the full text width by default). */
export function seccion(titulo: string, ancho = 515): Contenido {
  return [
    { text: titulo.toUpperCase(), style: 'seccion', margin: [0, 14, 0, 4] },
    { canvas: [{ type: 'line', x1: 0, y1: 0, x2: ancho, y2: 0, lineWidth: 0.6, lineColor: COLOR.linea }], margin: [0, 0, 0, 6] },
  ];
}

/**
 * A box of one cell holding `stack` (banners, the SSN block), the full text width.
 * @param layout pdfmake table layout: fill and rule colours and widths
 * @param interior the cell's padding, points [left, top, right, bottom]
 */
export function recuadro(stack: Contenido[], layout: Contenido, interior: number[] = [8, 6, 8, 6]): Contenido {
  return { table: { widths: ['*'], body: [[{ stack, margin: interior }]] }, layout };
}

/** Label/value pairs in two columns. */
export function pares(filas: [string, string][]): Contenido {
  return {
    table: { widths: [130, '*'], body: filas.map(([k, v]) => [{ text: k, color: COLOR.gris }, { text: v }]) },
    layout: 'noBorders',
  };
}

/** A light table with a header row; `derecha` lists the column indexes aligned right. */
export function tabla(cabecera: string[], filas: Contenido[][], widths: (string | number)[], derecha: number[] = []): Contenido {
  const celda = (c: Contenido, i: number, head = false) =>
    typeof c === 'object' && c !== null && !Array.isArray(c)
      ? { ...c, alignment: derecha.includes(i) ? 'right' : c.alignment }
      : { text: c, bold: head, color: head ? COLOR.gris : undefined, alignment: derecha.includes(i) ? 'right' : 'left' };
  return {
    table: { headerRows: 1, widths, body: [cabecera.map((h, i) => celda(h, i, true)), ...filas.map((f) => f.map((c, i) => celda(c, i)))] },
    layout: {
      hLineWidth: (i: number) => (i === 0 ? 0 : 0.5),
      vLineWidth: () => 0,
      hLineColor: () => COLOR.linea,
      paddingTop: () => 4,
      paddingBottom: () => 4,
    },
  };
}

/** The insurer's band at the top: brand on the left, `derecha` (document title / number) on the right. */
export function encabezado(titulo: string, subtitulo: string, derecha: Contenido): Contenido {
  return {
    table: {
      widths: ['*', 'auto'],
      body: [
        [
          {
            stack: [
              { text: ASEGURADORA.nombre, bold: true, fontSize: 15, color: '#ffffff' },
              { text: titulo, color: '#dbe7f3', fontSize: 10, margin: [0, 3, 0, 0] },
              { text: subtitulo, color: '#dbe7f3', fontSize: 9 },
            ],
            margin: [12, 10, 0, 10],
          },
          { stack: derecha, alignment: 'right', margin: [0, 10, 12, 10], color: '#ffffff' },
        ],
      ],
    },
    layout: { fillColor: () => COLOR.marca, hLineWidth: () => 0, vLineWidth: () => 0 },
  };
}

/**
 * Renders a document. `marcaDeAgua`: a word across every page (e.g. ANULADA on a withdrawn policy).
 * @returns the PDF bytes
 */
export async function renderizar(content: Contenido[], info: { title: string; subject: string }, marcaDeAgua?: string): Promise<Buffer> {
  const doc = pdfmake.createPdf({
    ...(marcaDeAgua ? { watermark: { text: marcaDeAgua, color: '#b3261e', opacity: 0.18, bold: true, fontSize: 90, angle: -45 } } : {}),
    pageSize: 'A4',
    pageMargins: [40, 36, 40, 56],
    info: { ...info, author: ASEGURADORA.nombre, creator: ASEGURADORA.nombre },
    defaultStyle: { font: 'Helvetica', fontSize: 9.5, lineHeight: 1.2, color: '#1f2933' },
    styles: { seccion: { bold: true, fontSize: 9, color: COLOR.marca, characterSpacing: 0.6 }, chico: { fontSize: 8, color: COLOR.gris } },
    footer: (n: number, total: number) => ({
      margin: [40, 10, 40, 0],
      columns: [
        { text: texto('legal.pie'), style: 'chico', width: '*' },
        { text: texto('servidor.postventa.pdf.pagina', { n, total }), style: 'chico', width: 70, alignment: 'right' },
      ],
    }),
    content,
  });
  return Buffer.from(await doc.getBuffer());
}
