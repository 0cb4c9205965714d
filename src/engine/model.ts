/**
 * The flow engine's Effector model: the pure core (`./core`) wired to events and effects, built from feature models.
 * It knows nothing of concrete steps — everything step-specific comes from the flow definition.
 *
 * Features, each a factory over the journey's shared units (`./journey`):
 * - `./submit`: the call runner, `callFx` for modules, a step's submit;
 * - `./start`: restore (with migrations) and the flow's start calls;
 * - `./guards`: routes entered against the flags;
 * - `./live-changes`: answers following the form, `onChange` calls (re-pricing);
 * - `./back`: back, edit, restart, session expiry;
 * - `./chat`: the chat module the flow declares.
 * Events (what happened): `started`, `routeEntered`, `stepSubmitted`, `fieldsChanged`, `backClicked`, `editClicked`,
 * `restartClicked`, `sessionExpired`. Effects (every side effect, replaceable in tests with `fork({ handlers })`):
 * `requestFx` (HTTP), `navigateFx` (router), `waitFx` (poll delay).
 */
import type { Step } from './core/index.ts';
import { createBackAndRestart } from './back/index.ts';
import { createChat } from './chat/index.ts';
import { createGuards } from './guards/index.ts';
import { createJourney, type EngineOptions, type Journey } from './journey/index.ts';
import { createLiveChanges } from './live-changes/index.ts';
import { buildAtOnce, type Built } from './scheduler.ts';
import { createStart } from './start/index.ts';
import { createCalls, createSubmit } from './submit/index.ts';

export type { ApiRequest, RunOutcome, StepErrors } from './calls.ts';
export type { EngineOptions, NavigateRequest } from './journey/index.ts';

type WithRunner = Journey & ReturnType<typeof createCalls>;

/**
 * The engine's feature factories in build order (a unit's reducers run in the order they were attached, so the order
 * is part of the behaviour: e.g. a submit keeps the answers before its calls read the context).
 */
export function engineSlices(opts: EngineOptions) {
  return [
    () => createJourney(opts),
    (e: Journey) => createCalls(e, opts),
    (e: WithRunner) => createStart(e, e.runner, opts),
    (e: Journey) => createGuards(e),
    (e: WithRunner) => createSubmit(e, e.runner, opts),
    (e: WithRunner) => createLiveChanges(e, e.runner),
    (e: Journey) => createBackAndRestart(e),
    (e: Journey) => createChat(e),
  ] as const;
}

/** One flow engine: the journey's units plus every feature's. */
export type FlowEngine = Built<ReturnType<typeof engineSlices>>;

/**
 * Creates one engine instance for `flow`, in one go (tests, server-side tools). The app builds the same factories
 * slice by slice with its other modules (./runtime.ts).
 */
export function createFlowEngine(opts: EngineOptions): FlowEngine {
  return buildAtOnce(engineSlices(opts));
}

export type { Step };
