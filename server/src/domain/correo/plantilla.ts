/** Plain-text and HTML bodies of the after-sale e-mails (same content, Spanish texts from es.json). */
import { ASEGURADORA } from '../legal/aseguradora.ts';
import { texto } from '../postventa/textos.ts';

const escapar = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** One line of an e-mail: a paragraph, a list of items, or a link (`texto`: its words; the URL itself when absent). */
export type Bloque = string | { lista: string[] } | { enlace: string; texto?: string };

/**
 * @param bloques the body after the greeting
 * @returns text and HTML versions, both ending with the signature and the insurer's footer
 */
export function cuerpoCorreo(saludo: string, bloques: Bloque[]): { texto: string; html: string } {
  const firma = texto('servidor.postventa.correos.firma');
  const pie = texto('legal.pie');
  const txt = [
    saludo,
    ...bloques.map((b) =>
      typeof b === 'string' ? b : 'lista' in b ? b.lista.map((l) => `- ${l}`).join('\n') : b.texto ? `${b.texto}: ${b.enlace}` : b.enlace,
    ),
    firma,
    pie,
  ].join('\n\n');
  const html = [
    `<!doctype html><html lang="es-AR"><head><meta charset="utf-8"><title>${escapar(ASEGURADORA.nombre)}</title></head><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;line-height:1.5;max-width:600px">`,
    `<p style="font-size:18px;font-weight:bold;color:#0b3d6e">${escapar(ASEGURADORA.nombre)}</p>`,
    `<p>${escapar(saludo)}</p>`,
    ...bloques.map((b) =>
      typeof b === 'string'
        ? `<p>${escapar(b)}</p>`
        : 'lista' in b
          ? `<ul>${b.lista.map((l) => `<li>${escapar(l)}</li>`).join('')}</ul>`
          : `<p><a href="${escapar(b.enlace)}" style="color:#0b7a53;font-weight:bold">${escapar(b.texto ?? b.enlace)}</a></p>`,
    ),
    `<p>${escapar(firma).replace(/\n/g, '<br>')}</p>`,
    `<p style="font-size:12px;color:#5b6675">${escapar(pie)}</p>`,
    '</body></html>',
  ].join('\n');
  return { texto: txt, html };
}
