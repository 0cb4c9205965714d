/**
 * Route guards and progress flags — SPEC §4, as pure functions over (flow, flags).
 *
 * Flags, their guard order and the terminal flags are derived from the flow graph (graph.ts).
 * - A guarded route (every step but the entry) needs its flag. Otherwise: redirect to the route of the first set flag in
 *   `flow.guardOrder`; none set → all flags cleared and back to the entry step.
 * - Setting a guard leaves only the given flags set; houseDetail (every flag not given) is false.
 * - Visiting the entry step clears the flags unless a terminal flag (success / moduleError) is set.
 * - Browser back/forward resets the flags to the route reached.
 */
import type { Flags, Flow, Step } from '../../core/flow/types.ts';

/** Step by id. @throws Error for an unknown id. */
export function stepById(flow: Flow, id: string): Step {
  const step = flow.steps.find((s) => s.id === id);
  if (!step) throw new Error(`Paso desconocido: ${id}`);
  return step;
}

/** Step whose `path` equals the URL path (leading/trailing slashes ignored), or undefined. */
export function stepByPath(flow: Flow, pathname: string): Step | undefined {
  const clean = pathname.replace(/^\/+|\/+$/g, '');
  return flow.steps.find((s) => s.path === clean);
}

/** Flags with only `given` set (SPEC §4 "setting a guard makes houseDetail false unless it is given"). */
export function setGuard(flow: Flow, given: Flags): Flags {
  const out: Flags = {};
  for (const f of flow.flags) out[f] = given[f] === true;
  return out;
}

/** The initial flags: `flow.initialFlags` (houseDetail true), every other false. */
export function initialFlags(flow: Flow): Flags {
  return setGuard(flow, flow.initialFlags);
}

/** True when a terminal flag (success / moduleError) is set. */
export function isTerminal(flow: Flow, flags: Flags): boolean {
  return (flow.terminalFlags ?? []).some((f) => flags[f]);
}

export type GuardResult = { kind: 'allow' } | { kind: 'redirect'; to: string } | { kind: 'reset'; to: string; flags: Flags };

/**
 * Decides what happens when `stepId` is entered with `flags` (SPEC §4).
 * @returns allow; redirect to the step owning the first set flag in `guardOrder`; or reset (all
 *   flags cleared, go to the entry step) when none is set.
 */
export function resolveGuard(flow: Flow, flags: Flags, stepId: string): GuardResult {
  const step = stepById(flow, stepId);
  if (step.id === flow.entry || flags[step.flag]) return { kind: 'allow' };
  for (const flag of flow.guardOrder) {
    if (!flags[flag]) continue;
    const owner = flow.steps.find((s) => s.flag === flag);
    if (owner) return { kind: 'redirect', to: owner.id };
  }
  return { kind: 'reset', to: flow.entry, flags: initialFlags(flow) };
}

/** Flags after visiting the entry step: cleared unless success or error is set (SPEC §4). */
export function flagsOnEntry(flow: Flow, flags: Flags): Flags {
  return isTerminal(flow, flags) ? flags : initialFlags(flow);
}

/** Flags for a route reached by browser history (SPEC §4): only that step's flag set (the entry: the initial flags). */
export function flagsForRoute(flow: Flow, stepId: string): Flags {
  const step = stepById(flow, stepId);
  return step.id === flow.entry ? initialFlags(flow) : setGuard(flow, { [step.flag]: true });
}
