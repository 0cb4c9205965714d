/**
 * The journey's shared units: the events the shell fires, the effects every feature runs through (HTTP, router,
 * poll delay, the call-preparation hook) and the stores they all read. Features (guards, submit, live changes, …)
 * add their logic over these units; this model has none of its own.
 */
import { createEffect, createEvent, createStore, sample, type Effect } from 'effector';
import type { Flow, FlowContext, FlowState, Migration } from '../core/index.ts';
import type { ApiRequest, StepErrors } from '../calls.ts';
import { emptyState } from '../state.ts';

/** Navigation request for the router shell. */
export interface NavigateRequest {
  stepId: string;
  replace?: boolean;
}

/** What a step's form sends: the step and the form's data (field name → value). */
export interface StepData {
  stepId: string;
  formData: Record<string, unknown>;
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

/** The journey's events: what the visitor or the shell did. */
function createJourneyEvents() {
  return {
    started: createEvent(),
    stateRestored: createEvent<FlowState | null>(),
    routeEntered: createEvent<{ stepId: string; pop: boolean }>(),
    stepSubmitted: createEvent<StepData>(),
    fieldsChanged: createEvent<StepData>(),
    backClicked: createEvent<{ stepId: string }>(),
    editClicked: createEvent<{ stepId: string }>(),
    restartClicked: createEvent(),
    sessionExpired: createEvent(),
    campaignChanged: createEvent<Record<string, string> | null>(),
    /** A notice to show (es.json › app.avisos.<name>) until the next submit — e.g. a resumed quote (engine/resume). */
    noticeShown: createEvent<string>(),
  };
}

/** The side effects every feature goes through; each replaceable in tests with `fork({ handlers })`. */
function createJourneyEffects(opts: EngineOptions) {
  const requestFx: Effect<ApiRequest, unknown> = createEffect<ApiRequest, unknown>(() => {
    throw new Error('requestFx sin handler: conectá el cliente HTTP');
  });
  return {
    requestFx,
    navigateFx: createEffect<NavigateRequest, void>(() => undefined),
    waitFx: createEffect<number, void>((ms) => new Promise<void>((r) => setTimeout(r, ms))),
    // the prepareCall extension point as an effect: awaited inside a call's effect, a plain promise would lose a fork's scope
    prepareFx: createEffect(({ name, ctx }: { name: string; ctx: FlowContext }) => (opts.prepareCall ? opts.prepareCall(name, ctx) : ctx)),
  };
}

/**
 * Creates the journey's units for `opts.flow`. `$context` is what bindings and conditions see: the state plus
 * `campaign` and `meta` (`opts.meta`, default `{}`). `exclude` lists the pointers never persisted (flow › persist).
 */
export function createJourney(opts: EngineOptions) {
  const { flow } = opts;
  const meta = opts.meta ?? {};
  const events = createJourneyEvents();
  const $state = createStore<FlowState>(emptyState(flow));
  const $campaign = createStore<Record<string, string> | null>(null).on(events.campaignChanged, (_, c) => c);
  const $context = sample({
    source: { state: $state, campaign: $campaign },
    fn: ({ state, campaign }): FlowContext => ({ ...state, campaign, meta }),
  });
  return {
    flow,
    exclude: flow.persist?.exclude ?? [],
    ...events,
    ...createJourneyEffects(opts),
    $state,
    $campaign,
    $context,
    $currentStep: createStore<string | null>(null),
    $errors: createStore<Record<string, StepErrors>>({}),
    $loadingMessage: createStore<string | null>(null),
  };
}

export type Journey = ReturnType<typeof createJourney>;
