/**
 * Checks a journey fixture before anything starts: its shape (flow/journey.schema.json), every step's
 * route against the flow, every answer's field name against the step's schema (nested objects too), every option
 * value against the field's `enum` (or, for options the app lists at run time, against `dynamicOptions`), the fields
 * of `fieldErrors`, the URLs of `url` and `goto`. Each problem names its JSON pointer and, for a misspelling, the
 * nearest valid name ("¿quisiste decir …?", Levenshtein distance via fastest-levenshtein). Pure and fast: no browser,
 * no server.
 */
import Ajv, { type ErrorObject } from 'ajv';
import { closest, distance } from 'fastest-levenshtein';
import schema from '../../flow/journey.schema.json' with { type: 'json' };
import { stepByPath } from '../../src/engine/core/guards.ts';
import type { Product } from './driver.ts';

type Json = Record<string, unknown>;

/** One problem of a fixture: where (a JSON pointer into the fixture, `""` for the whole file) and what. */
export interface FixtureProblem {
  pointer: string;
  message: string;
}

/**
 * Values a field accepts that its schema does not list, keyed by the `ui:options` pointer the widget reads them from
 * (e.g. `/data/cotizacion/planes` → the tariff's plan codes). A field whose ui:options names none of these is free.
 */
export type DynamicOptions = Record<string, string[]>;

const validate = new Ajv({ allErrors: true, strict: false, verbose: true }).compile(schema);

/** ` ¿quisiste decir «x»?` when a candidate is close enough to `word` (at most a third of its letters off), else "". */
export function didYouMean(word: string, candidates: string[]): string {
  if (!candidates.length) return '';
  const best = closest(word, candidates);
  return distance(word.toLowerCase(), best.toLowerCase()) <= Math.max(2, Math.ceil(word.length / 3)) ? ` ¿quisiste decir «${best}»?` : '';
}

const esc = (token: string | number) => String(token).replace(/~/g, '~0').replace(/\//g, '~1');

function shapeProblems(errors: ErrorObject[]): FixtureProblem[] {
  const out: FixtureProblem[] = [];
  for (const e of errors) {
    // the branches of an action's `oneOf` repeat the same mistake: report the action once (actionProblem)
    const under = (o: ErrorObject) => e.instancePath === o.instancePath || e.instancePath.startsWith(`${o.instancePath}/`);
    if (errors.some((o) => o !== e && o.keyword === 'oneOf' && /\/actions\/\d+$/.test(o.instancePath) && under(o))) continue;
    if (e.keyword === 'oneOf' && /\/actions\/\d+$/.test(e.instancePath)) {
      out.push({ pointer: e.instancePath, message: actionProblem(e.data) });
    } else if (e.keyword === 'additionalProperties') {
      const extra = String((e.params as { additionalProperty: string }).additionalProperty);
      const known = Object.keys(((e.parentSchema as Json | undefined)?.properties ?? {}) as Json);
      out.push({
        pointer: `${e.instancePath}/${esc(extra)}`,
        message: `«${extra}» no es un campo del formato de fixtures.${didYouMean(extra, known)}`,
      });
    } else if (e.keyword === 'enum') {
      const allowed = ((e.params as { allowedValues: unknown[] }).allowedValues ?? []).map(String);
      out.push({
        pointer: e.instancePath,
        message: `«${String(e.data)}» no es un valor válido (${allowed.join(', ')}).${didYouMean(String(e.data), allowed)}`,
      });
    } else {
      out.push({ pointer: e.instancePath, message: e.message ?? e.keyword });
    }
  }
  return out;
}

const ACTIONS = ['next', 'back', 'reload'];
const ACTION_KEYS = ['wait', 'goto', 'click'];

/** Why an action is not one: a misspelt word or key, or a value of the wrong kind. */
function actionProblem(a: unknown): string {
  const kinds = `${ACTIONS.join(', ')}, { wait: minutos }, { goto: "/url" }, { click: "texto" }`;
  if (typeof a === 'string') return `«${a}» no es una acción (${kinds}).${didYouMean(a, ACTIONS)}`;
  if (a && typeof a === 'object' && !Array.isArray(a)) {
    const keys = Object.keys(a);
    const wrong = keys.find((k) => !ACTION_KEYS.includes(k));
    if (wrong) return `«${wrong}» no es una acción (${kinds}).${didYouMean(wrong, ACTION_KEYS)}`;
    if (keys.length !== 1) return `una acción lleva una sola clave (${kinds})`;
    return `valor inválido para ${keys[0]}: wait es un número de minutos > 0, goto una URL que empieza con /, click un texto`;
  }
  return `no es una acción (${kinds})`;
}

/** The values a field offers: its enum (or its items' enum), else what `dynamicOptions` lists for its ui:options. */
function optionsOf(prop: Json, fieldUi: Json | undefined, dynamic: DynamicOptions): string[] | undefined {
  const own = (prop.enum ?? (prop.items as Json | undefined)?.enum) as unknown[] | undefined;
  if (Array.isArray(own)) return own.map(String);
  for (const v of Object.values((fieldUi?.['ui:options'] ?? {}) as Json)) if (typeof v === 'string' && dynamic[v]) return dynamic[v];
  return undefined;
}

function answerProblems(answers: Json, schemaNode: Json, ui: Json, at: string, dynamic: DynamicOptions, out: FixtureProblem[]): void {
  const props = (schemaNode.properties ?? {}) as Record<string, Json>;
  const names = Object.keys(props);
  for (const [key, value] of Object.entries(answers)) {
    const ptr = `${at}/${esc(key)}`;
    const prop = props[key];
    if (!prop) {
      out.push({ pointer: ptr, message: `«${key}» no es un campo del paso (${names.join(', ')}).${didYouMean(key, names)}` });
      continue;
    }
    const fieldUi = ui[key] as Json | undefined;
    if (prop.type === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
      answerProblems(value as Json, prop, fieldUi ?? {}, ptr, dynamic, out);
      continue;
    }
    const options = optionsOf(prop, fieldUi, dynamic);
    if (!options) continue;
    const values = Array.isArray(value) ? value.map((v, i) => [v, `${ptr}/${i}`] as const) : [[value, ptr] as const];
    for (const [v, p] of values) {
      if (typeof v === 'string' && !options.includes(v))
        out.push({ pointer: p, message: `«${v}» no es una opción de ${key} (${options.join(', ')}).${didYouMean(v, options)}` });
    }
  }
}

function routeProblem(route: string, product: Product, pointer: string): FixtureProblem | undefined {
  if (stepByPath(product.flow, route)) return undefined;
  route = route.replace(/^\/+|\/+$/g, '');
  const routes = product.flow.steps.map((s) => s.path);
  return { pointer, message: `la ruta «${route}» no es un paso del flujo.${didYouMean(route, routes)}` };
}

/**
 * Checks one fixture's data (already parsed) against the journey format, the flow and the step schemas.
 * @param dynamicOptions values of run-time option lists (scripts/replay.ts › tariffOptions: plans, optional coverages)
 * @returns every problem found (empty: the fixture can be replayed)
 */
export function checkJourney(data: unknown, product: Product, dynamicOptions: DynamicOptions = {}): FixtureProblem[] {
  const out: FixtureProblem[] = validate(data) ? [] : shapeProblems(validate.errors ?? []);
  if (!data || typeof data !== 'object' || !Array.isArray((data as Json).steps)) return out;
  const j = data as { url: unknown; steps: { route: string; answers?: Json; expect?: Json; actions?: unknown[] }[] };
  const urlPath = typeof j.url === 'string' && j.url.startsWith('/') ? new URL(j.url, 'http://x').pathname : '/';
  if (urlPath !== '/') {
    const p = routeProblem(decodeURIComponent(urlPath), product, '/url');
    if (p) out.push(p);
  }
  const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
  for (const [i, s] of j.steps.entries()) {
    const at = `/steps/${i}`;
    if (!isObj(s) || typeof s.route !== 'string') continue;
    const step = stepByPath(product.flow, s.route);
    if (!step) {
      out.push(routeProblem(s.route, product, `${at}/route`)!);
      continue;
    }
    const stepSchema = (product.schemas[step.id] ?? {}) as Json;
    if (isObj(s.answers)) {
      if (!product.schemas[step.id])
        out.push({ pointer: `${at}/answers`, message: `el paso ${step.id} no tiene formulario: no lleva answers` });
      else answerProblems(s.answers, stepSchema, (product.ui[step.id] ?? {}) as Json, `${at}/answers`, dynamicOptions, out);
    }
    const fields = Object.keys((stepSchema.properties ?? {}) as Json);
    const exp = isObj(s.expect) ? s.expect : {};
    for (const [k, f] of (Array.isArray(exp.fieldErrors) ? (exp.fieldErrors as unknown[]) : []).entries()) {
      if (typeof f === 'string' && !fields.includes(f.split(/[./]/)[0]))
        out.push({
          pointer: `${at}/expect/fieldErrors/${k}`,
          message: `«${f}» no es un campo del paso ${step.id}.${didYouMean(f, fields)}`,
        });
    }
    const plans = dynamicOptions['/data/cotizacion/planes'];
    for (const cod of Object.keys(isObj(exp.planes) ? exp.planes : {})) {
      if (plans && !plans.includes(cod))
        out.push({
          pointer: `${at}/expect/planes/${esc(cod)}`,
          message: `«${cod}» no es un plan de la tarifa (${plans.join(', ')}).${didYouMean(cod, plans)}`,
        });
    }
    for (const [k, a] of (Array.isArray(s.actions) ? s.actions : []).entries()) {
      if (isObj(a) && typeof a.goto === 'string' && a.goto.startsWith('/')) {
        const path = decodeURIComponent(new URL(a.goto, 'http://x').pathname);
        const p = path === '/' ? undefined : routeProblem(path, product, `${at}/actions/${k}/goto`);
        if (p) out.push(p);
      }
    }
  }
  return out;
}
