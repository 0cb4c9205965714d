/**
 * The journey driver: how a journey fixture (flow/journey.schema.json) is played, step by step, whatever plays it.
 * The browser replay (browser.ts: a Playwright page against a deployment) and the headless one (headless.ts: the
 * engine's Effector model in-process) are thin {@link Screen}s over this one loop, so `npm run replay`, the e2e suite
 * (journeys, recorder, flow-edit examples), the flow walker and the API tests follow a fixture by the same rules:
 * - a fixture step is matched to the screen by its `route`, in order; its stubs are served from then on, its
 *   expectations checked, its answers given by field name (only the fields that step asks, follow.ts › answersForStep),
 *   its actions done (default `next`; none on a result step), and the API calls it lists must have been made;
 * - after `next` or `back`, a step the flow shows out of the fixture's order is gone back from or filled in from the
 *   fixture's answers by field name (follow.ts › detour, fillIn), so a reordered or split flow needs no fixture edit;
 * - the replay stops at the first step that fails, and never throws for it: the report names the step and why.
 */
import { stepByPath } from '../../src/engine/core/guards.ts';
import type { Flow, Step } from '../../src/core/flow/types.ts';
import type { Migration } from '../../src/engine/core/migrations.ts';
import type { ExpectedCall, Journey, JourneyAction, JourneyStep, StubbedReply } from '../../src/recorder/journey.ts';
import { callMatches } from './fixture.ts';
import { answersForStep, detour, fillIn } from './follow.ts';

type Json = Record<string, unknown>;

/** What the driver needs of the product: the compiled flow and each step's schema and ui schema. */
export interface Product {
  flow: Flow;
  schemas: Record<string, Json>;
  ui: Record<string, Json>;
  /** flow/migrations/*.json (the headless replay migrates saved state as the app does). */
  migrations?: Migration[];
}

/** One step of the replay report. */
export interface StepReport {
  index: number;
  route: string;
  ok: boolean;
  ms: number;
  error?: string;
  /** On failure: the visible text of the page (browser) or the step's errors (headless). */
  text?: string;
}

/** An API call the app made, with the fixture step it was made in (`step`: index in `journey.steps`). */
export interface MadeCall {
  step: number;
  method: string;
  /** Under /api, e.g. `/cotizaciones`. */
  path: string;
  body?: unknown;
}

/**
 * The API calls of one replay: the fixture's stubbed replies (the journey's, then each step's from its turn on, each
 * used `times` times) and every call made, attributed to the fixture step under way (`step`).
 */
export class CallLog {
  step = 0;
  readonly made: MadeCall[] = [];
  private readonly stubs: (StubbedReply & { left: number })[] = [];

  constructor(stubs?: StubbedReply[]) {
    this.add(stubs);
  }

  add(stubs: StubbedReply[] = []): void {
    for (const s of stubs) this.stubs.push({ ...s, left: s.times ?? Number.POSITIVE_INFINITY });
  }

  /** The stubbed reply for a request (counted as used), or undefined when the fixture does not stub it. */
  stubFor(method: string, path: string): StubbedReply | undefined {
    const stub = this.stubs.find((s) => s.left > 0 && callMatches({ method: s.method, path: s.path }, { method, path }));
    if (stub) stub.left -= 1;
    return stub;
  }

  record(call: Omit<MadeCall, 'step'>): void {
    this.made.push({ step: this.step, ...call });
  }

  /** True when fixture step `index` made the call `want` describes. */
  has(index: number, want: ExpectedCall): boolean {
    return this.made.some((m) => m.step === index && callMatches(want, m));
  }

  /** The message for a call `want` that step `index` did not make, listing the calls it made. */
  missing(index: number, want: ExpectedCall): string {
    const seen = this.made.filter((m) => m.step === index).map((m) => `${m.method} ${m.path}`);
    return `no se llamó ${want.method} ${want.path}${want.body ? ' ' + JSON.stringify(want.body) : ''}; llamadas del paso: ${seen.join(', ') || 'ninguna'}`;
  }
}

/** What a replay plays the journey on: a browser page or the headless engine. Every method may throw (the step fails). */
export interface Screen {
  /** Opens the journey's first URL (a path under the deployment, e.g. `/?utm_source=x`). */
  open(url: string): Promise<void>;
  /** Waits until the screen shows `route` and has settled; throws naming the route it shows instead. */
  arrive(route: string): Promise<void>;
  /**
   * After a move away from `from`: the route shown once it is `want` or another step's, or null when it is neither
   * (in time, for a browser): the screen stayed where it was.
   */
  shown(want: string, from: string): Promise<string | null>;
  /** Checks fixture step `index`'s expectations (and its pinned money) on the screen as it is. */
  check(index: number, fs: JourneyStep, step: Step | undefined): Promise<void>;
  /** The answers step `stepId` already has (restored from a saved journey); count for its required fields in a fill-in. */
  had(stepId: string): Promise<Json>;
  /** Answers step `stepId`'s form with `answers` (field name → value as the fixture writes it, `$hoy+N` included). */
  answer(stepId: string, answers: Json): Promise<void>;
  /** Does a fixture action on the step shown (`stepId`, when the route is a step). */
  act(action: JourneyAction, stepId: string | undefined): Promise<void>;
  /** Resolves to `ready()` once it is true or (a browser, where calls are still leaving) once waiting is over. */
  until(ready: () => boolean): Promise<boolean>;
  /** What the report shows of a failed step: the page's text, the step's errors. */
  failureText(): Promise<string | undefined>;
}

export interface DriveOptions {
  /** Called after each fixture step (to print progress). */
  onStep?: (report: StepReport) => void;
  /** Called with each step id the flow shows, fill-ins included, in order (the route a visitor took). */
  onShown?: (stepId: string) => void;
}

/** The last move of a fixture step's actions: `next` (the default) or `back`, else null (reload, goto, wait, click). */
function lastMove(fs: JourneyStep): 'next' | 'back' | null {
  const last = fs.actions === undefined ? 'next' : fs.actions.at(-1);
  return last === 'next' || last === 'back' ? last : null;
}

/** One replay's state: what it drives, the reports so far, fixture steps used out of order, and the last move. */
interface Drive {
  journey: Journey;
  product: Product;
  screen: Screen;
  calls: CallLog;
  opts: DriveOptions;
  report: (r: StepReport) => void;
  /** Fixture steps already used out of order (follow.ts). */
  used: Set<number>;
  /** The route the last move (the primary button or Back) left, or null after any other action. */
  leaving: { route: string; back: boolean } | null;
}

/**
 * Plays `journey` on `screen`. Never throws for a failed step: the report names it, and the replay stops there.
 * @param calls the replay's call log (the screen records into it and serves its stubs)
 * @returns one report per fixture step reached
 */
export async function driveJourney(
  journey: Journey,
  product: Product,
  screen: Screen,
  calls: CallLog,
  opts: DriveOptions = {},
): Promise<StepReport[]> {
  const reports: StepReport[] = [];
  const report = (r: StepReport) => {
    reports.push(r);
    opts.onStep?.(r);
  };
  const d: Drive = { journey, product, screen, calls, opts, report, used: new Set(), leaving: null };
  await screen.open(journey.url);
  for (const [index, fs] of journey.steps.entries()) {
    if (d.used.has(index)) continue;
    if (!(await followDetours(d, index, fs)) || !(await runStep(d, index, fs))) break;
  }
  return reports;
}

/** Runs fixture step `index` on the screen: its route, stubs, expectations, answers, actions and calls. @returns whether it passed */
async function runStep(d: Drive, index: number, fs: JourneyStep): Promise<boolean> {
  const { product, screen, calls, opts } = d;
  calls.step = index;
  const started = Date.now();
  const step = stepByPath(product.flow, fs.route);
  try {
    await screen.arrive(fs.route);
    if (step) opts.onShown?.(step.id);
    calls.add(fs.stubs);
    await screen.check(index, fs, step);
    if (fs.answers) {
      if (!step) throw new Error(`la ruta ${fs.route} no es un paso del flujo`);
      await screen.answer(step.id, answersForStep(product.schemas, step.id, fs.answers) ?? {});
    }
    const actions = fs.actions ?? (step?.kind === 'result' ? [] : ['next' as const]);
    for (const a of actions) await screen.act(a, step?.id);
    const move = actions.length ? lastMove(fs) : null;
    d.leaving = move ? { route: fs.route, back: move === 'back' } : null;
    for (const want of fs.calls ?? []) {
      if (!(await screen.until(() => calls.has(index, want)))) throw new Error(calls.missing(index, want));
    }
    d.report({ index, route: fs.route, ok: true, ms: Date.now() - started });
    return true;
  } catch (err) {
    d.report({
      index,
      route: fs.route,
      ok: false,
      ms: Date.now() - started,
      error: (err as Error).message.split('\n')[0],
      text: await screen.failureText(),
    });
    return false;
  }
}

/**
 * Before fixture step `index`: the flow shows another step first (steps reordered or split): go back, or answer it
 * from the fixture (follow.ts › detour, fillIn), at most once per step of the flow.
 * @returns false when a detour failed (reported)
 */
async function followDetours(d: Drive, index: number, fs: JourneyStep): Promise<boolean> {
  const { journey, product, screen, calls, opts } = d;
  const { flow } = product;
  let ok = true;
  for (let hops = 0; ok && d.leaving && hops < flow.steps.length; hops++) {
    const shown = await screen.shown(fs.route, d.leaving.route);
    if (shown === null || shown === fs.route) break;
    const here = stepByPath(flow, shown)!;
    const way = detour(flow, journey, index, here.id, d.leaving.back);
    try {
      if (way === 'back') {
        opts.onShown?.(here.id);
        await screen.act('back', here.id);
        d.leaving = { route: shown, back: true };
        continue;
      }
      const fill = way === 'fill' ? fillIn(flow, product.schemas, journey, index, here.id, d.used, await screen.had(here.id)) : null;
      if (!fill) break;
      if (fill.entry !== undefined) {
        d.used.add(fill.entry);
        ok = await runStep(d, fill.entry, journey.steps[fill.entry]);
      } else {
        opts.onShown?.(here.id);
        calls.step = index;
        await screen.answer(here.id, fill.answers);
        await screen.act('next', here.id);
        d.leaving = { route: shown, back: false };
      }
    } catch (err) {
      d.report({ index, route: shown, ok: false, ms: 0, error: (err as Error).message.split('\n')[0], text: await screen.failureText() });
      ok = false;
    }
  }
  return ok;
}
