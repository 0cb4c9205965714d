/**
 * Replays a journey fixture headless, through the engine's Effector model (`fork` + its events), in milliseconds:
 * the same fixture files the browser replay reads (tools/replay/browser.ts). Requests go to `opts.request` (e.g. the
 * real API in-process) unless the fixture stubs them. What it checks: the route of every step, the API calls, field
 * errors, the policy number and what would be persisted; what only a screen shows (texts, premio, test ids, the
 * query) is left to the browser replay.
 *
 * The browser is emulated the way the router drives the engine: `navigateFx` pushes (or replaces) a history entry and
 * enters its route (`routeEntered`); Back pops (`pop: true`); a reload or a cold URL starts a new scope from what was
 * persisted (the funnel's journey id kept, as the tab's session storage keeps it); waiting past the flow's
 * `inactivityMs` ends the session. The campaign module, the staff funnel and the session end are wired by the app's
 * own `wireRuntime` (src/engine/wire.ts).
 * The engine is a {@link Screen} of the journey driver (driver.ts), which plays the fixture as the browser replay
 * does: the same step order, fill-ins for a reordered or split flow, calls and stubs.
 */
import type { RJSFSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { allSettled, fork, type Scope } from 'effector';
import { randomUuid } from '../../src/engine/funnel/index.ts';
import type { ApiRequest } from '../../src/engine/calls.ts';
import { resolveBinding } from '../../src/core/flow/bindings.ts';
import { stepById, stepByPath } from '../../src/engine/core/guards.ts';
import { getAt } from '../../src/core/flow/pointer.ts';
import type { FlowContext, FlowState } from '../../src/core/flow/types.ts';
import { createFlowEngine, type FlowEngine } from '../../src/engine/model.ts';
import { omitPointers } from '../../src/engine/persistence/index.ts';
import { pruneExcluded } from '../../src/form/conditions.ts';
import { wireRuntime } from '../../src/engine/wire.ts';
import { CallLog, driveJourney, type DriveOptions, type Product, type Screen, type StepReport } from './driver.ts';
import { resolveAnswer, type Journey, type JourneyAction, type JourneyStep } from './fixture.ts';
import { checkPinsAt, type PinOptions } from '../../src/recorder/pins.ts';

type Json = Record<string, unknown>;

export interface HeadlessOptions extends PinOptions, DriveOptions {
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
  for (const [k, v] of Object.entries(answers ?? {})) merged[k] = resolveAnswer(v);
  const schema = product.schemas[stepId];
  return schema ? pruneExcluded(validator, schema as RJSFSchema, merged) : merged;
}

/**
 * Replays `journey` through a fresh engine. Never throws for a failed step: the report names it, and the replay stops.
 * @returns one report per step reached
 */
export async function replayHeadless(journey: Journey, product: Product, opts: HeadlessOptions): Promise<StepReport[]> {
  const { flow } = product;
  const calls = new CallLog(journey.stubs);
  const engine = createFlowEngine({
    flow,
    genericError: 'Tuvimos un problema.',
    timeoutError: 'Está demorando.',
    migrations: product.migrations,
    meta: { app: 'replay', version: 'replay' },
  });
  // the campaign module, the staff funnel and the session end, wired as the app's runtime wires them (wire.ts): storage
  // in memory; every funnel batch marked `sintetico` (a replay never counts in the staff report); the funnel flushed
  // before every page load and at the end
  const memory = memoryStorage();
  const runtime = await wireRuntime(engine, {
    storage: () => memory,
    session: () => memory,
    journey: { initial: randomUuid(), renew: randomUuid },
    synthetic: () => true,
  });
  const page = new HeadlessPage(product, engine, runtime, calls, opts);
  page.persisted = journey.localStorage?.[flow.storageKey] ? JSON.parse(journey.localStorage[flow.storageKey]) : null;
  const reports = await driveJourney(journey, product, page.screen(), calls, opts);
  opts.finished?.(page.current(), page.scope.getState(engine.$context));
  await page.flushFunnel();
  return reports;
}

/**
 * One browser tab, headless: the engine in an effector scope (a new one per page load), the tab's history, the
 * navigations the engine asked for and not yet entered, the persisted state (localStorage) and idle time.
 */
class HeadlessPage {
  scope: Scope;
  history: string[] = [];
  pending: { stepId: string; replace?: boolean }[] = [];
  idleMs = 0;
  /** What the app keeps in localStorage between page loads. */
  persisted: unknown = null;
  /** The answers the next `next` submits, given to the step shown (cleared as each fixture step arrives). */
  answering: { stepId: string; answers: Json } | null = null;
  private readonly handlers: Map<unknown, unknown>;
  private readonly product: Product;
  private readonly engine: FlowEngine;
  private readonly runtime: Awaited<ReturnType<typeof wireRuntime>>;
  private readonly opts: HeadlessOptions;

  constructor(
    product: Product,
    engine: FlowEngine,
    runtime: Awaited<ReturnType<typeof wireRuntime>>,
    calls: CallLog,
    opts: HeadlessOptions,
  ) {
    this.product = product;
    this.engine = engine;
    this.runtime = runtime;
    this.opts = opts;
    this.handlers = new Map<unknown, unknown>([
      [
        engine.requestFx,
        async (req: ApiRequest) => {
          calls.record({ method: req.method, path: req.path, body: req.body });
          const stub = calls.stubFor(req.method, req.path);
          if (!stub) return opts.request(req);
          if ((stub.status ?? 200) >= 400) throw { status: stub.status, ...(stub.body as Json) };
          return stub.body;
        },
      ],
      [engine.navigateFx, async (nav: { stepId: string; replace?: boolean }) => void this.pending.push(nav)],
      // poll intervals shortened (a headless replay is not a load test), still real time so the server can move on
      [engine.waitFx, (ms: number) => new Promise<void>((r) => setTimeout(r, Math.min(ms, 25)))],
    ]);
    this.scope = fork({ handlers: this.handlers as never });
  }

  current = () => this.scope.getState(this.engine.$currentStep);
  routeOf = (id: string | null) => (id ? stepById(this.product.flow, id).path : '');

  async flushFunnel(): Promise<void> {
    if (this.runtime.funnel) await allSettled(this.runtime.funnel.flushed, { scope: this.scope });
  }

  /** Enters the routes the engine navigated to, in order (a `replace` takes the place of the current history entry). */
  async settleNavigations(): Promise<void> {
    while (this.pending.length) {
      const { stepId, replace } = this.pending.shift()!;
      if (replace && this.history.length) this.history[this.history.length - 1] = stepId;
      else this.history.push(stepId);
      await allSettled(this.engine.routeEntered, { scope: this.scope, params: { stepId, pop: false } });
    }
  }

  /**
   * A page load of `url` in the same browser: persisted state restored, the campaign captured from its query, the
   * route entered. `how`: a first visit, a reload (same history entry) or a URL typed in (a new history entry).
   */
  async load(url: string, how: 'first' | 'reload' | 'goto'): Promise<void> {
    const { engine, runtime } = this;
    const { flow } = this.product;
    const u = new URL(url, 'http://replay');
    const target = stepByPath(flow, decodeURIComponent(u.pathname)) ?? stepById(flow, flow.entry);
    if (how !== 'first') await this.flushFunnel();
    const keep =
      runtime.funnel && how !== 'first' ? ([[runtime.funnel.$journey, this.scope.getState(runtime.funnel.$journey)]] as const) : [];
    const scope = (this.scope = fork({ handlers: this.handlers as never, values: keep as never }));
    if (how === 'first') this.history = [target.id];
    else if (how === 'goto') this.history.push(target.id);
    this.pending = [];
    await allSettled(runtime.campaign.landed, { scope, params: { search: u.search, userAgent: 'replay', maxTouchPoints: 0 } });
    await allSettled(engine.stateRestored, { scope, params: this.persisted as FlowState | null });
    await allSettled(engine.started, { scope });
    await allSettled(engine.routeEntered, { scope, params: { stepId: target.id, pop: false } });
    await this.settleNavigations();
  }

  persist(): void {
    this.persisted = JSON.parse(JSON.stringify(omitPointers(this.scope.getState(this.engine.$state), this.engine.exclude)));
  }

  /** Does a fixture action on step `stepId`: next (with the answers given), back, reload, wait, goto or a result action's click. */
  async act(action: JourneyAction, stepId: string): Promise<void> {
    const { engine, scope } = this;
    const { flow } = this.product;
    if (action !== 'reload' && !(typeof action === 'object' && 'wait' in action)) this.idleMs = 0;
    if (action === 'next') {
      const answers = this.answering?.stepId === stepId ? this.answering.answers : undefined;
      await allSettled(engine.stepSubmitted, {
        scope,
        params: { stepId, formData: formData(this.product, stepId, scope.getState(engine.$context), answers) },
      });
    } else if (action === 'back') {
      this.history.pop();
      const previous = this.history.at(-1);
      if (previous) await allSettled(engine.routeEntered, { scope, params: { stepId: previous, pop: true } });
    } else if (action === 'reload') {
      this.persist();
      await this.load(`/${this.routeOf(this.current())}`, 'reload');
    } else if ('wait' in action) {
      this.idleMs += action.wait * 60_000;
      if (flow.inactivityMs && this.idleMs >= flow.inactivityMs) {
        this.idleMs = 0;
        await allSettled(this.runtime.sessionEnded, { scope });
      }
    } else if ('goto' in action) {
      this.persist();
      await this.load(action.goto, 'goto');
    } else {
      const step = stepById(flow, stepId);
      const texts = (this.opts.texts?.[stepId] as Json | undefined)?.acciones as Record<string, string> | undefined;
      const target = step.actions?.find((a) => texts?.[a.text] === action.click || a.text === action.click);
      if (!target) throw new Error(`no hay una acción «${action.click}» en ${stepId}`);
      await allSettled(engine.editClicked, { scope, params: { stepId: target.to } });
    }
    await this.settleNavigations();
    this.persist();
  }

  /** Checks fixture step `index`'s expectations: field errors shown, the policy number, pinned money, what is not persisted. */
  check(index: number, fs: JourneyStep): void {
    const { engine, scope } = this;
    const stepId = this.current() as string;
    const exp = fs.expect ?? {};
    for (const field of exp.fieldErrors ?? []) {
      if (!scope.getState(engine.$errors)[stepId]?.fields?.[field]) throw new Error(`el campo ${field} no muestra error`);
    }
    if (exp.policyNumber && !/^HOG-\d{4}-\d{6}$/.test(String(getAt(scope.getState(engine.$state), '/data/emision/numSecuPol') ?? ''))) {
      throw new Error('no hay número de póliza');
    }
    checkPinsAt(index, exp as Json, scope.getState(engine.$state), this.opts);
    const stored = JSON.stringify(omitPointers(scope.getState(engine.$state), engine.exclude));
    for (const secret of exp.storageExcludes ?? [])
      if (stored.includes(secret)) throw new Error(`el estado persistido guarda "${secret.slice(0, 4)}…"`);
  }

  /** The page as the journey driver sees it (driver.ts › Screen). */
  screen(): Screen {
    const { engine } = this;
    return {
      open: (url) => this.load(url, 'first'),
      arrive: async (route) => {
        this.answering = null;
        if (this.routeOf(this.current()) !== route) throw new Error(`ruta /${this.routeOf(this.current())}, se esperaba /${route}`);
      },
      shown: async (want, from) => {
        const route = this.routeOf(this.current());
        return route === want || (route !== from && stepByPath(this.product.flow, route)) ? route : null;
      },
      check: async (index, fs) => this.check(index, fs),
      had: async (stepId) => this.scope.getState(engine.$context).answers[stepId] ?? {},
      answer: async (stepId, answers) => {
        this.answering = { stepId, answers };
      },
      act: (action, stepId) => this.act(action, stepId ?? (this.current() as string)),
      until: async (ready) => ready(),
      failureText: async () => {
        const errors = this.scope.getState(engine.$errors)[this.current() ?? ''];
        return errors ? JSON.stringify(errors) : undefined;
      },
    };
  }
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
