/**
 * Live changes (re-pricing): as the visitor edits a step, its answers follow the form, and the calls a step declares
 * under `onChange` for the fields that changed run; only the latest change's reply is applied (replies can arrive
 * out of order).
 */
import { attach, createEffect, createStore, sample } from 'effector';
import { escapeToken, setAt, stepById, type CallRef, type Flow, type FlowContext, type FlowState } from '../core/index.ts';
import { errorsOf } from '../calls.ts';
import type { Journey, StepData } from '../journey/index.ts';
import type { CallRunner } from '../submit/index.ts';

/** One live change that runs calls: the step's new data, the calls to run, and its number (latest wins). */
type Change = StepData & { refs: CallRef[]; seq: number };

/** The `onChange` calls of step `stepId` whose fields differ between the stored answers and `formData`, in declared order. */
export function changedCalls(flow: Flow, state: FlowState, { stepId, formData }: StepData): CallRef[] {
  const step = stepById(flow, stepId);
  const before = state.answers[stepId] ?? {};
  return Object.entries(step.onChange ?? {})
    .filter(([field]) => JSON.stringify(before[field]) !== JSON.stringify(formData[field]))
    .flatMap(([, r]) => r);
}

/** Wires `fieldsChanged`: answers follow the form; changed fields' calls run, numbered. `$repricing`: calls under way. */
export function createLiveChanges(journey: Journey, runner: CallRunner) {
  const { flow, $state, $errors, fieldsChanged } = journey;
  const changeFx = attach({
    source: journey.$context,
    mapParams: (p: Change, ctx: FlowContext) => ({ ...p, ctx }),
    effect: createEffect(async ({ stepId, formData, refs, ctx }: Change & { ctx: FlowContext }) =>
      runner.runCalls(refs, setAt(ctx, `/answers/${escapeToken(stepId)}`, formData), stepId),
    ),
  });
  /** Number of the latest live change that runs calls; only its reply is applied. */
  const $changeSeq = createStore(0);
  const changeRequested = sample({
    clock: fieldsChanged,
    source: $state,
    fn: (state, change) => ({ ...change, refs: changedCalls(flow, state, change) }),
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
  const latestChangeDone = sample({
    clock: changeFx.done,
    source: $changeSeq,
    filter: (seq, { params }) => params.seq === seq,
    fn: (_, done) => done,
  });
  $state.on(latestChangeDone, (state, { result }) => ({ ...state, data: result.ctx.data }));
  $errors.on(latestChangeDone, (errors, { params, result }) => ({ ...errors, [params.stepId]: errorsOf(result) }));
  return { $repricing: changeFx.pending };
}
