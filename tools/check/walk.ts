/**
 * The flow walker: drives the answers a visitor can give (tools/check/answers.ts) along every path of the
 * flow (tools/replay/paths.ts) through the engine, headless (tools/replay/headless.ts), against the reference API built
 * in memory over the product's own schemas and tariff — and reports every place where what one step accepts is
 * refused later, naming both files and pointers and what to change. Run by `npm run flow:check` (scripts/flow-check.ts)
 * and `npm run flow:paths -- --write` (drafts of fixtures), and by server/test/flow-walk.test.ts.
 *
 * What it reports (FlowProblem: `file#pointer: message`, Spanish):
 * - ERROR an answer a step accepts and a later call refuses (the API's request schema, schemas/api/*.json, or the
 *   tariff, server/tariffs/2026-11.json), or a step refuses on its own server-side check;
 * - ERROR a required field no answer can show (a condition hides it whenever the step needs it);
 * - ERROR a call or step default that reads an answer (`/answers/<step>/…`) of a step not yet visited on some path, or
 *   a field that step does not ask;
 * - ERROR a text placeholder (`{{x}}` in src/i18n/es.json) of a result step with no value on a path;
 * - warning a path no generated answer reaches (its branch depends on the server; add a schema example that leads there).
 *
 * Coverage: per path, every generated value of every field is sent at least once (rows of each step, row j of every
 * step in journey j — not the cartesian product), among the rows that keep the path's conditions on the answers (a
 * branch, a call variant). Paths that differ only in the result a server reply chooses share their journeys.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Ajv from 'ajv';
import type { FastifyInstance } from 'fastify';
import { build } from '../../server/src/app.ts';
import { createAjv } from '../../server/src/plugins/schemas.ts';
import type { ApiRequest } from '../../src/engine/calls.ts';
import { resolveBinding } from '../../src/core/flow/bindings.ts';
import { bindingPointers, type FlowProblem } from '../../src/core/flow/check-flow.ts';
import { stepById } from '../../src/engine/core/guards.ts';
import { escapeToken, getAt, parsePointer } from '../../src/core/flow/pointer.ts';
import type { Binding, CallDef, Flow, FlowContext } from '../../src/core/flow/types.ts';
import type { Product } from '../replay/driver.ts';
import type { Journey, JourneyStep } from '../replay/fixture.ts';
import { schemaFields } from '../replay/follow.ts';
import { replayHeadless } from '../replay/headless.ts';
import { visitor as apiVisitor, type ApiLog } from '../replay/inject.ts';
import { enumeratePaths, type FlowPath } from '../replay/paths.ts';
import { stepAnswers, type FieldValue, type Row, type StepAnswers } from './answers.ts';

type Json = Record<string, unknown>;

export interface WalkOptions {
  /** The product's root (its schemas/, server/tariffs/2026-11.json). */
  root: string;
  product: Product;
  /** src/i18n/es.json. */
  texts: Json;
  /** fast-check seed (default 2026). */
  seed?: number;
  /** The tariff file, relative to `root` (default server/tariffs/2026-11.json). */
  tariffFile?: string;
  /** Walk only the first N groups of paths (tests of one planted edit); default all. */
  groups?: number;
}

export interface WalkReport {
  problems: FlowProblem[];
  /** Journeys driven. */
  journeys: number;
  /** Each path and whether a journey reached its result. */
  paths: { path: FlowPath; reached: boolean }[];
  /** For each path reached: a journey (fixture draft) that goes along it, with the generated answers. */
  drafts: Map<string, Journey>;
  ms: number;
}

const TARIFF = 'server/tariffs/2026-11.json';

/** `/answers/<step>/<field>` → [step, field] (field undefined for the whole step). */
function answerRef(pointer: string): [string, string | undefined] | null {
  const t = parsePointer(pointer);
  return t && t[0] === 'answers' && t.length >= 2 ? [t[1], t[2]] : null;
}

/** The call references of a step (onSubmit, onChange, extras) with the flow pointer of each. */
function stepCalls(flow: Flow, stepId: string): string[] {
  const step = stepById(flow, stepId);
  const refs = [...(step.onSubmit ?? []), ...Object.values(step.onChange ?? {}).flat()].map((r) => (typeof r === 'string' ? r : r.call));
  for (const x of step.extras ?? []) if ('call' in x && typeof x.call === 'string') refs.push(x.call);
  return [...new Set(refs)];
}

/** The group of paths that share journeys: the same steps before the result, the same variants (the result is the server's). */
function groupKey(path: FlowPath): string {
  return JSON.stringify([path.steps.slice(0, -1), path.variants]);
}

/** A condition a path needs, and whether it must hold. */
interface PathCondition {
  when: string;
  holds: boolean;
}

/**
 * What a path needs to hold: its call variants, and at each branching `next` the branch it takes (its `when` holds,
 * every earlier branch's does not).
 */
function pathConditions(flow: Flow, path: FlowPath): PathCondition[] {
  const out: PathCondition[] = path.variants.map((v) => ({ when: v.when, holds: v.holds }));
  path.steps.forEach((id, i) => {
    const next = stepById(flow, id).next;
    if (!Array.isArray(next) || i + 1 >= path.steps.length) return;
    const k = next.findIndex((b) => b.to === path.steps[i + 1]);
    if (k < 0) return;
    next.slice(0, k).forEach((b) => b.when && out.push({ when: b.when, holds: false }));
    if (next[k].when) out.push({ when: next[k].when as string, holds: true });
  });
  return out;
}

/** Static checks along each path: answers read before their step, fields no step asks. */
function checkBindings(product: Product, paths: FlowPath[]): FlowProblem[] {
  const { flow, schemas } = product;
  const problems = new Map<string, FlowProblem>();
  const add = (p: FlowProblem) => problems.has(p.pointer) || problems.set(p.pointer, p);
  const asks = (step: string) => Boolean(schemas[step]) || flow.steps.some((s) => s.id === step);
  for (const path of paths) {
    path.steps.forEach((id, k) => {
      const seen = new Set(path.steps.slice(0, k + 1));
      const reads: { pointer: string; at: string; what: string }[] = [];
      for (const name of stepCalls(flow, id)) {
        const call = flow.def.calls[name];
        if (!call) continue;
        for (const part of ['body', 'query', 'params'] as const) {
          reads.push(
            ...bindingPointers(call[part] as Binding | undefined, `/calls/${escapeToken(name)}/${part}`).map((b) => ({
              ...b,
              what: `la llamada «${name}»`,
            })),
          );
        }
      }
      const index = flow.def.steps.findIndex((s) => s.id === id);
      const def = flow.def.steps[index];
      if (def?.defaults)
        reads.push(
          ...bindingPointers(def.defaults, `/steps/${index}/defaults`).map((b) => ({ ...b, what: 'los valores iniciales del paso' })),
        );
      for (const r of reads) {
        const ref = answerRef(r.pointer);
        if (!ref || !asks(ref[0])) continue;
        const [from, field] = ref;
        if (!seen.has(from)) {
          add({
            pointer: r.at,
            message: `${r.what} del paso «${id}» lee ${r.pointer}, pero en el camino ${path.name} el paso «${from}» todavía no se visitó: mové la llamada a un paso posterior a «${from}» o poné «${from}» antes de «${id}»`,
          });
        } else if (field && schemas[from] && !schemaFields(schemas[from]).includes(field)) {
          add({
            pointer: r.at,
            message: `${r.what} del paso «${id}» lee ${r.pointer}, pero el paso «${from}» no pide «${field}» (schemas/${from}.schema.json#/properties): agregá el campo al paso o cambiá la lectura`,
          });
        }
      }
    });
  }
  return [...problems.values()];
}

export { apiVisitor, type ApiLog };

/** The flow call a request was made for (method and path template). */
function callOf(flow: Flow, req: ApiRequest): [string, CallDef] | undefined {
  return Object.entries(flow.def.calls).find(
    ([, c]) =>
      c.method === req.method &&
      new RegExp(`^${c.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`).test(req.path.split('?')[0]),
  );
}

/** The answer pointer a call sends at `field` (a JSON pointer into its body or query), through plain keys and merges. */
function boundAnswer(binding: Binding | undefined, field: string[]): string | undefined {
  if (binding === undefined) return undefined;
  if (typeof binding === 'string') return field.length ? `${binding}/${field.map(escapeToken).join('/')}` : binding;
  if ('const' in binding && Object.keys(binding).length === 1) return undefined;
  if ('merge' in binding && Array.isArray(binding.merge)) {
    for (const part of [...(binding.merge as Binding[])].reverse()) {
      if (typeof part === 'string') return boundAnswer(part, field);
      if (part && typeof part === 'object' && field[0] in part) return boundAnswer(part, field);
    }
    return undefined;
  }
  if (field.length === 0) return undefined;
  return boundAnswer((binding as Record<string, Binding>)[field[0]], field.slice(1));
}

/** Where in the tariff a value of `field` is missing or out of range (searched, not known in advance). */
export function locateInTariff(tariff: Json, field: string, value: unknown, siblings: unknown[]): string {
  let found: string | undefined;
  const visit = (node: unknown, at: string) => {
    if (found || !node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      if (
        typeof value === 'number' &&
        node.length &&
        node.every((b) => b && typeof b === 'object' && typeof (b as Json).desde === 'number' && typeof (b as Json).hasta === 'number')
      ) {
        if (!node.some((b) => value >= ((b as Json).desde as number) && value <= ((b as Json).hasta as number))) found = at;
      }
      node.forEach((n, i) => visit(n, `${at}/${i}`));
      return;
    }
    const o = node as Json;
    if (o.campo === field && o.valores && typeof o.valores === 'object' && !(String(value) in (o.valores as Json))) {
      found = `${at}/valores`;
      return;
    }
    if (typeof value === 'number' && typeof o.min === 'number' && typeof o.max === 'number' && (value < o.min || value > o.max)) {
      found = at;
      return;
    }
    if (typeof value === 'string' && siblings.length > 1) {
      const keys = Object.keys(o);
      if (
        !keys.includes(value) &&
        siblings.filter((s) => s !== value && keys.includes(String(s))).length >= 1 &&
        keys.every((k) => siblings.map(String).includes(k))
      ) {
        found = at;
        return;
      }
    }
    for (const [k, v] of Object.entries(o)) visit(v, `${at}/${escapeToken(k)}`);
  };
  visit(tariff, '');
  return found ?? '';
}

/** The request definition of a route in schemas/api (from the API's OpenAPI document): `cotizacion.json#/$defs/CotizarBody`. */
function requestDef(doc: { paths: Record<string, Record<string, Json>> }, call: CallDef): { file: string; pointer: string } | null {
  const path = `/api${call.path}`;
  const op = doc.paths[path]?.[call.method.toLowerCase()];
  const ref = (op?.requestBody as Json | undefined)?.content as Json | undefined;
  const schemaRef = ((ref?.['application/json'] as Json | undefined)?.schema as Json | undefined)?.$ref;
  const m = typeof schemaRef === 'string' ? /#\/components\/schemas\/([\w.-]+?)-(\w+)$/.exec(schemaRef) : null;
  return m ? { file: `schemas/api/${m[1]}.json`, pointer: `/$defs/${m[2]}` } : null;
}

const show = (v: unknown) => JSON.stringify(v);

interface JourneyPlan {
  journey: Journey;
  /** Step id → the row the journey answers it with. */
  rows: Record<string, Row>;
}

/** What the walk's parts share: the product, the compiled request schemas, the generated answers, the API's doc. */
interface Walk {
  opts: WalkOptions;
  product: Product;
  flow: Flow;
  schemas: Product['schemas'];
  ajv: Ajv;
  /** The first example of every step schema, by step id (defaults and draft ages read them). */
  exampleAnswers: Json;
  answers: Map<string, StepAnswers>;
  tariffFile: string;
  /** The tariff file's text. */
  tariff: string;
  /** The API's OpenAPI document (request schemas by route). */
  doc: { paths: Record<string, Record<string, Json>> };
}

/** What the walk found so far: problems by `file#pointer` (the first one kept), paths reached, drafts, journeys driven. */
interface Findings {
  found: Map<string, FlowProblem>;
  reached: Set<string>;
  drafts: Map<string, Journey>;
  journeys: number;
}

/**
 * Walks the flow (see the module doc).
 * @returns the problems found, the journeys driven, which paths were reached, fixture drafts per path
 */
export async function walkFlow(opts: WalkOptions): Promise<WalkReport> {
  const started = Date.now();
  const { product, root } = opts;
  const { flow, schemas } = product;
  const tariffFile = opts.tariffFile ?? TARIFF;
  const problems: FlowProblem[] = [];
  const ajv: Ajv = createAjv({ coerceTypes: false, removeAdditional: false, useDefaults: false }, join(root, 'schemas'));
  const paths = enumeratePaths(flow);
  problems.push(...checkBindings(product, paths));
  const exampleAnswers: Json = Object.fromEntries(
    Object.entries(schemas).map(([id, s]) => [id, ((s.examples as Json[] | undefined) ?? [])[0] ?? {}]),
  );
  const answers = answersOfSteps(product, ajv, opts.seed, exampleAnswers, problems);
  const tariff = readFileSync(join(root, tariffFile), 'utf8');
  const app = await referenceApi(root, tariffFile);
  const f: Findings = { found: new Map(), reached: new Set(), drafts: new Map(), journeys: 0 };
  try {
    await app.ready();
    const doc = (app as unknown as { swagger: () => Walk['doc'] }).swagger();
    const w: Walk = { opts, product, flow, schemas, ajv, exampleAnswers, answers, tariffFile, tariff, doc };
    const groups = new Map<string, FlowPath[]>();
    for (const p of paths) groups.set(groupKey(p), [...(groups.get(groupKey(p)) ?? []), p]);
    for (const group of [...groups.values()].slice(0, opts.groups ?? Infinity)) await walkGroup(w, app, group, f);
  } finally {
    await app.close();
  }
  problems.push(...f.found.values());
  const rows = paths.map((path) => ({ path, reached: f.reached.has(path.name) }));
  for (const r of rows.filter((x) => !x.reached)) {
    if (f.found.size || opts.groups !== undefined) break; // a refusal already stops journeys: it is the problem to fix first
    problems.push({
      pointer: '/steps',
      severity: 'warning',
      message: `ninguna respuesta generada llega al final del camino ${r.path.name} (lo decide el servidor): agregá en el esquema del paso un ejemplo ("examples") que lleve ahí`,
    });
  }
  return { problems, journeys: f.journeys, paths: rows, drafts: f.drafts, ms: Date.now() - started };
}

/**
 * The answers a visitor can give to every form step (tools/check/answers.ts), its defaults read from the other steps'
 * examples. Reports (into `problems`) a required field no answer can show, and values a step never accepts (warnings).
 */
function answersOfSteps(
  product: Product,
  ajv: Ajv,
  seed: number | undefined,
  exampleAnswers: Json,
  problems: FlowProblem[],
): Map<string, StepAnswers> {
  const answers = new Map<string, StepAnswers>();
  for (const step of product.flow.steps) {
    const schema = product.schemas[step.id];
    if (!schema || step.kind !== 'form') continue;
    const defaults = step.defaults
      ? ((resolveBinding(step.defaults, { answers: exampleAnswers, data: {}, flags: {} } as unknown as FlowContext) ?? {}) as Json)
      : {};
    const a = stepAnswers(schema, ajv, { seed }, defaults);
    answers.set(step.id, a);
    const file = `schemas/${step.id}.schema.json`;
    for (const field of a.neverShown) {
      problems.push({
        file,
        pointer: '/required',
        message: `paso «${step.id}»: «${field}» es obligatorio pero una condición lo oculta en toda respuesta que lo necesita: ningún visitante puede completar el paso así. Sacalo de "required" de esa rama o mostralo (revisá if/then/else)`,
      });
    }
    for (const u of a.unreachable) {
      if (a.neverShown.length) break;
      problems.push({
        file,
        pointer: u.value.pointer,
        severity: 'warning',
        message: `paso «${step.id}»: el paso nunca acepta ${u.field} = ${show(u.value.value)} (${u.value.why}) con ninguna combinación de respuestas`,
      });
    }
  }
  return answers;
}

/** The reference API in memory over the product's schemas and tariff, with no limits and a fast emission. */
function referenceApi(root: string, tariffFile: string) {
  return build({
    schemasDir: join(root, 'schemas'),
    tariffFile: join(root, tariffFile),
    rateLimitMax: 1_000_000,
    embudoLotesPorMinuto: 1_000_000,
    settings: { cotizacionesPorHoraPorIp: 1_000_000 },
    emisionDelayMs: 20,
    emisionPollMs: 10,
    shutdownTimeoutMs: 200,
  } as never);
}

/**
 * Drives the journeys of one group of paths (paths that differ only in the result a server reply chooses) and records
 * in `f` what they show: refusals, later steps refusing what an earlier one gave, placeholders with no value, paths reached.
 */
async function walkGroup(w: Walk, app: FastifyInstance, group: FlowPath[], f: Findings): Promise<void> {
  const keep = (p: FlowProblem) => {
    if (!f.found.has(`${p.file}#${p.pointer}`)) f.found.set(`${p.file}#${p.pointer}`, p);
  };
  const walked = group[0].steps.slice(0, -1);
  for (const plan of planJourneys(w, group[0])) {
    f.journeys += 1;
    const log: ApiLog[] = [];
    let end: { stepId: string | null; ctx: FlowContext } = { stepId: null, ctx: {} as FlowContext };
    const reports = await replayHeadless(plan.journey, w.product, {
      request: apiVisitor(app, log),
      texts: w.opts.texts,
      finished: (stepId, ctx) => (end = { stepId, ctx }),
    });
    for (const p of laterStepRefusals(w, walked, end.ctx)) keep(p);
    const failed = reports.find((r) => !r.ok);
    if (failed) {
      keep(diagnose(w, failed, plan, log));
      continue;
    }
    const result = end.stepId ? stepById(w.flow, end.stepId) : undefined;
    if (!result || result.kind !== 'result') continue;
    for (const p of group.filter((g) => g.steps.at(-1) === result.id)) {
      f.reached.add(p.name);
      if (!f.drafts.has(p.name)) f.drafts.set(p.name, draftOf(w, plan, result.path));
    }
    for (const p of placeholders(w, result.id, end.ctx)) f.found.set(`${p.file}#${p.pointer}`, p);
  }
}

/**
 * The journeys along `path`: journey j answers every step with its row j (cycling), among the rows that keep the
 * path's conditions on the answers (a condition is kept on the last step on the path whose answers it reads); a
 * path that needs a campaign starts from a campaign link.
 */
function planJourneys({ flow, answers, exampleAnswers }: Walk, path: FlowPath): JourneyPlan[] {
  const walked = path.steps.slice(0, -1);
  const needs = pathConditions(flow, path);
  const reads = (c: PathCondition) => Object.keys(flow.def.conditions[c.when] ?? {});
  const campaign = needs.some((c) => c.holds && reads(c).some((p) => p.startsWith('/campaign')));
  // a condition on the answers is kept when choosing the rows of the last step on the path it reads
  const owner = (c: PathCondition) => {
    const pointers = reads(c);
    if (!pointers.length || !pointers.every((p) => p.startsWith('/answers/'))) return undefined;
    return [...walked].reverse().find((id) => pointers.some((p) => answerRef(p)?.[0] === id));
  };
  const rowsOf = (id: string, before: Json): Row[] => {
    const all = answers.get(id)?.rows ?? [];
    const mine = needs.filter((c) => owner(c) === id);
    const kept = all.filter((r) =>
      mine.every(
        (c) => flow.tests[c.when]({ answers: { ...before, [id]: r.answers }, data: {}, flags: {}, campaign: {}, meta: {} }) === c.holds,
      ),
    );
    return kept.length ? kept : all;
  };
  const plans: JourneyPlan[] = [];
  const n = Math.max(1, ...walked.map((id) => rowsOf(id, exampleAnswers).length));
  for (let j = 0; j < n; j++) {
    const rows: Record<string, Row> = {};
    const so: Json = {};
    const steps: JourneyStep[] = walked.map((id) => {
      const step = stepById(flow, id);
      const candidates = rowsOf(id, so);
      const row = candidates.length ? candidates[j % candidates.length] : undefined;
      if (row) {
        rows[id] = row;
        so[id] = row.answers;
      }
      const given = row ? Object.fromEntries(Object.entries(row.answers).filter(([k]) => !(k in (step.defaults ?? {})))) : undefined;
      return { route: step.path, ...(given && Object.keys(given).length ? { answers: given } : {}) };
    });
    plans.push({ rows, journey: { name: `camino-${j}`, proves: '', url: campaign ? '/?utm_campaign=recorrido' : '/', steps } });
  }
  return plans;
}

/** The call that refused a journey: its name and definition, where it was sent from, the refused field and message. */
interface Refusal {
  name: string;
  call: CallDef;
  refused: ApiLog;
  /** «name» (METHOD /api/path, al enviar el paso «step»). */
  where: string;
  /** The request's field errors (field without /body…), or none when a check or a plain message refused it. */
  errs: { field: string; message: string }[];
  field: string;
  message: string;
}

/** The problem a failed journey shows: which answer, which call, which two places. */
function diagnose(
  w: Walk,
  failed: { index: number; route: string; error?: string; text?: string },
  plan: JourneyPlan,
  log: ApiLog[],
): FlowProblem {
  const { flow, schemas } = w;
  const shown = flow.steps.find((s) => s.path === failed.route)?.id ?? failed.route;
  const refused = [...log].reverse().find((l) => l.status >= 400 || isCheckRefusal(flow, l));
  const named = refused ? callOf(flow, refused.req) : undefined;
  if (!refused || !named) {
    return {
      pointer: `/steps/${flow.def.steps.findIndex((s) => s.id === shown)}`,
      message: `paso «${shown}»: el recorrido con las respuestas generadas se detuvo: ${failed.error ?? ''} ${failed.text ?? ''}`.trim(),
    };
  }
  const r = refusalOf(flow, named, refused, plan, failed.index, shown);
  const { name, call, where, errs, field, message } = r;
  const tokens = parsePointer(field) ?? [];
  const part = call.method === 'GET' ? (call.query as Binding | undefined) : (call.body as Binding | undefined);
  let answerPointer = boundAnswer(part, tokens);
  if (!answerPointer && call.check?.field)
    answerPointer = bindingPointers(part)
      .map((b) => b.pointer)
      .find((p) => p.endsWith(`/${call.check!.field}`));
  const ref = answerPointer ? answerRef(answerPointer) : null;
  const at = `/calls/${escapeToken(name)}/${call.method === 'GET' ? 'query' : 'body'}${field}`;
  const fv: FieldValue | undefined = ref && ref[1] ? plan.rows[ref[0]]?.covers[ref[1]] : undefined;
  const def = requestDef(w.doc, call);
  if (ref && ref[1] && !fv) {
    // the call needs a value the flow does not ask (any more)
    const asked = schemas[ref[0]] && schemaFields(schemas[ref[0]]).includes(ref[1]);
    return {
      file: def?.file ?? 'flow/flow.json',
      pointer: def ? `${def.pointer}/required` : at,
      message: `${where} exige «${tokens.join('/')}» («${message}»), y el flujo lo lee de ${answerPointer} (flow/flow.json#${at}), ${asked ? 'que el paso no envió' : `que el paso «${ref[0]}» no pide (schemas/${ref[0]}.schema.json#/properties)`}: agregá el campo al paso o sacalo de lo que exige el pedido`,
    };
  }
  if (!answerPointer && def && errs.length) {
    return {
      file: def.file,
      pointer: `${def.pointer}/required`,
      message: `${where} exige «${tokens.join('/')}» («${message}») y el flujo no lo manda (flow/flow.json#/calls/${escapeToken(name)}/${call.method === 'GET' ? 'query' : 'body'}): pedilo en un paso y agregalo a la llamada, o sacalo de lo que exige ${def.file}#${def.pointer}`,
    };
  }
  if (!fv || !ref || !ref[1]) {
    return {
      pointer: at,
      message: `${where} rechaza lo que el flujo le manda en ${field || 'el pedido'}: «${message}». Revisá esa lectura en flow/flow.json#${at}`,
    };
  }
  return answerMismatch(w, r, { step: ref[0], field: ref[1] }, fv, def);
}

/** Which call refused a journey and what it said (see Refusal); `shown` is the step the journey stopped on. */
function refusalOf(
  flow: Flow,
  [name, call]: [string, CallDef],
  refused: ApiLog,
  plan: JourneyPlan,
  failedIndex: number,
  shown: string,
): Refusal {
  const sentFrom = plan.journey.steps
    .slice(0, failedIndex + 1)
    .map((fs) => flow.steps.find((s) => s.path === fs.route)?.id ?? '')
    .reverse()
    .find((id) => id && stepCalls(flow, id).includes(name));
  const where = `«${name}» (${call.method} /api${call.path}, al enviar el paso «${sentFrom ?? shown}»)`;
  const errs = ((refused.body?.errors as { field: string; message: string }[] | undefined) ?? []).filter(
    (e) => typeof e.field === 'string',
  );
  const check = call.check;
  const fields = errs.length
    ? errs.map((e) => ({ field: e.field.replace(/^\/(body|query|querystring|params)/, ''), message: e.message }))
    : [
        {
          field: check?.field ? `/${check.field}` : '',
          message: String(getAt(refused.body, check?.message ?? '/message') ?? refused.body?.message ?? ''),
        },
      ];
  return { name, call, refused, where, errs, ...fields[0] };
}

/**
 * A value a step accepts (`fv` of answer `ref`) and the call refuses: the other side is the request schema (when the
 * sent body does not validate against it), the server's check, or the tariff (which has no entry for the value).
 */
function answerMismatch(
  w: Walk,
  { name, call, refused, where, errs, message }: Refusal,
  ref: { step: string; field: string },
  fv: FieldValue,
  def: { file: string; pointer: string } | null,
): FlowProblem {
  const { ajv, tariffFile } = w;
  const answerFile = `schemas/${ref.step}.schema.json`;
  const sent = call.method === 'GET' ? refused.req.query : refused.req.body;
  const wireOk = def ? ajv.validate({ $ref: `${def.file.replace('schemas/api/', '')}#${def.pointer}` }, sent) : true;
  let other: string;
  let hint: string;
  if (!wireOk && def) {
    const e = (ajv.errors ?? [])[0];
    const schemaPath = (e?.schemaPath ?? '').replace(/^#/, '');
    other = `${def.file}#${schemaPath.startsWith('/$defs') ? schemaPath.replace(/\/[^/]+$/, '') : def.pointer}`;
    hint = `alineá el esquema del pedido (${def.file}) con el del paso (${answerFile})`;
  } else if (call.check && !errs.length) {
    other = `flow/flow.json#/calls/${escapeToken(name)}/check (la validación del servidor)`;
    hint = `el paso tiene que rechazar ese valor en su esquema, o el servidor aceptarlo`;
  } else {
    const siblings = (w.answers.get(ref.step)?.values[ref.field] ?? []).map((v) => v.value);
    other = `${tariffFile}#${locateInTariff(JSON.parse(w.tariff) as Json, ref.field, fv.value, siblings)}`;
    hint = `agregá ese valor a la tarifa (${tariffFile}) o sacalo del paso (${answerFile}#${fv.pointer})`;
  }
  return {
    file: answerFile,
    pointer: fv.pointer,
    message: `paso «${ref.step}»: el paso acepta ${ref.field} = ${show(fv.value)} (${fv.why}) y ${where} lo rechaza: «${message}». No coinciden ${answerFile}#${fv.pointer} y ${other}: ${hint}`,
  };
}

/** The plan as a fixture: dates relative to today (`$hoy+N`), ages from the schema's example (a bound goes stale in a day). */
function draftOf({ flow, exampleAnswers }: Walk, plan: JourneyPlan, resultRoute: string): Journey {
  const steps = plan.journey.steps.map((fs) => {
    const id = flow.steps.find((s) => s.path === fs.route)?.id ?? '';
    const row = plan.rows[id];
    if (!fs.answers || !row) return fs;
    const out: Json = {};
    for (const [k, v] of Object.entries(fs.answers)) {
      const c = row.covers[k];
      const example = (exampleAnswers[id] as Json | undefined)?.[k];
      out[k] = c?.fixture !== undefined ? c.fixture : c?.pointer.endsWith('/x-edad') && example !== undefined ? example : v;
    }
    return { ...fs, answers: out };
  });
  return { ...plan.journey, steps: [...steps, { route: resultRoute }] };
}

/** Whether a call answered 2xx but its `check` says the value was refused (e.g. `{ valido: false }`). */
function isCheckRefusal(flow: Flow, l: ApiLog): boolean {
  const named = callOf(flow, l.req);
  const ok = named?.[1].check?.ok;
  return !!ok && l.status < 400 && getAt(l.body, ok) === false;
}

/**
 * A step that takes values from an earlier step (`defaults`) and whose schema refuses what it ended with: the
 * earlier step accepted a value this one does not.
 */
function laterStepRefusals({ flow, schemas, ajv }: Walk, walked: string[], ctx: FlowContext): FlowProblem[] {
  const out: FlowProblem[] = [];
  for (const id of walked) {
    const step = stepById(flow, id);
    const given = (ctx.answers as Record<string, Json> | undefined)?.[id];
    const validate = schemas[id]?.$id ? ajv.getSchema(String(schemas[id].$id)) : undefined;
    if (!step.defaults || !given || !validate || validate(given)) continue;
    for (const e of validate.errors ?? []) {
      const field = e.instancePath.split('/')[1] ?? '';
      const source = (step.defaults as Record<string, unknown>)[field];
      if (typeof source !== 'string') continue;
      const index = flow.def.steps.findIndex((x) => x.id === id);
      const from = answerRef(source);
      out.push({
        file: `schemas/${id}.schema.json`,
        pointer: e.schemaPath.replace(/^#/, ''),
        message: `paso «${id}»: recibe ${field} = ${show(given[field])} de ${source} (flow/flow.json#/steps/${index}/defaults/${escapeToken(field)}), que ${from ? `el paso «${from[0]}» (schemas/${from[0]}.schema.json) acepta` : 'otro paso dio'}, y su esquema lo rechaza (${e.keyword} ${show(e.params)}): hacé que las dos reglas coincidan`,
      });
    }
  }
  return out;
}

/** `{{x}}` in the result step's texts with no value on this journey. */
function placeholders({ flow, opts }: Walk, stepId: string, ctx: FlowContext): FlowProblem[] {
  const step = stepById(flow, stepId);
  const values = step.result?.values ? ((resolveBinding(step.result.values, ctx) ?? {}) as Json) : {};
  const out: FlowProblem[] = [];
  for (const [key, text] of Object.entries((opts.texts[stepId] as Json | undefined) ?? {})) {
    if (typeof text !== 'string') continue;
    for (const m of text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)) {
      const v = values[m[1]];
      if (v === undefined || v === null || v === '') {
        out.push({
          file: 'src/i18n/es.json',
          pointer: `/${escapeToken(stepId)}/${escapeToken(key)}`,
          message: `el texto usa {{${m[1]}}} y el paso «${stepId}» no le da valor${step.result?.values && m[1] in step.result.values ? ` (flow.json result.values.${m[1]} quedó vacío)` : ''}: agregá "${m[1]}" a result.values del paso en flow/flow.json o sacalo del texto`,
        });
      }
    }
  }
  return out;
}
