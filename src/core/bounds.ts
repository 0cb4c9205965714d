/**
 * The bounds of a field schema as message placeholders: a number in a text a visitor reads comes
 * from the step schema, never typed twice. es.json texts write `{{min}}`, `{{max}}`, `{{desde}}`, `{{hasta}}`; the
 * form (src/form/localize.ts: help, placeholder, errors) and the API (server/src/plugins/error-handler.ts) fill them
 * from the field's schema with this one function.
 */
import { formatDateAr, rangoDeFechas, type Rango } from './dates.ts';

type Json = Record<string, unknown>;

/**
 * Placeholders of a field schema, by keyword:
 * - `minimum` / `exclusiveMinimum` → `min`, `maximum` / `exclusiveMaximum` → `max` (numbers, as written);
 * - `minLength` → `min`, `maxLength` → `max` (characters);
 * - `x-edad` { min, max } → `min`, `max` (years);
 * - `x-diasDesdeHoy` { min, max } → `min`, `max` (days from today) and `desde`, `hasta` (those dates, "dd/mm/aaaa");
 *   `x-edad` also gives `desde`/`hasta`: the birth dates allowed today.
 * @param field a field schema (e.g. `metros.schema.json#/properties/metros`); undefined → {}
 * @param hoy today, "YYYY-MM-DD" (default: today in Argentina)
 * @returns e.g. { min: 20, max: 1000 } or { min: 1, max: 30, desde: "26/11/2026", hasta: "25/12/2026" }
 */
export function fieldBounds(field: Json | undefined, hoy?: string): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (!field || typeof field !== 'object') return out;
  const num = (k: string) => (typeof field[k] === 'number' ? (field[k] as number) : undefined);
  const min = num('minimum') ?? num('exclusiveMinimum') ?? num('minLength');
  const max = num('maximum') ?? num('exclusiveMaximum') ?? num('maxLength');
  if (min !== undefined) out.min = min;
  if (max !== undefined) out.max = max;
  const fecha = (field['x-diasDesdeHoy'] ?? field['x-edad']) as Rango | undefined;
  if (fecha && typeof fecha === 'object') {
    if (fecha.min !== undefined) out.min = fecha.min;
    if (fecha.max !== undefined) out.max = fecha.max;
    const r = rangoDeFechas(field as { 'x-edad'?: Rango; 'x-diasDesdeHoy'?: Rango }, ...(hoy ? [hoy] : []));
    if (r.min) out.desde = formatDateAr(r.min);
    if (r.max) out.hasta = formatDateAr(r.max);
  }
  return out;
}

/** Replaces `{{name}}` in `text` with `values[name]` (unknown names are left as written). */
export function fillBounds(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
