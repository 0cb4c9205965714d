/**
 * The server's Spanish texts of the after-sale features, read from the one message catalogue
 * `src/i18n/es.json` (namespaces `servidor.postventa.*` and `legal.*`, shared with the web app) through its one lookup
 * (src/core/messages.ts). `texto(key, vars)` reads texts and lists of paragraphs; `{{name}}` placeholders are
 * replaced by `vars`, and the insurer's data (config/aseguradora.json) are always available as placeholders (e.g. `{{telefono}}`);
 * `$t(other.key, {"name": "value"})` nests another text, as i18next does in the browser (e.g. legal.baja).
 * @throws Error at call time when the key is missing (a catalogue bug, caught by the tests)
 */
import { buscarNodo } from '../../../../src/core/messages.ts';
import { ASEGURADORA } from '../legal/aseguradora.ts';

function buscar(key: string): unknown {
  const v = buscarNodo(key);
  if (v === undefined) throw new Error(`Falta el texto "${key}" en src/i18n/es.json`);
  return v;
}

const aseguradora = ASEGURADORA as unknown as Record<string, string>;

/** i18next's nesting, as the web reads the same text: `$t(key)` or `$t(key, {"name": "value"})` (JSON options). */
const ANIDADO = /\$t\(([\w.]+)(?:,\s*(\{[^{}]*\}))?\)/g;

function interpolar(s: string, vars: Record<string, string | number>): string {
  const all: Record<string, string | number> = { ...aseguradora, ...vars };
  return s
    .replace(ANIDADO, (_m, k: string, json?: string) =>
      texto(k, { ...vars, ...(json ? (JSON.parse(json) as Record<string, string>) : {}) }),
    )
    .replace(/\{\{(\w+)\}\}/g, (m, k: string) => (k in all ? String(all[k]) : m));
}

/** @returns the text at `key` (a string, or a list of strings joined by `\n\n`), placeholders filled */
export function texto(key: string, vars: Record<string, string | number> = {}): string {
  const v = buscar(key);
  return Array.isArray(v) ? v.map((s) => interpolar(String(s), vars)).join('\n\n') : interpolar(String(v), vars);
}

/** @returns the list of paragraphs at `key` (a single string gives one), placeholders filled */
export function parrafos(key: string, vars: Record<string, string | number> = {}): string[] {
  const v = buscar(key);
  return (Array.isArray(v) ? v : [v]).map((s) => interpolar(String(s), vars));
}
