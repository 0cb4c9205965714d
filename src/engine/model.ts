/**
 * The flow engine's Effector model: wires the pure core (`./core`) to events and effects.
 * It knows nothing of concrete steps — everything step-specific comes from the flow definition.
 *
 * Events (what happened): `started`, `routeEntered`, `stepSubmitted`, `fieldsChanged`,
 * `backClicked`, `editClicked`, `restartClicked`, `sessionExpired`.
 * Effects (every side effect, replaceable in tests with `fork({ handlers })`): `requestFx` (HTTP),
 * `navigateFx` (router), `waitFx` (poll delay), plus persistence / campaign / inactivity from their modules.
 */
import { attach, createEffect, createEvent, createStore, sample, type Effect } from 'effector';
import {
  counterBack,
  counterForward,
  counterStart,
  escapeToken,
  flagsForRoute,
  flagsOnEntry,
  getAt,
  isTerminal,
  nextStep,
  migrateState,
  resolveGuard,
  setAt,
  stepById,
  when,
  type CallDef,
  type Migration,
  type CallRef,
  type FlowContext,
  type Flow,
  type FlowState,
  type Step,
} from './core/index.ts';
import { applySave, buildRequest, callName, callWhen, errorsOf, fieldErrorsOf, type ApiRequest, type MessageError, type RunOutcome, type StepErrors } from './calls.ts';
import { emptyState, sanitize, startData } from './state.ts';

export type { ApiRequest, RunOutcome, StepErrors } from './calls.ts';

/** Navigation request for the router shell. */
export interface NavigateRequest {
  stepId: string;
  replace?: boolean;
}

export interface EngineOptions {
  flow: Flow;
  /** Text shown when a call fails without a message of its own. */
  genericError: string;
  /** Poll attempts exhausted. */
  timeoutError: string;
  /** `meta` context for bindings: app label, version, session key, browser. */
  meta?: Record<string, unknown>;
  /** Migrations of saved journeys (flow/migrations/*.json). */
  migrations?: Migration[];
  /**
   * Extension point: awaited before call `name` resolves its bindings; returns the context it sees (e.g. with a
   * proof-of-work solution under /meta: engine/proof-of-work). Never changes the state. Default: none.
   */
  prepareCall?: (name: string, ctx: FlowContext) => Promise<FlowContext>;
}

/**
 * Creates one engine instance for `flow`, in one go (tests, server-side tools). The app starts it with
 * {@link createFlowEngineInParts}.
 */
export function createFlowEngine(opts: EngineOptions): FlowEngine {
  const parts = engineParts(opts);
  for (;;) {
    const step = parts.next();
    if (step.done) return step.value;
  }
}

/**
 * Creates the engine as {@link createFlowEngine} does, awaiting `pause` between its parts (a handful of units each): on a phone, creating every unit at once was one ~40 ms task (~160 ms at 4×
 * CPU) while the page starts (issue 9).
 */
export async function createFlowEngineInParts(opts: EngineOptions, pause: () => Promise<void>): Promise<FlowEngine> {
  const parts = engineParts(opts);
  for (;;) {
    const step = parts.next();
    if (step.done) return step.value;
    await pause();
  }
}

/** The engine's creation as a generator: each `yield` is a point where the caller may let the browser run. */
function* engineParts(opts: EngineOptions) {
  const { flow } = opts;
  const meta = opts.meta ?? {};
  const exclude = flow.persist?.exclude ?? [];

  // ---- units ------------------------------------------------------------------------------
  const started = createEvent();
  const stateRestored = createEvent<FlowState | null>();
  const routeEntered = createEvent<{ stepId: string; pop: boolean }>();
  const stepSubmitted = createEvent<{ stepId: string; formData: Record<string, unknown> }>();
  const fieldsChanged = createEvent<{ stepId: string; formData: Record<string, unknown> }>();
  const backClicked = createEvent<{ stepId: string }>();
  const editClicked = createEvent<{ stepId: string }>();
  const restartClicked = createEvent();
  const sessionExpired = createEvent();
  const campaignChanged = createEvent<Record<string, string> | null>();
  /** A notice to show (es.json › app.avisos.<name>) until the next submit — e.g. a resumed quote (engine/resume). */
  const noticeShown = createEvent<string>();

  const requestFx: Effect<ApiRequest, unknown> = createEffect<ApiRequest, unknown>(() => {
    throw new Error('requestFx sin handler: conectá el cliente HTTP');
  });
  const navigateFx = createEffect<NavigateRequest, void>(() => undefined);
  const waitFx = createEffect<number, void>((ms) => new Promise<void>((r) => setTimeout(r, ms)));
  // the prepareCall extension point as an effect: awaited inside a call's effect, a plain promise would lose a fork's scope
  const prepareFx = createEffect(({ name, ctx }: { name: string; ctx: FlowContext }) => (opts.prepareCall ? opts.prepareCall(name, ctx) : ctx));

  const $state = createStore<FlowState>(emptyState(flow));
  const $campaign = createStore<Record<string, string> | null>(null).on(campaignChanged, (_, c) => c);
  const $currentStep = createStore<string | null>(null);
  const $errors = createStore<Record<string, StepErrors>>({});
  const $loadingMessage = createStore<string | null>(null);

  const $context = sample({
    source: { state: $state, campaign: $campaign },
    fn: ({ state, campaign }): FlowContext => ({ ...state, campaign, meta }),
  });

  yield;
  // ---- running calls ------------------------------------------------------------------------
  /** Runs one call (with polling) and returns its reply. */
  async function runCall(name: string, call: CallDef, plain: FlowContext): Promise<unknown> {
    const ctx = opts.prepareCall ? await prepareFx({ name, ctx: plain }) : plain;
    const request = buildRequest(call, ctx);
    if (!call.poll) return requestFx(request);
    for (let attempt = 1; attempt <= call.poll.maxAttempts; attempt++) {
      const reply = await requestFx(request);
      if (when(flow, call.poll.until, { ...ctx, response: reply })) return reply;
      if (attempt < call.poll.maxAttempts) await waitFx(call.poll.intervalMs);
    }
    throw { message: opts.timeoutError } satisfies MessageError;
  }

  /** Runs `refs` in order over `ctx`; stops at the first failed check or failed required call. */
  async function runCalls(refs: CallRef[], start: FlowContext, stepId?: string): Promise<RunOutcome> {
    let ctx = start;
    for (const ref of refs) {
      if (!when(flow, callWhen(ref), ctx)) continue;
      const call = flow.calls[callName(ref)];
      let reply: unknown;
      try {
        reply = await runCall(callName(ref), call, ctx);
      } catch (error) {
        if (call.optional) {
          console.error(`Llamada opcional "${callName(ref)}" falló`, (error as MessageError)?.message ?? error);
          continue;
        }
        const err = error as MessageError;
        if (stepId && Array.isArray(err?.errors) && err.errors.length) {
          const { fields, rest } = fieldErrorsOf(call, stepId, err.errors);
          if (Object.keys(fields).length && !rest.length) return { kind: 'failed', ctx, message: err.message || opts.genericError, fields };
        }
        return { kind: 'failed', ctx, message: err?.message || opts.genericError };
      }
      if (call.check && getAt(reply, call.check.ok) !== true) {
        const message = call.check.message ? getAt(reply, call.check.message) : undefined;
        const named = call.check.fieldFrom ? getAt(reply, call.check.fieldFrom) : undefined;
        const field = typeof named === 'string' && named ? named : call.check.field;
        return { kind: 'invalid', ctx, field, message: typeof message === 'string' && message ? message : opts.genericError };
      }
      ctx = applySave(call, reply, ctx);
    }
    return { kind: 'next', ctx, to: null };
  }

  const submitFx = attach({
    source: $context,
    mapParams: (p: { stepId: string; formData: Record<string, unknown> }, ctx: FlowContext) => ({ ...p, ctx }),
    effect: createEffect(async ({ stepId, formData, ctx }: { stepId: string; formData: Record<string, unknown>; ctx: FlowContext }): Promise<RunOutcome> => {
      const step = stepById(flow, stepId);
      const withAnswers = setAt(ctx, `/answers/${escapeToken(stepId)}`, formData);
      const outcome = await runCalls(step.onSubmit ?? [], withAnswers, stepId);
      if (outcome.kind !== 'next') return outcome;
      const next = nextStep(flow, step, outcome.ctx);
      return { ...outcome, to: next?.id ?? null };
    }),
  });

  const changeFx = attach({
    source: $context,
    mapParams: (p: { stepId: string; formData: Record<string, unknown>; refs: CallRef[]; seq: number }, ctx: FlowContext) => ({ ...p, ctx }),
    effect: createEffect(async ({ stepId, formData, refs, ctx }: { stepId: string; formData: Record<string, unknown>; refs: CallRef[]; seq: number; ctx: FlowContext }) =>
      runCalls(refs, setAt(ctx, `/answers/${escapeToken(stepId)}`, formData), stepId),
    ),
  });
  /** Number of the latest live change that runs calls; only its reply is applied (replies can arrive out of order). */
  const $changeSeq = createStore(0);

  /**
   * Runs one named call of the flow for a widget or a module (lists, the campaign click log): its bindings see the
   * context plus `/input` (what the caller passes). @returns the reply; rejects like `requestFx` (no state change).
   */
  yield;
  const callFx = attach({
    source: $context,
    mapParams: (p: { name: string; input?: unknown }, ctx: FlowContext) => ({ ...p, ctx }),
    effect: createEffect(async ({ name, input, ctx }: { name: string; input?: unknown; ctx: FlowContext }): Promise<unknown> => {
      const call = flow.calls[name];
      if (!call) throw new Error(`Llamada desconocida: ${name}`);
      return runCall(name, call, { ...ctx, input });
    }),
  });

  const startCallsFx = attach({
    source: $context,
    effect: createEffect(async (ctx: FlowContext) => runCalls(flow.onStart ?? [], ctx)),
  });

  yield;
  // ---- start-up ----------------------------------------------------------------------------
  // when restored state arrives, then it replaces the fresh one (SPEC §4: restored at start-up)
  const migrated = sample({
    clock: stateRestored,
    filter: (restored): restored is FlowState => !!restored && typeof restored === 'object',
    fn: (restored) => ({ restored, state: migrateState(restored as FlowState, flow, opts.migrations ?? []) }),
  });
  $state.on(migrated, (state, { state: current }) => (current ? sanitize(flow, current) : state));
  // when a saved journey is from a flow version no migration reaches, then the visitor starts over, and is told so
  const $notice = createStore<string | null>(null)
    .on(migrated, (_, { state }) => (state ? null : 'flujoActualizado'))
    .on(noticeShown, (_, notice) => notice)
    .reset(stepSubmitted);
  // when the app starts, then the flow's start calls run (chat flag)
  sample({ clock: started, target: startCallsFx });
  // when start calls end, then their saved data lands in the state
  $state.on(startCallsFx.doneData, (state, outcome) => ({ ...state, data: { ...state.data, ...outcome.ctx.data } }));

  yield;
  // ---- routes and guards (SPEC §4) -----------------------------------------------------------
  const guardChecked = sample({
    clock: routeEntered,
    source: $state,
    fn: (state, { stepId, pop }) => {
      const step = stepById(flow, stepId);
      let next = state;
      if (pop && !isTerminal(flow, state.flags)) {
        // back/forward through history: flags reset to the route reached; counter moves with it
        // positions in the graph order (never the file order): reaching an earlier step is going back
        const cur = flow.steps.find((s) => state.flags[s.flag] && s.id !== flow.entry)?.order ?? -1;
        const target = step.order;
        const from = flow.steps.find((s) => s.order === cur);
        const counter = !step.detail ? state.numberDetailStep
          : target < cur ? counterBack(flow, state.numberDetailStep)
          : target > cur && from?.detail ? counterForward(flow, state.numberDetailStep)
          : state.numberDetailStep;
        next = { ...state, flags: flagsForRoute(flow, stepId), numberDetailStep: counter };
      }
      if (stepId === flow.entry) {
        const flags = flagsOnEntry(flow, next.flags);
        next = { ...next, flags, numberDetailStep: isTerminal(flow, flags) ? next.numberDetailStep : counterStart(flow) };
      }
      return { state: next, guard: resolveGuard(flow, next.flags, stepId), stepId };
    },
  });
  // when a guard resets (no flag set), then all flags are cleared (SPEC §4)
  $state.on(guardChecked, (_, { state, guard }) => (guard.kind === 'reset' ? { ...state, flags: guard.flags } : state));
  // when the guard allows, then the step is current and its old errors go away
  $currentStep.on(guardChecked, (cur, { guard, stepId }) => (guard.kind === 'allow' ? stepId : cur));
  $errors.on(guardChecked, (errors, { guard, stepId }) => (guard.kind === 'allow' ? { ...errors, [stepId]: { fields: {}, banner: null } } : errors));
  // when the guard refuses, then the router goes to its target, replacing the refused URL (query kept by the shell)
  sample({
    clock: guardChecked,
    filter: ({ guard }) => guard.kind !== 'allow',
    fn: ({ guard }) => ({ stepId: (guard as { to: string }).to, replace: true }),
    target: navigateFx,
  });

  // ---- submitting a step ---------------------------------------------------------------------
  // when a step is submitted, then what the visitor typed is kept at once (it survives a failed call)
  $state.on(stepSubmitted, (state, { stepId, formData }) => ({ ...state, answers: { ...state.answers, [stepId]: formData } }));
  sample({ clock: stepSubmitted, target: submitFx });
  // when calls start, then the loader shows the step's message (or the default)
  $loadingMessage
    .on(submitFx, (_, { stepId }) => stepById(flow, stepId).loadingMessage ?? 'default')
    .reset(submitFx.finally);
  // when calls end, then data and outcome-specific errors are stored
  $state.on(submitFx.done, (state, { params, result }) => {
    const step = stepById(flow, params.stepId);
    let next: FlowState = { ...state, data: result.ctx.data };
    if (result.kind === 'next' && result.to) {
      const target = stepById(flow, result.to);
      for (const pointer of step.forget ?? []) next = setAt(next, pointer, undefined);
      next = { ...next, flags: flagsForRoute(flow, target.id) };
      if (step.detail && target.detail) next = { ...next, numberDetailStep: counterForward(flow, state.numberDetailStep) };
    } else if (result.kind === 'failed' && !result.fields && step.onError) {
      next = { ...next, flags: flagsForRoute(flow, step.onError), data: { ...next.data, error: { message: result.message } } };
    }
    return next;
  });
  $errors.on(submitFx.done, (errors, { params, result }) => ({ ...errors, [params.stepId]: errorsOf(result) }));
  // when calls succeed with a next step, or fail on a step with onError, then the router moves on
  sample({
    clock: submitFx.done,
    filter: ({ params, result }) => (result.kind === 'next' && !!result.to) || (result.kind === 'failed' && !result.fields && !!stepById(flow, params.stepId).onError),
    fn: ({ params, result }) => ({ stepId: result.kind === 'next' ? (result.to as string) : (stepById(flow, params.stepId).onError as string) }),
    target: navigateFx,
  });
  // an unexpected exception in the engine itself is shown as a banner, never a blank page
  $errors.on(submitFx.fail, (errors, { params }) => ({ ...errors, [params.stepId]: { fields: {}, banner: opts.genericError } }));

  yield;
  // ---- live changes (re-pricing) -----------------------------------------------------------
  const changeRequested = sample({
    clock: fieldsChanged,
    source: $state,
    fn: (state, { stepId, formData }) => {
      const step = stepById(flow, stepId);
      const before = state.answers[stepId] ?? {};
      const refs = Object.entries(step.onChange ?? {})
        .filter(([field]) => JSON.stringify(before[field]) !== JSON.stringify(formData[field]))
        .flatMap(([, r]) => r);
      return { stepId, formData, refs };
    },
  });
  // when a field changes, then the answers follow it (a reload keeps what was typed) — after the diff above was taken
  $state.on(changeRequested, (state, { stepId, formData }) => ({ ...state, answers: { ...state.answers, [stepId]: formData } }));
  // when a field with onChange calls changes, then they run (e.g. re-price optional coverages), numbered
  const changeStarted = sample({
    clock: changeRequested,
    source: $changeSeq,
    filter: (_, { refs }) => refs.length > 0,
    fn: (seq, change) => ({ ...change, seq: seq + 1 }),
  });
  $changeSeq.on(changeStarted, (_, { seq }) => seq);
  sample({ clock: changeStarted, target: changeFx });
  // when live calls end, then their reply is applied only if no newer change started meanwhile
  const latestChangeDone = sample({ clock: changeFx.done, source: $changeSeq, filter: (seq, { params }) => params.seq === seq, fn: (_, done) => done });
  $state.on(latestChangeDone, (state, { result }) => ({ ...state, data: result.ctx.data }));
  $errors.on(latestChangeDone, (errors, { params, result }) => ({ ...errors, [params.stepId]: errorsOf(result) }));

  yield;
  // ---- back, edit, restart, inactivity ----------------------------------------------------------
  // when back is clicked, then the target's flag is set and the detail counter goes −0.1 (SPEC §4)
  const backTarget = sample({ clock: backClicked, fn: ({ stepId }) => stepById(flow, stepId) });
  $state.on(backTarget, (state, step) => {
    const target = step.back ? stepById(flow, step.back) : undefined;
    if (!target) return state;
    return {
      ...state,
      flags: flagsForRoute(flow, target.id),
      numberDetailStep: step.detail ? counterBack(flow, state.numberDetailStep) : state.numberDetailStep,
    };
  });
  sample({ clock: backTarget, filter: (s) => !!s.back, fn: (s) => ({ stepId: s.back as string }), target: navigateFx });
  // when "edit" is clicked on a review, then that step is opened with its flag
  $state.on(editClicked, (state, { stepId }) => ({ ...state, flags: flagsForRoute(flow, stepId) }));
  sample({ clock: editClicked, target: navigateFx });
  // when the visitor starts over (thank-you / error screen), then everything but the chat flag is cleared
  $state.on(restartClicked, (state) => ({ ...emptyState(flow), data: startData(flow, state.data) }));
  sample({ clock: restartClicked, fn: () => ({ stepId: flow.entry }), target: navigateFx });
  // when the session expires, then unless success/error the quote and flags are cleared and step 1 opens (SPEC §4)
  const expiredMidJourney = sample({ clock: sessionExpired, source: $state, filter: (state) => !isTerminal(flow, state.flags) });
  $state.on(expiredMidJourney, (state) => ({ ...emptyState(flow), data: startData(flow, state.data) }));
  sample({ clock: expiredMidJourney, fn: () => ({ stepId: flow.entry, replace: true }), target: navigateFx });

  const $chatEnabled = $state.map((state) => (flow.chat ? when(flow, flow.chat.enabledWhen, state) : false));
  const $chatPhone = $state.map((state) => (flow.chat?.phone ? ((getAt(state, flow.chat.phone) as string | undefined) ?? null) : null));
  const $repricing = changeFx.pending;

  return {
    flow,
    exclude,
    // events
    started,
    stateRestored,
    routeEntered,
    stepSubmitted,
    fieldsChanged,
    backClicked,
    editClicked,
    restartClicked,
    sessionExpired,
    campaignChanged,
    noticeShown,
    // effects
    requestFx,
    navigateFx,
    waitFx,
    submitFx,
    callFx,
    // stores
    $state,
    $campaign,
    $context,
    $currentStep,
    $errors,
    $loadingMessage,
    $chatEnabled,
    $chatPhone,
    $repricing,
    $notice,
  };
}

export type FlowEngine = ReturnType<typeof engineParts> extends Generator<unknown, infer E> ? E : never;

export type { Step };
