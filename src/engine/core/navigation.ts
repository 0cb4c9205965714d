/**
 * Where the journey goes next, and the house-detail counter (SPEC §3, §9).
 */
import { when } from '../../core/flow/bindings.ts';
import { stepById } from './guards.ts';
import type { FlowContext, Flow, Step } from '../../core/flow/types.ts';

/** Rounds to 2 decimals (the counter is a decimal like 1.3). */
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Counter after a 'back' action: −step (0.1), rounded to 2 decimals, never below the start (1.1). */
export function counterBack(flow: Flow, counter: number): number {
  const { start, step } = flow.detailCounter ?? { start: 1.1, step: 0.1 };
  return Math.max(start, round2(counter - step));
}

/** Counter after submitting a detail step: +step, rounded to 2 decimals. */
export function counterForward(flow: Flow, counter: number): number {
  const { step } = flow.detailCounter ?? { start: 1.1, step: 0.1 };
  return round2(counter + step);
}

/** The counter's start value (1.1, SPEC §3). */
export function counterStart(flow: Flow): number {
  return flow.detailCounter?.start ?? 1.1;
}

/**
 * The step that follows `step` given the context: a plain `next`, or the first `{ when, to }`
 * whose condition holds (an entry without `when` always holds).
 * @returns the next step, or undefined when the step has no `next`.
 */
export function nextStep(flow: Flow, step: Step, ctx: FlowContext): Step | undefined {
  if (!step.next) return undefined;
  if (typeof step.next === 'string') return stepById(flow, step.next);
  const branch = step.next.find((b) => when(flow, b.when, ctx));
  return branch ? stepById(flow, branch.to) : undefined;
}

/** Position of a detail step among the detail steps in graph order: `{ index: 1-based, total }`, or null. */
export function detailPosition(flow: Flow, stepId: string): { index: number; total: number } | null {
  const detail = flow.steps.filter((s) => s.detail);
  const i = detail.findIndex((s) => s.id === stepId);
  return i < 0 ? null : { index: i + 1, total: detail.length };
}

/** The ordered list of steps a journey passes, following `next` from `from` with `ctx` (for tests and the flow diagram). */
export function journey(flow: Flow, ctx: FlowContext, from = flow.entry): string[] {
  const seen: string[] = [];
  let step: Step | undefined = stepById(flow, from);
  while (step && !seen.includes(step.id)) {
    seen.push(step.id);
    step = nextStep(flow, step, ctx);
  }
  return seen;
}
