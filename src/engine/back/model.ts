/**
 * Back, edit, restart and session expiry (SPEC §4): each sets the flags of the route it opens (and moves the
 * house-detail counter back on a detail step), or clears the journey — keeping only what the start calls saved.
 */
import { sample } from 'effector';
import { counterBack, flagsForRoute, isTerminal, stepById, type Flow, type FlowState, type Step } from '../core/index.ts';
import type { Journey } from '../journey/index.ts';
import { emptyState, startData } from '../state.ts';

/** The state after Back on `step`: its `back` target's flags, the counter −1 step on a detail step; unchanged without `back`. */
export function stateAfterBack(flow: Flow, state: FlowState, step: Step): FlowState {
  const target = step.back ? stepById(flow, step.back) : undefined;
  if (!target) return state;
  return {
    ...state,
    flags: flagsForRoute(flow, target.id),
    numberDetailStep: step.detail ? counterBack(flow, state.numberDetailStep) : state.numberDetailStep,
  };
}

/** A fresh journey that keeps the start calls' data (they do not run again). */
const restarted = (flow: Flow, state: FlowState): FlowState => ({ ...emptyState(flow), data: startData(flow, state.data) });

/** Wires `backClicked`, `editClicked`, `restartClicked` and `sessionExpired` to the state and the router. */
export function createBackAndRestart(journey: Journey) {
  const { flow, $state, navigateFx } = journey;
  // when back is clicked, then the target's flag is set and the detail counter goes −0.1 (SPEC §4)
  const backTarget = sample({ clock: journey.backClicked, fn: ({ stepId }) => stepById(flow, stepId) });
  $state.on(backTarget, (state, step) => stateAfterBack(flow, state, step));
  sample({ clock: backTarget, filter: (s) => !!s.back, fn: (s) => ({ stepId: s.back as string }), target: navigateFx });
  // when "edit" is clicked on a review, then that step is opened with its flag
  $state.on(journey.editClicked, (state, { stepId }) => ({ ...state, flags: flagsForRoute(flow, stepId) }));
  sample({ clock: journey.editClicked, target: navigateFx });
  // when the visitor starts over (thank-you / error screen), then everything but the start calls' data is cleared
  $state.on(journey.restartClicked, (state) => restarted(flow, state));
  sample({ clock: journey.restartClicked, fn: () => ({ stepId: flow.entry }), target: navigateFx });
  // when the session expires, then unless success/error the quote and flags are cleared and step 1 opens (SPEC §4)
  const expiredMidJourney = sample({ clock: journey.sessionExpired, source: $state, filter: (state) => !isTerminal(flow, state.flags) });
  $state.on(expiredMidJourney, (state) => restarted(flow, state));
  sample({ clock: expiredMidJourney, fn: () => ({ stepId: flow.entry, replace: true }), target: navigateFx });
  return {};
}
