/**
 * Numbers typed in per-field texts: a bound a visitor reads in a field's label, help, placeholder or
 * error (es.json › <step>.fields.<field>.*) comes from the step schema through `{{min}}`/`{{max}}`/`{{desde}}`/
 * `{{hasta}}` (src/core/bounds.ts). For a field whose schema has a bound (minimum, maximum, exclusive bounds,
 * minLength, maxLength, x-edad, x-diasDesdeHoy), a number in one of its texts is:
 * - an ERROR when the schema has no such bound (e.g. "Entre 20 y 1000 m²" when the schema says maximum 1500);
 * - a WARNING when it equals a bound (typed twice: the next edit of the schema leaves it behind).
 */
import { escapeToken, getAt } from '../../src/core/flow/pointer.ts';
import type { FlowProblem } from '../../src/core/flow/check-flow.ts';

type Json = Record<string, unknown>;

const BOUND_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength'];
const DATE_KEYWORDS = ['x-edad', 'x-diasDesdeHoy'];

/** The bounds a field schema states, keyword → value (date keywords as `x-edad.min`…); {} when it has none. */
function boundsOf(prop: Json): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of BOUND_KEYWORDS) if (typeof prop[k] === 'number') out[k] = prop[k] as number;
  for (const k of DATE_KEYWORDS) {
    const r = prop[k] as Json | undefined;
    for (const m of ['min', 'max']) if (r && typeof r[m] === 'number') out[`${k}.${m}`] = r[m] as number;
  }
  return out;
}

/** Numbers written in a text, "1.000" read as 1000; placeholders (`{{…}}`) are skipped. */
function numbersIn(text: string): number[] {
  return [...text.replace(/\{\{[^}]*\}\}/g, '').matchAll(/\d{1,3}(?:\.\d{3})+|\d+/g)].map((m) => Number(m[0].replace(/\./g, '')));
}

/**
 * @param schemas step schemas by step id; @param texts src/i18n/es.json
 * @returns one problem per number per text (file es.json, pointer of the text), naming the schema's pointer
 */
export function checkFieldTexts(schemas: Record<string, Json>, texts: Json): FlowProblem[] {
  const problems: FlowProblem[] = [];
  const visit = (stepId: string, props: Record<string, Json>, schemaAt: string, textAt: string) => {
    for (const [name, prop] of Object.entries(props)) {
      if (!prop || typeof prop !== 'object') continue;
      const fieldSchemaAt = `${schemaAt}/properties/${escapeToken(name)}`;
      const fieldTextAt = `${textAt}/fields/${escapeToken(name)}`;
      if (prop.type === 'object' && prop.properties) visit(stepId, prop.properties as Record<string, Json>, fieldSchemaAt, fieldTextAt);
      const bounds = boundsOf(prop);
      if (!Object.keys(bounds).length) continue;
      const fieldTexts = getAt(texts, fieldTextAt) as Json | undefined;
      if (!fieldTexts || typeof fieldTexts !== 'object') continue;
      const strings: [string, string][] = [];
      for (const k of ['label', 'help', 'placeholder'])
        if (typeof fieldTexts[k] === 'string') strings.push([`${fieldTextAt}/${k}`, fieldTexts[k] as string]);
      for (const [kw, t] of Object.entries((fieldTexts.errors as Json) ?? {}))
        if (typeof t === 'string') strings.push([`${fieldTextAt}/errors/${escapeToken(kw)}`, t]);
      const schemaFile = `schemas/${stepId}.schema.json`;
      const listed = Object.entries(bounds)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      for (const [at, t] of strings) {
        for (const n of numbersIn(t)) {
          const kw = Object.entries(bounds).find(([, v]) => v === n)?.[0];
          if (kw === undefined) {
            problems.push({
              file: 'src/i18n/es.json',
              pointer: at,
              message: `el texto dice ${n} y ${schemaFile}#${fieldSchemaAt} no tiene ese límite (${listed}): escribí {{min}}/{{max}} (o {{desde}}/{{hasta}} para fechas) en lugar del número`,
            });
          } else {
            const ph = /max/i.test(kw) ? '{{max}}' : '{{min}}';
            problems.push({
              file: 'src/i18n/es.json',
              pointer: at,
              severity: 'warning',
              message: `el texto repite el ${kw} de ${schemaFile}#${fieldSchemaAt} (${n}): escribí ${ph} para que siga al schema`,
            });
          }
        }
      }
    }
  };
  for (const [id, schema] of Object.entries(schemas))
    visit(id, (schema.properties as Record<string, Json>) ?? {}, '', `/${escapeToken(id)}`);
  return problems;
}
