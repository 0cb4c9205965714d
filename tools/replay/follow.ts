/**
 * Following the flow with a fixture's answers — the rule both replays (headless tools/replay/headless.ts, browser
 * tools/replay/browser.ts) share so that a structural edit of the flow (steps reordered, a step split in two) needs no
 * fixture edit:
 * - a fixture step (`steps[i]`) is matched to the screen by its `route`, in order, as always;
 * - when the flow shows a step that comes before the fixture's next one (graph order), the replay answers the shown
 *   step itself ("fill-in"): with a later fixture step for the same route when that one is plain (only answers, expect and calls;
 *   no actions but `next`), which is then used there and skipped later; otherwise with the fixture's answers looked up
 *   by field name whatever step gave them (the nearest fixture step at or after `i` first, then before it), and for
 *   a field no fixture step answers, the step schema's first example (`examples[0]`: the fixture did not care);
 * - when it shows a step that comes after it and the fixture was going back (its last action `back`), the replay
 *   goes back again until the fixture's step shows (a detour written for another order of the steps);
 * - a fixture step's answers are given to a step only for the fields that step asks, or that no step asks (a typo
 *   stays the error it was), so a step split in two gets each half's fields.
 * Pure: no I/O.
 */
import type { Flow } from '../../src/core/flow/types.ts';
import { stepById, stepByPath } from '../../src/engine/core/guards.ts';
import type { Journey, JourneyStep } from './fixture.ts';

type Json = Record<string, unknown>;

/** The field names a step schema asks: its `properties`, and those of `allOf`/`if`/`then`/`else` branches. */
export function schemaFields(schema: Json | undefined): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const out = new Set(Object.keys((schema.properties as Json | undefined) ?? {}));
  for (const part of [...((schema.allOf as Json[] | undefined) ?? []), schema.then as Json, schema.else as Json]) {
    for (const f of schemaFields(part)) out.add(f);
  }
  return [...out];
}

/** `answers` without the fields another step of `schemas` asks and `stepId`'s schema does not. */
export function answersForStep(schemas: Record<string, Json>, stepId: string, answers: Json | undefined): Json | undefined {
  if (!answers) return answers;
  const own = new Set(schemaFields(schemas[stepId]));
  const elsewhere = new Set(Object.entries(schemas).flatMap(([id, s]) => (id === stepId ? [] : schemaFields(s))));
  return Object.fromEntries(Object.entries(answers).filter(([k]) => own.has(k) || !elsewhere.has(k)));
}

/** True when a fixture step may be used out of order: it only answers and checks, and goes on with `next`. */
export function isPlain(fs: JourneyStep): boolean {
  return !fs.stubs?.length && (fs.actions === undefined || (fs.actions.length === 1 && fs.actions[0] === 'next'));
}

/** How to answer a step the flow shows out of the fixture's order: a later plain fixture step, or answers by field name. */
export interface FillIn {
  /** The fixture step used (to be skipped when the replay reaches it), when there is one. */
  entry?: number;
  answers: Json;
}

/**
 * What the replay does when the flow shows `stepId` while the fixture's next step is `steps[at]`: go back (the
 * fixture's step comes before the shown one and the fixture was going back), fill in (it comes after), or nothing
 * (the replay then reports the route it did not expect, as before).
 */
export function detour(flow: Flow, journey: Journey, at: number, stepId: string, goingBack: boolean): 'back' | 'fill' | null {
  const want = stepByPath(flow, journey.steps[at].route);
  const here = stepById(flow, stepId);
  if (!want || want.id === here.id) return null;
  if (want.order < here.order) return goingBack ? 'back' : null;
  return 'fill';
}

/**
 * The fill-in for `stepId`, shown while the fixture's next step is `steps[at]` (see the module doc).
 * @param used fixture steps already used out of order
 * @param have the answers the step already has (restored from a saved journey), which count for its required fields
 * @returns null when the step cannot be answered from the fixture (a result or landing step, or a required field
 *   no fixture step answers) — the replay then reports the route it did not expect, as before
 */
export function fillIn(
  flow: Flow,
  schemas: Record<string, Json>,
  journey: Journey,
  at: number,
  stepId: string,
  used: Set<number>,
  have: Json = {},
): FillIn | null {
  const step = stepById(flow, stepId);
  if (step.kind === 'result' || step.kind === 'landing') return null;
  const own = (i: number) => !used.has(i) && stepByPath(flow, journey.steps[i].route)?.id === stepId;
  const later = journey.steps.findIndex((fs, i) => i > at && own(i));
  if (later >= 0 && isPlain(journey.steps[later])) return { entry: later, answers: journey.steps[later].answers ?? {} };
  const schema = schemas[stepId];
  const answers: Json = {};
  const order = [...journey.steps.keys()].filter((i) => i >= at).concat([...journey.steps.keys()].filter((i) => i < at).reverse());
  const example = ((schema?.examples as Json[] | undefined) ?? [])[0] ?? {};
  for (const field of schemaFields(schema)) {
    const from = order.find((i) => journey.steps[i].answers && field in (journey.steps[i].answers as Json));
    if (from !== undefined) answers[field] = (journey.steps[from].answers as Json)[field];
    else if (field in example && !(field in have)) answers[field] = example[field];
  }
  const required = (schema?.required as string[] | undefined) ?? [];
  if (required.some((f) => !(f in answers) && !(f in (step.defaults ?? {})) && !(f in have))) return null;
  return { answers };
}
