/**
 * Texts with links (the consent checkbox, the Ley 25.326 notice and the 10-day notice link the documents
 * they name). A text of es.json marks a link as `<name>words</name>`, where `name` is a legal page
 * (src/core/rutas.ts › RUTAS_LEGALES), an after-sale screen (RUTAS_POSTVENTA) or `condiciones` (the general
 * conditions PDF). Unknown names are left as plain words; nothing else is parsed (no HTML from texts).
 */
import { Fragment, type ReactNode } from 'react';
import { API_BASE } from '../api/client';
import { BASE } from './base.ts';
import { RUTA_CONDICIONES_GENERALES, RUTAS_LEGALES, RUTAS_POSTVENTA } from '../core/rutas.ts';

const DESTINOS: Record<string, string> = {
  ...Object.fromEntries(Object.entries({ ...RUTAS_LEGALES, ...RUTAS_POSTVENTA }).map(([k, ruta]) => [k, `${BASE}${ruta}`])),
  condiciones: `${API_BASE}${RUTA_CONDICIONES_GENERALES}`,
};

/**
 * @param texto e.g. "Leí y acepto los <terminos>términos y condiciones</terminos>."
 * @param nuevaPestana true inside a form: the link opens a new tab and the step keeps what was typed
 * @returns the words with `<a>` elements where marked
 */
export function conEnlaces(texto: string, nuevaPestana = false): ReactNode {
  const partes: ReactNode[] = [];
  const re = /<(\w+)>(.*?)<\/\1>/g;
  let desde = 0;
  for (let m = re.exec(texto); m; m = re.exec(texto)) {
    partes.push(texto.slice(desde, m.index));
    const href = DESTINOS[m[1]];
    partes.push(
      href ? (
        <a key={m.index} href={href} {...(nuevaPestana || href.startsWith(API_BASE) ? { target: '_blank', rel: 'noopener' } : {})}>
          {m[2]}
        </a>
      ) : (
        <Fragment key={m.index}>{m[2]}</Fragment>
      ),
    );
    desde = m.index + m[0].length;
  }
  partes.push(texto.slice(desde));
  return partes;
}

/** The words of a marked text without its marks (for places that show plain text). */
export const sinMarcas = (texto: string) => texto.replace(/<(\w+)>(.*?)<\/\1>/g, '$2');
