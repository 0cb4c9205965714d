/**
 * Replays a journey fixture headless, through the engine's Effector model (`fork` + its events), in milliseconds:
 * the same fixture files the browser replay reads (src/testing/browser.ts). Requests go to `opts.request` (e.g. the
 * real API in-process) unless the fixture stubs them. What it checks: the route of every step, the API calls, field
 * errors, the policy number and what would be persisted; what only a screen shows (texts, premio, test ids, the
 * query) is left to the browser replay.
 *
 * The browser is emulated the way the router drives the engine: `navigateFx` pushes (or replaces) a history entry and
 * enters its route (`routeEntered`); Back pops (`pop: true`); a reload or a cold URL starts a new scope from what was
 * persisted (the funnel's journey id kept, as the tab's session storage keeps it); waiting past the flow's
 * `inactivityMs` fires `sessionExpired`. The campaign module and the staff funnel are wired as the runtime wires them.
 * When the flow shows a step other than the fixture's next one (steps reordered or split), the replay answers it from
 * the fixture's answers by field name (src/testing/follow.ts) and goes on.
 */
import type { RJSFSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { allSettled, attach, fork, sample, type Scope } from 'effector';
import { createCampaignModel, type LogPayload } from '../engine/campaign/index.ts';
import { createFunnel, randomUuid } from '../engine/funnel/index.ts';
import embudoWire from '../../schemas/api/embudo.json' with { type: 'json' };
import type { ApiRequest } from '../engine/calls.ts';
import { resolveBinding } from '../core/flow/bindings.ts';
import { stepById, stepByPath } from '../engine/core/guards.ts';
import { getAt } from '../core/flow/pointer.ts';
import type { FlowContext, FlowState } from '../core/flow/types.ts';
import { createFlowEngine } from '../engine/model.ts';
import { omitPointers } from '../engine/persistence/index.ts';
import { pruneExcluded } from '../form/conditions.ts';
import type { Product, StepReport } from './browser.ts';
import { callMatches, resolveAnswer, type Journey, type JourneyAction, type JourneyStep, type StubbedReply } from './fixture.ts';
import { answersForStep, detour, fillIn } from './follow.ts';
import { checkPinsAt, type PinOptions } from './pins.ts';

type Json = Record<string, unknown>;

export interface HeadlessOptions extends PinOptions {
  /** Performs an API request the fixture does not stub: resolves with the reply, rejects with `{ message, errors? }`. */
  request: (req: ApiRequest) => Promise<unknown>;
  /** es.json, to find a result action by its visible text (`{ click }`). */
  texts?: Json;
  /** Called once the replay ends, with the step shown then and the flow context (the flow walker reads both). */
  finished?: (stepId: string | null, ctx: FlowContext) => void;
}

const validator = customizeValidator({ ajvOptionsOverrides: { strict: false } });

/** The answers a visitor's form would send: the fixture's, over what the step already had (or its defaults), minus excluded fields. */
function formData(product: Product, stepId: string, ctx: FlowContext, answers: Json | undefined): Json {
  const step = stepById(product.flow, stepId);
  const defaults = step.defaults ? (resolveBinding(step.defaults, ctx) as Json) : {};
  const merged: Json = { ...defaults, ...ctx.answers[stepId] };
  for (const [k, v] of Object.entries(answersForStep(product.schemas, stepId, answers) ?? {})) merged[k] = resolveAnswer(v);
  const schema = product.schemas[stepId];
  return schema ? pruneExcluded(validator, schema as RJSFSchema, merged) : merged;
}

/**
 * Replays `journey` through a fresh engine. Never throws for a failed step: the report names it, and the replay stops.
 * @returns one report per step reached
 */
export async function replayHeadless(journey: Journey, product: Product, opts: HeadlessOptions): Promise<StepReport[]> {
  const { flow } = product;
  const stubs: (StubbedReply & { left: number })[] = (journey.stubs ?? []).map((s) => ({ ...s, left: s.times ?? Number.POSITIVE_INFINITY }));
  const made: { step: number; method: string; path: string; body?: unknown }[] = [];
  let index = 0;
  let history: string[] = [];
  let pending: { stepId: string; replace?: boolean }[] = [];
  let idleMs = 0;
  let persisted: unknown = journey.localStorage?.[flow.storageKey] ? JSON.parse(journey.localStorage[flow.storageKey]) : null;

  const engine = createFlowEngine({ flow, genericError: 'Tuvimos un problema.', timeoutError: 'Está demorando.', migrations: product.migrations, meta: { app: 'replay', version: 'replay' } });
  // the campaign module, as the runtime wires it: its click log goes through the flow's call
  const memory = memoryStorage();
  const campaign = createCampaignModel({
    insertLogFx: attach({ effect: engine.callFx, mapParams: (input: LogPayload) => ({ name: flow.campaign?.clickLog ?? '', input }) }),
    storage: () => memory,
    session: () => memory,
    version: 'replay',
  });
  sample({ clock: campaign.$campaign, target: engine.campaignChanged });
  // the staff funnel, as the runtime wires it (flow.json › funnel): flushed before every page load and at the end;
  // every batch marked `sintetico` (a replay never counts in the staff report)
  const funnel = flow.funnel
    ? createFunnel({ engine, call: flow.funnel.call, maxBatch: embudoWire.$defs.EventosBody.properties.eventos.maxItems, journey: { initial: randomUuid(), renew: randomUuid }, synthetic: () => true })
    : null;
  const flushFunnel = async () => {
    if (funnel) await allSettled(funnel.flushed, { scope });
  };
  const handlers = new Map<unknown, unknown>([
    [
      engine.requestFx,
      async (req: ApiRequest) => {
        made.push({ step: index, method: req.method, path: req.path, body: req.body });
        const stub = stubs.find((s) => s.left > 0 && callMatches({ method: s.method, path: s.path }, { method: req.method, path: req.path }));
        if (!stub) return opts.request(req);
        stub.left -= 1;
        if ((stub.status ?? 200) >= 400) throw { status: stub.status, ...(stub.body as Json) };
        return stub.body;
      },
    ],
    [engine.navigateFx, async (nav: { stepId: string; replace?: boolean }) => void pending.push(nav)],
    // poll intervals shortened (a headless replay is not a load test), still real time so the server can move on
    [engine.waitFx, (ms: number) => new Promise<void>((r) => setTimeout(r, Math.min(ms, 25)))],
  ]);
  let scope: Scope = fork({ handlers: handlers as never });

  const current = () => scope.getState(engine.$currentStep);
  const routeOf = (id: string | null) => (id ? stepById(flow, id).path : '');
  const settleNavigations = async () => {
    while (pending.length) {
      const { stepId, replace } = pending.shift()!;
      if (replace && history.length) history[history.length - 1] = stepId;
      else history.push(stepId);
      await allSettled(engine.routeEntered, { scope, params: { stepId, pop: false } });
    }
  };
  /**
   * A page load of `url` in the same browser: persisted state restored, the campaign captured from its query, the
   * route entered. `how`: a first visit, a reload (same history entry) or a URL typed in (a new history entry).
   */
  const load = async (url: string, how: 'first' | 'reload' | 'goto') => {
    const u = new URL(url, 'http://replay');
    const target = stepByPath(flow, decodeURIComponent(u.pathname)) ?? stepById(flow, flow.entry);
    if (how !== 'first') await flushFunnel();
    const keep = funnel && how !== 'first' ? ([[funnel.$journey, scope.getState(funnel.$journey)]] as const) : [];
    scope = fork({ handlers: handlers as never, values: keep as never });
    if (how === 'first') history = [target.id];
    else if (how === 'goto') history.push(target.id);
    pending = [];
    await allSettled(campaign.landed, { scope, params: { search: u.search, userAgent: 'replay', maxTouchPoints: 0 } });
    await allSettled(engine.stateRestored, { scope, params: persisted as FlowState | null });
    await allSettled(engine.started, { scope });
    await allSettled(engine.routeEntered, { scope, params: { stepId: target.id, pop: false } });
    await settleNavigations();
  };
  const persist = () => {
    persisted = JSON.parse(JSON.stringify(omitPointers(scope.getState(engine.$state), engine.exclude)));
  };

  const act = async (action: JourneyAction, stepId: string, answers: Json | undefined) => {
    if (action !== 'reload' && !(typeof action === 'object' && 'wait' in action)) idleMs = 0;
    if (action === 'next') {
      await allSettled(engine.stepSubmitted, { scope, params: { stepId, formData: formData(product, stepId, scope.getState(engine.$context), answers) } });
    } else if (action === 'back') {
      history.pop();
      const previous = history.at(-1);
      if (previous) await allSettled(engine.routeEntered, { scope, params: { stepId: previous, pop: true } });
    } else if (action === 'reload') {
      persist();
      await load(`/${routeOf(current())}`, 'reload');
    } else if ('wait' in action) {
      idleMs += action.wait * 60_000;
      if (flow.inactivityMs && idleMs >= flow.inactivityMs) {
        idleMs = 0;
        await allSettled(engine.sessionExpired, { scope });
      }
    } else if ('goto' in action) {
      persist();
      await load(action.goto, 'goto');
    } else {
      const step = stepById(flow, stepId);
      const texts = (opts.texts?.[stepId] as Json | undefined)?.acciones as Record<string, string> | undefined;
      const target = step.actions?.find((a) => texts?.[a.text] === action.click || a.text === action.click);
      if (!target) throw new Error(`no hay una acción «${action.click}» en ${stepId}`);
      await allSettled(engine.editClicked, { scope, params: { stepId: target.to } });
    }
    await settleNavigations();
    persist();
  };

  const reports: StepReport[] = [];
  /** Fixture steps already used out of order (src/testing/follow.ts). */
  const used = new Set<number>();
  let at = { index: 0, route: '' };
  let lastAction = null as JourneyAction | null;
  /** Runs fixture step `i` on the step shown now: its expectations, answers, actions and calls. */
  const runStep = async (i: number, fs: JourneyStep) => {
    index = i;
    at = { index: i, route: fs.route };
    const started = Date.now();
    const here = current();
    if (routeOf(here) !== fs.route) throw new Error(`ruta /${routeOf(here)}, se esperaba /${fs.route}`);
    const stepId = here as string;
    for (const s of fs.stubs ?? []) stubs.push({ ...s, left: s.times ?? Number.POSITIVE_INFINITY });
    const exp = fs.expect ?? {};
    for (const field of exp.fieldErrors ?? []) {
      if (!scope.getState(engine.$errors)[stepId]?.fields?.[field]) throw new Error(`el campo ${field} no muestra error`);
    }
    if (exp.policyNumber && !/^HOG-\d{4}-\d{6}$/.test(String(getAt(scope.getState(engine.$state), '/data/emision/numSecuPol') ?? ''))) {
      throw new Error('no hay número de póliza');
    }
    checkPinsAt(i, exp as Json, scope.getState(engine.$state), opts);
    const stored = JSON.stringify(omitPointers(scope.getState(engine.$state), engine.exclude));
    for (const secret of exp.storageExcludes ?? []) if (stored.includes(secret)) throw new Error(`el estado persistido guarda "${secret.slice(0, 4)}…"`);
    const step = stepById(flow, stepId);
    for (const a of fs.actions ?? (step.kind === 'result' ? [] : ['next' as const])) {
      await act(a, stepId, fs.answers);
      lastAction = a;
    }
    for (const want of fs.calls ?? []) {
      if (!made.some((m) => m.step === i && callMatches(want, m))) {
        throw new Error(`no se llamó ${want.method} ${want.path}; llamadas del paso: ${made.filter((m) => m.step === i).map((m) => `${m.method} ${m.path}`).join(', ') || 'ninguna'}`);
      }
    }
    reports.push({ index: i, route: fs.route, ok: true, ms: Date.now() - started });
  };
  await load(journey.url, 'first');
  for (const [i, fs] of journey.steps.entries()) {
    if (used.has(i)) continue;
    try {
      at = { index: i, route: fs.route };
      // the flow shows another step first (steps reordered or split): answer it from the fixture (src/testing/follow.ts)
      for (let hops = 0; routeOf(current()) !== fs.route && hops < flow.steps.length; hops++) {
        const here = current();
        const way = here ? detour(flow, journey, i, here, lastAction === 'back') : null;
        if (!here || !way) break;
        if (way === 'back') {
          await act('back', here, undefined);
          if (current() === here) break;
          continue;
        }
        const fill = fillIn(flow, product.schemas, journey, i, here, used, scope.getState(engine.$context).answers[here] ?? {});
        if (!fill) break;
        if (fill.entry !== undefined) {
          used.add(fill.entry);
          await runStep(fill.entry, journey.steps[fill.entry]);
        } else {
          index = i;
          at = { index: i, route: routeOf(here) };
          await act('next', here, fill.answers);
          lastAction = 'next';
        }
        at = { index: i, route: fs.route };
        if (current() === here) break; // not accepted: reported as the route the fixture did not expect
      }
      await runStep(i, fs);
    } catch (err) {
      const errors = scope.getState(engine.$errors)[current() ?? ''];
      reports.push({ index: at.index, route: at.route, ok: false, ms: 0, error: (err as Error).message, text: errors ? JSON.stringify(errors) : undefined });
      break;
    }
  }
  opts.finished?.(current(), scope.getState(engine.$context));
  await flushFunnel();
  return reports;
}

/** A Storage kept in memory (the campaign module's localStorage and sessionStorage during a replay). */
function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, String(v)),
  };
}
