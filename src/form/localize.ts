/**
 * Puts the step's Spanish texts (es.json › <step>.fields.*) into the uiSchema, so schemas stay pure
 * structure and every visible text comes from the language file (CONVENTIONS §1).
 * Keys per field: label → ui:title, help → ui:help, placeholder → ui:placeholder (help and placeholder with the
 * schema's bounds filled in: `{{min}}`, `{{max}}`, `{{desde}}`, `{{hasta}}`, see ./bounds.ts),
 * options → ui:enumNames (in enum order), hints → ui:options.hints; nested objects under `fields`.
 */
import type { TFunction } from 'i18next';
import { fieldBounds, fillBounds } from '../core/bounds.ts';

type Json = Record<string, unknown>;

interface FieldTexts {
  label?: string;
  help?: string;
  placeholder?: string;
  options?: Record<string, string>;
  hints?: Record<string, string>;
  fields?: Record<string, FieldTexts>;
}

/** uiSchema with texts for every property of `schema` that has an entry in `texts`. Inputs are not mutated. */
export function localizeUiSchema(schema: Json, ui: Json, texts: Record<string, FieldTexts> | undefined): Json {
  const out: Json = { ...ui };
  const props = (schema.properties ?? {}) as Record<string, Json>;
  for (const [name, prop] of Object.entries(props)) {
    const tx = texts?.[name];
    if (!tx) continue;
    const fieldUi: Json = { ...(ui[name] as Json | undefined) };
    const options: Json = { ...(fieldUi['ui:options'] as Json | undefined) };
    if (tx.label) fieldUi['ui:title'] = tx.label;
    const bounds = fieldBounds(prop);
    if (tx.help) fieldUi['ui:help'] = fillBounds(tx.help, bounds);
    if (tx.placeholder) fieldUi['ui:placeholder'] = fillBounds(tx.placeholder, bounds);
    if (tx.options && Array.isArray(prop.enum)) fieldUi['ui:enumNames'] = (prop.enum as string[]).map((v) => tx.options?.[v] ?? v);
    if (tx.hints) options.hints = tx.hints;
    if (Object.keys(options).length) fieldUi['ui:options'] = options;
    if (prop.type === 'object' && tx.fields) Object.assign(fieldUi, localizeUiSchema(prop, fieldUi, tx.fields));
    out[name] = fieldUi;
  }
  return out;
}

/** Keys of a field path like `.ddjj.actividad` → `fields.ddjj.fields.actividad`. */
export function fieldKey(property: string): string {
  return property
    .replace(/^\./, '')
    .split('.')
    .filter(Boolean)
    .map((p) => `fields.${p}`)
    .join('.');
}

/** The schema of the field at RJSF path `property` (".ddjj.actividad") inside `schema`, if any. */
function fieldSchema(schema: Json | undefined, property: string): Json | undefined {
  let node = schema;
  for (const p of property.replace(/^\./, '').split('.').filter(Boolean)) {
    node = ((node?.properties as Record<string, Json> | undefined) ?? {})[p];
  }
  return node === schema ? undefined : node;
}

/** The es.json key a field schema's `x-mensaje` names for `keyword` (a string: every keyword; an object: per keyword, "*" the rest). */
export function xMensajeKey(field: Json | undefined, keyword: string): string | undefined {
  const x = field?.['x-mensaje'];
  if (typeof x === 'string') return x;
  if (x && typeof x === 'object') {
    const key = (x as Json)[keyword] ?? (x as Json)['*'];
    return typeof key === 'string' ? key : undefined;
  }
  return undefined;
}

/**
 * Spanish message for an ajv error of step `stepId`: the field's per-keyword text (es.json ›
 * <step>.fields.<field>.errors.<keyword>) first, then the key the step schema names in `x-mensaje` (the same message
 * the API answers; never for `required`, as on the API), then the generic one by keyword.
 */
export function errorMessage(t: TFunction, stepId: string, property: string, keyword: string, params: Json, schema?: Json): string {
  const kw =
    keyword === 'format' && typeof params.format === 'string' && ['email', 'date'].includes(params.format) ? params.format : keyword;
  const specific = `${stepId}.${fieldKey(property)}.errors.${keyword}`;
  const field = fieldSchema(schema, property);
  const x = keyword === 'required' ? undefined : xMensajeKey(field, keyword);
  // {{min}}, {{max}}, {{desde}}, {{hasta}} come from the field's schema (./bounds.ts); ajv's own params win
  return t([specific, ...(x ? [x] : []), `errors.${kw}`, 'errors.type'], { ...fieldBounds(field), ...params }) as string;
}
