/**
 * Routes and guards (SPEC §4): each route entered is checked against the flags; history moves (back/forward) reset
 * the flags to the route reached and move the house-detail counter with it; a refused route sends the router on.
 */
import { sample } from 'effector';
import {
  counterBack,
  counterForward,
  counterStart,
  flagsForRoute,
  flagsOnEntry,
  isTerminal,
  resolveGuard,
  stepById,
  type Flow,
  type FlowState,
  type Step,
} from '../core/index.ts';
import type { Journey } from '../journey/index.ts';

/**
 * The state after a history move (browser back/forward) to `step`: flags for that route, and the counter moved by
 * the direction of travel in the graph order (never the file order): reaching an earlier step is going back.
 */
export function stateAfterHistoryMove(flow: Flow, state: FlowState, step: Step): FlowState {
  const cur = flow.steps.find((s) => state.flags[s.flag] && s.id !== flow.entry)?.order ?? -1;
  const target = step.order;
  const from = flow.steps.find((s) => s.order === cur);
  const counter = !step.detail
    ? state.numberDetailStep
    : target < cur
      ? counterBack(flow, state.numberDetailStep)
      : target > cur && from?.detail
        ? counterForward(flow, state.numberDetailStep)
        : state.numberDetailStep;
  return { ...state, flags: flagsForRoute(flow, step.id), numberDetailStep: counter };
}

/** The state seen by the guard of route `stepId` (`pop`: reached through history), and the guard's verdict. */
export function checkRoute(flow: Flow, state: FlowState, stepId: string, pop: boolean) {
  const step = stepById(flow, stepId); // an unknown route throws here, whatever the move
  let next = pop && !isTerminal(flow, state.flags) ? stateAfterHistoryMove(flow, state, step) : state;
  if (stepId === flow.entry) {
    const flags = flagsOnEntry(flow, next.flags);
    next = { ...next, flags, numberDetailStep: isTerminal(flow, flags) ? next.numberDetailStep : counterStart(flow) };
  }
  return { state: next, guard: resolveGuard(flow, next.flags, stepId), stepId };
}

/** Wires `routeEntered` to the guard: the current step, its cleared errors, the flags reset, or a redirect. */
export function createGuards(journey: Journey) {
  const { flow, $state, $currentStep, $errors, routeEntered, navigateFx } = journey;
  const guardChecked = sample({
    clock: routeEntered,
    source: $state,
    fn: (state, { stepId, pop }) => checkRoute(flow, state, stepId, pop),
  });
  // when a guard resets (no flag set), then all flags are cleared (SPEC §4)
  $state.on(guardChecked, (_, { state, guard }) => (guard.kind === 'reset' ? { ...state, flags: guard.flags } : state));
  // when the guard allows, then the step is current and its old errors go away
  $currentStep.on(guardChecked, (cur, { guard, stepId }) => (guard.kind === 'allow' ? stepId : cur));
  $errors.on(guardChecked, (errors, { guard, stepId }) =>
    guard.kind === 'allow' ? { ...errors, [stepId]: { fields: {}, banner: null } } : errors,
  );
  // when the guard refuses, then the router goes to its target, replacing the refused URL (query kept by the shell)
  sample({
    clock: guardChecked,
    filter: ({ guard }) => guard.kind !== 'allow',
    fn: ({ guard }) => ({ stepId: (guard as { to: string }).to, replace: true }),
    target: navigateFx,
  });
  return {};
}
