/**
 * The answers a visitor can give on a step, generated from the step's JSON Schema (schemas/<step>.schema.json) for the
 * flow walker (tools/check/walk.ts): every `enum` value, `const`, both booleans, each numeric bound and the value just
 * inside it, the bounds of the date keywords `x-diasDesdeHoy` and `x-edad` (src/core/dates.ts) and the day just inside
 * them, every value the schema's `examples` give a field, and one value drawn by fast-check from an arbitrary built
 * from the field's schema (seeded: the same seed gives the same answers). Then answer sets ("rows") that cover each
 * value of each field at least once — not their cartesian product — each resolved as the form resolves it (fields a
 * condition hides are not sent: src/form/conditions.ts) and kept only when the step's schema accepts it (the
 * server's Ajv with the date keywords: what the form and the API both validate).
 */
import fc from 'fast-check';
import type { RJSFSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import type Ajv from 'ajv';
import { pruneExcluded } from '../../src/form/conditions.ts';
import { hoyArgentina, sumarAnios, sumarDias } from '../../src/core/dates.ts';
import { escapeToken } from '../../src/core/flow/pointer.ts';
import { schemaFields } from '../replay/follow.ts';

type Json = Record<string, unknown>;

/** One value of one field, with the schema rule it comes from. */
export interface FieldValue {
  value: unknown;
  /** JSON pointer into the step schema of the rule that gives it, e.g. `/properties/metros/maximum`. */
  pointer: string;
  /** What it is, in Spanish, e.g. "máximo", "valor de enum", "ejemplo". */
  why: string;
  /** How a journey fixture writes it when that differs (a date relative to today: `$hoy+N`). */
  fixture?: unknown;
}

/** A row: an answer set for the step, and for each field the value it covers. */
export interface Row {
  answers: Json;
  covers: Record<string, FieldValue>;
}

export interface StepAnswers {
  /** Field → its generated values. */
  values: Record<string, FieldValue[]>;
  /** Answer sets the step accepts, covering every value that some accepted answer can carry. */
  rows: Row[];
  /** Values no accepted answer can carry (a field hidden for every answer, a bound the step refuses itself). */
  unreachable: { field: string; value: FieldValue }[];
  /** Required fields that no accepted answer shows. */
  neverShown: string[];
}

export interface GenerateOptions {
  /** fast-check seed (default 2026). */
  seed?: number;
  /** "Today" for the date keywords (default: today in Argentina). */
  today?: string;
}

const rjsf = customizeValidator({ ajvOptionsOverrides: { strict: false } });

/** The property schema of `field` wherever the step schema declares it (properties first, then branches). */
function propertyOf(schema: Json, field: string, at = ''): { prop: Json; pointer: string } | null {
  const props = schema.properties as Record<string, unknown> | undefined;
  if (props && props[field] && typeof props[field] === 'object')
    return { prop: props[field] as Json, pointer: `${at}/properties/${escapeToken(field)}` };
  const parts: [Json | undefined, string][] = [
    ...((schema.allOf as Json[] | undefined) ?? []).map((s, i) => [s, `${at}/allOf/${i}`] as [Json, string]),
    [schema.then as Json | undefined, `${at}/then`],
    [schema.else as Json | undefined, `${at}/else`],
  ];
  for (const [part, p] of parts) {
    const found = part && typeof part === 'object' ? propertyOf(part, field, p) : null;
    if (found) return found;
  }
  return null;
}

/** A fast-check arbitrary for a property schema (the value space the step accepts, as far as the schema says). */
export function arbitraryFor(prop: Json): fc.Arbitrary<unknown> {
  if ('const' in prop) return fc.constant(prop.const);
  if (Array.isArray(prop.enum)) return fc.constantFrom(...(prop.enum as unknown[]));
  if (prop.type === 'boolean') return fc.boolean();
  if (prop.type === 'integer')
    return fc.integer({ min: (prop.minimum as number | undefined) ?? -1e6, max: (prop.maximum as number | undefined) ?? 1e6 });
  if (prop.type === 'number')
    return fc.double({ min: (prop.minimum as number | undefined) ?? -1e6, max: (prop.maximum as number | undefined) ?? 1e6, noNaN: true });
  if (prop.type === 'string') {
    if (prop.format === 'email') return fc.emailAddress().filter((s) => s.length <= ((prop.maxLength as number | undefined) ?? 254));
    const min = (prop.minLength as number | undefined) ?? 0;
    const max = (prop.maxLength as number | undefined) ?? 40;
    const base =
      typeof prop.pattern === 'string' ? fc.stringMatching(new RegExp(prop.pattern)) : fc.string({ minLength: min, maxLength: max });
    return base.filter((s) => s.length >= min && s.length <= max);
  }
  return fc.constant(prop.default);
}

/** Values of one property (see the module doc). `examples` are the values the step's examples give this field. */
function propertyValues(prop: Json, pointer: string, examples: unknown[], opts: Required<GenerateOptions>): FieldValue[] {
  const out: FieldValue[] = [];
  const add = (value: unknown, at: string, why: string, fixture?: unknown) => {
    if (!out.some((v) => JSON.stringify(v.value) === JSON.stringify(value)))
      out.push({ value, pointer: at, why, ...(fixture !== undefined ? { fixture } : {}) });
  };
  if ('const' in prop) add(prop.const, `${pointer}/const`, 'const');
  else if (Array.isArray(prop.enum)) prop.enum.forEach((v, i) => add(v, `${pointer}/enum/${i}`, 'valor de enum'));
  else if (prop.type === 'boolean') [true, false].forEach((v) => add(v, `${pointer}/type`, 'booleano'));
  else if (prop.type === 'integer' || prop.type === 'number') {
    const step = prop.type === 'integer' ? 1 : ((prop.multipleOf as number | undefined) ?? 0.01);
    const lo = typeof prop.exclusiveMinimum === 'number' ? prop.exclusiveMinimum + step : (prop.minimum as number | undefined);
    const hi = typeof prop.exclusiveMaximum === 'number' ? prop.exclusiveMaximum - step : (prop.maximum as number | undefined);
    const loAt = `${pointer}/${typeof prop.exclusiveMinimum === 'number' ? 'exclusiveMinimum' : 'minimum'}`;
    const hiAt = `${pointer}/${typeof prop.exclusiveMaximum === 'number' ? 'exclusiveMaximum' : 'maximum'}`;
    if (lo !== undefined) add(lo, loAt, 'mínimo');
    if (lo !== undefined && (hi === undefined || lo + step <= hi)) add(lo + step, loAt, 'justo arriba del mínimo');
    if (hi !== undefined && (lo === undefined || hi - step >= lo)) add(hi - step, hiAt, 'justo debajo del máximo');
    if (hi !== undefined) add(hi, hiAt, 'máximo');
  } else if (prop.type === 'string' && prop.format === 'date' && (prop['x-diasDesdeHoy'] || prop['x-edad'])) {
    const dias = prop['x-diasDesdeHoy'] as { min?: number; max?: number } | undefined;
    if (dias) {
      const at = `${pointer}/x-diasDesdeHoy`;
      const rel = (n: number) => `$hoy${n < 0 ? '' : '+'}${n}`;
      if (dias.min !== undefined) add(sumarDias(opts.today, dias.min), at, `hoy + ${dias.min} días (mínimo)`, rel(dias.min));
      if (dias.min !== undefined) add(sumarDias(opts.today, dias.min + 1), at, `hoy + ${dias.min + 1} días`, rel(dias.min + 1));
      if (dias.max !== undefined) add(sumarDias(opts.today, dias.max - 1), at, `hoy + ${dias.max - 1} días`, rel(dias.max - 1));
      if (dias.max !== undefined) add(sumarDias(opts.today, dias.max), at, `hoy + ${dias.max} días (máximo)`, rel(dias.max));
    }
    const edad = prop['x-edad'] as { min?: number; max?: number } | undefined;
    if (edad) {
      const at = `${pointer}/x-edad`;
      if (edad.min !== undefined) add(sumarAnios(opts.today, -edad.min), at, `cumple ${edad.min} años hoy (edad mínima)`);
      if (edad.min !== undefined) add(sumarDias(sumarAnios(opts.today, -edad.min), -1), at, `${edad.min} años y un día`);
      if (edad.max !== undefined) add(sumarAnios(opts.today, -edad.max), at, `cumple ${edad.max} años hoy`);
      if (edad.max !== undefined)
        add(sumarDias(sumarAnios(opts.today, -(edad.max + 1)), 1), at, `${edad.max} años, el último día (edad máxima)`);
    }
  }
  examples.forEach((v) => add(v, pointer.replace(/\/properties\/[^/]+$/, '') + '/examples', 'ejemplo'));
  if (out.length === 0 && prop.default !== undefined) add(prop.default, `${pointer}/default`, 'valor por defecto');
  // one value from the field's arbitrary (a number or a free text the examples do not give), seeded
  const free =
    prop.type === 'integer' ||
    prop.type === 'number' ||
    (prop.type === 'string' && !prop.enum && !('const' in prop) && !prop.format && examples.length === 0);
  if (free || out.length === 0) {
    const [drawn] = fc.sample(arbitraryFor(prop), { seed: opts.seed + out.length, numRuns: 1 });
    if (drawn !== undefined) add(drawn, pointer, 'generado (fast-check)');
  }
  return out;
}

/**
 * Generates the answers of one step (see the module doc).
 * @param ajv an Ajv holding the step schemas by `$id` (the server's, with the date keywords)
 * @param stepDefaults answers the step starts with (flow.json `defaults`, resolved), given to every row
 */
export function stepAnswers(schema: Json, ajv: Ajv, opts: GenerateOptions = {}, stepDefaults: Json = {}): StepAnswers {
  const o: Required<GenerateOptions> = { seed: opts.seed ?? 2026, today: opts.today ?? hoyArgentina() };
  const validate = typeof schema.$id === 'string' && ajv.getSchema(schema.$id) ? ajv.getSchema(schema.$id)! : ajv.compile(schema);
  const examples = (schema.examples as Json[] | undefined) ?? [];
  const values: Record<string, FieldValue[]> = {};
  for (const field of schemaFields(schema)) {
    const found = propertyOf(schema, field);
    if (!found) continue;
    const ex = examples.map((e) => e[field]).filter((v) => v !== undefined);
    if (found.prop.type === 'object' && found.prop.properties) {
      // a nested object (a sworn statement): its own rows are its values
      const inner = stepAnswers({ ...found.prop, examples: ex }, ajv, { ...o, seed: o.seed + 7 });
      values[field] = inner.rows.map((r) => ({
        value: r.answers,
        pointer: found.pointer,
        why: Object.values(r.covers)
          .map((c) => c.why)
          .join(', '),
      }));
      if (values[field].length === 0) values[field] = ex.map((v) => ({ value: v, pointer: found.pointer, why: 'ejemplo' }));
    } else {
      values[field] = propertyValues(found.prop, found.pointer, ex, o);
    }
  }
  const fields = Object.keys(values).filter((f) => values[f].length > 0);
  const resolve = (answers: Json): Json => pruneExcluded(rjsf, schema as RJSFSchema, answers);
  const accepts = (answers: Json) => validate(answers) === true;
  const make = (pick: (f: string) => FieldValue): Row => {
    const covers: Record<string, FieldValue> = {};
    const raw: Json = { ...stepDefaults };
    for (const f of fields) {
      covers[f] = pick(f);
      raw[f] = covers[f].value;
    }
    const answers = resolve(raw);
    for (const f of Object.keys(covers)) if (!(f in answers)) delete covers[f];
    return { answers, covers };
  };
  const n = Math.max(1, ...fields.map((f) => values[f].length));
  const rows: Row[] = [];
  const key = (r: Row) => JSON.stringify(r.answers);
  for (let r = 0; r < n; r++) {
    const row = make((f) => values[f][r % values[f].length]);
    if (accepts(row.answers) && !rows.some((x) => key(x) === key(row))) rows.push(row);
  }
  const carried = (f: string, v: FieldValue) =>
    rows.some((r) => r.covers[f] && JSON.stringify(r.covers[f].value) === JSON.stringify(v.value));
  const unreachable: StepAnswers['unreachable'] = [];
  const neverShown = new Set<string>();
  /** Required fields the step asks for in `row` while a condition hides them (the visitor cannot answer them). */
  const hiddenRequired = (row: Row) => {
    if (accepts(row.answers)) return;
    for (const e of validate.errors ?? []) {
      const missing = (e.params as { missingProperty?: string }).missingProperty;
      if (e.keyword === 'required' && e.instancePath === '' && missing && fields.includes(missing) && !(missing in stepDefaults))
        neverShown.add(missing);
    }
  };
  if (rows.length === 0) hiddenRequired(make((f) => values[f][0]));
  // a value no row carries yet: into each accepted row (or the first value of every other field) until one accepts it
  for (const f of fields) {
    for (const v of values[f]) {
      if (carried(f, v)) continue;
      const bases = [...rows, make((g) => values[g][0])];
      const tries = bases.map((b) => make((g) => (g === f ? v : (b.covers[g] ?? values[g][0]))));
      const found = tries.find((row) => row.covers[f] && accepts(row.answers));
      if (found) rows.push(found);
      else {
        unreachable.push({ field: f, value: v });
        tries.forEach(hiddenRequired);
      }
    }
  }
  return { values, rows, unreachable, neverShown: [...neverShown] };
}
