/**
 * Submitting a step and running the flow's calls: the call runner every feature shares, `callFx` for widgets and
 * modules (lists, the click log, the funnel), and a step's submit — its answers kept, its `onSubmit` calls run, then
 * the next step (or its `onError` step) opened, or the errors shown on the form.
 */
import { attach, createEffect, sample } from 'effector';
import {
  counterForward,
  escapeToken,
  flagsForRoute,
  nextStep,
  setAt,
  stepById,
  type Flow,
  type FlowContext,
  type FlowState,
} from '../core/index.ts';
import { errorsOf, type RunOutcome } from '../calls.ts';
import type { EngineOptions, Journey, StepData } from '../journey/index.ts';
import { createCallRunner, type CallRunner } from './runner.ts';

/**
 * The call runner of the journey, and `callFx`: runs one named call of the flow for a widget or a module; its bindings
 * see the context plus `/input` (what the caller passes). @returns the reply; rejects like `requestFx` (no state change).
 */
export function createCalls(journey: Journey, opts: EngineOptions) {
  const runner = createCallRunner(journey, opts);
  const callFx = attach({
    source: journey.$context,
    mapParams: (p: { name: string; input?: unknown }, ctx: FlowContext) => ({ ...p, ctx }),
    effect: createEffect(async ({ name, input, ctx }: { name: string; input?: unknown; ctx: FlowContext }): Promise<unknown> => {
      const call = journey.flow.calls[name];
      if (!call) throw new Error(`Llamada desconocida: ${name}`);
      return runner.runCall(name, call, { ...ctx, input });
    }),
  });
  return { runner, callFx };
}

/** The state after a step's calls ended: their data, and on success the next route's flags, counter and forgotten answers. */
export function stateAfterSubmit(flow: Flow, state: FlowState, stepId: string, result: RunOutcome): FlowState {
  const step = stepById(flow, stepId);
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
}

/** Where the router goes after a step's calls: the next step, the step's `onError` on a banner failure, else nowhere. */
function routeAfterSubmit(flow: Flow, stepId: string, result: RunOutcome): string | null {
  if (result.kind === 'next') return result.to;
  if (result.kind === 'failed' && !result.fields) return stepById(flow, stepId).onError ?? null;
  return null;
}

/** The submit effect: the step's answers set in the context, its `onSubmit` calls run, the next step resolved. */
function createSubmitFx(journey: Journey, runner: CallRunner) {
  const { flow } = journey;
  return attach({
    source: journey.$context,
    mapParams: (p: StepData, ctx: FlowContext) => ({ ...p, ctx }),
    effect: createEffect(async ({ stepId, formData, ctx }: StepData & { ctx: FlowContext }): Promise<RunOutcome> => {
      const step = stepById(flow, stepId);
      const withAnswers = setAt(ctx, `/answers/${escapeToken(stepId)}`, formData);
      const outcome = await runner.runCalls(step.onSubmit ?? [], withAnswers, stepId);
      if (outcome.kind !== 'next') return outcome;
      const next = nextStep(flow, step, outcome.ctx);
      return { ...outcome, to: next?.id ?? null };
    }),
  });
}

/** Wires a step's submit (SPEC §4): answers kept, loader shown, calls run, then state, errors and route follow the outcome. */
export function createSubmit(journey: Journey, runner: CallRunner, opts: Pick<EngineOptions, 'genericError'>) {
  const { flow, $state, $errors, $loadingMessage, stepSubmitted, navigateFx } = journey;
  const submitFx = createSubmitFx(journey, runner);
  // when a step is submitted, then what the visitor typed is kept at once (it survives a failed call)
  $state.on(stepSubmitted, (state, { stepId, formData }) => ({ ...state, answers: { ...state.answers, [stepId]: formData } }));
  sample({ clock: stepSubmitted, target: submitFx });
  // when calls start, then the loader shows the step's message (or the default); a step without calls (SPEC §1: "while
  // loading is on") shows none: its submit moves on at once, and a loader drawn and removed in the same tap would only
  // hold that tap's frame (the whole page rendered twice before the next step)
  $loadingMessage
    .on(submitFx, (shown, { stepId }) => {
      const step = stepById(flow, stepId);
      return step.onSubmit?.length ? (step.loadingMessage ?? 'default') : shown;
    })
    .reset(submitFx.finally);
  // when calls end, then data and outcome-specific errors are stored
  $state.on(submitFx.done, (state, { params, result }) => stateAfterSubmit(flow, state, params.stepId, result));
  $errors.on(submitFx.done, (errors, { params, result }) => ({ ...errors, [params.stepId]: errorsOf(result) }));
  // when calls succeed with a next step, or fail on a step with onError, then the router moves on
  sample({
    clock: submitFx.done,
    filter: ({ params, result }) => routeAfterSubmit(flow, params.stepId, result) !== null,
    fn: ({ params, result }) => ({ stepId: routeAfterSubmit(flow, params.stepId, result) as string }),
    target: navigateFx,
  });
  // an unexpected exception in the engine itself is shown as a banner, never a blank page
  $errors.on(submitFx.fail, (errors, { params }) => ({ ...errors, [params.stepId]: { fields: {}, banner: opts.genericError } }));
  return { submitFx };
}
