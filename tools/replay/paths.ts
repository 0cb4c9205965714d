/**
 * The distinct paths through a flow, and which journey fixtures cover each — what `npm run flow:paths` prints and
 * what the test suite enforces (a path with no fixture fails it).
 *
 * A path is a sequence of steps from the entry to a result step along `next` branches and `onError` (no step twice),
 * times the variants of its conditional calls: a step whose calls run under N ≥ 2 different conditions has N variants
 * (one condition holds, e.g. card or CBU); under one condition, two (it holds or not).
 * A fixture covers a path when the path's consecutive steps appear consecutively, in order, in the routes the fixture
 * visits, and at each step with a variant the condition has the path's value on the fixture's answers so far (and its
 * campaign parameters). A condition that reads what only the server knows (`/data`, `/response`) is not evaluated: the
 * step sequence already tells those branches apart.
 */
import { captureCampaign } from '../../src/engine/campaign/index.ts';
import { stepEdges } from '../../src/core/flow/graph.ts';
import { stepById, stepByPath } from '../../src/engine/core/guards.ts';
import { parsePointer } from '../../src/core/flow/pointer.ts';
import type { Flow } from '../../src/core/flow/types.ts';
import type { Journey } from './fixture.ts';

/** One variant choice: at `step`, condition `when` holds (`holds: true`) or not. */
export interface VariantChoice {
  step: string;
  when: string;
  holds: boolean;
}

export interface FlowPath {
  /** Step ids, entry to result. */
  steps: string[];
  variants: VariantChoice[];
  /** A readable name: `inicio → … → gracias [vigencia: hayCampania, metodo-de-pago: pagoConCbu]`. */
  name: string;
}

const callWhens = (flow: Flow, stepId: string): string[] => {
  const step = stepById(flow, stepId);
  const refs = [...(step.onSubmit ?? []), ...Object.values(step.onChange ?? {}).flat()];
  return [...new Set(refs.flatMap((r) => (typeof r === 'object' && r.when ? [r.when] : [])))];
};

/** Every path through `flow` (see the module doc), in a stable order. */
export function enumeratePaths(flow: Flow): FlowPath[] {
  const byId = new Map(flow.steps.map((s) => [s.id, s]));
  const sequences: string[][] = [];
  const walk = (id: string, seen: string[]) => {
    const step = byId.get(id);
    if (!step || seen.includes(id)) return;
    const here = [...seen, id];
    if (step.kind === 'result') {
      sequences.push(here);
      return;
    }
    const targets = [
      ...new Set(
        stepEdges(step)
          .filter((e) => e.kind === 'next' || e.kind === 'onError')
          .map((e) => e.to),
      ),
    ];
    targets.forEach((to) => walk(to, here));
  };
  walk(flow.entry, []);
  const unique = [...new Map(sequences.map((s) => [s.join('>'), s])).values()];
  const out: FlowPath[] = [];
  for (const steps of unique) {
    let combos: VariantChoice[][] = [[]];
    for (const id of steps) {
      const whens = callWhens(flow, id);
      if (whens.length === 0) continue;
      const options: VariantChoice[] =
        whens.length === 1
          ? [
              { step: id, when: whens[0], holds: true },
              { step: id, when: whens[0], holds: false },
            ]
          : whens.map((w) => ({ step: id, when: w, holds: true }));
      combos = combos.flatMap((c) => options.map((o) => [...c, o]));
    }
    for (const variants of combos) {
      const label = variants.map((v) => `${v.step}: ${v.holds ? '' : 'no '}${v.when}`).join(', ');
      out.push({ steps, variants, name: `${steps.join(' → ')}${label ? ` [${label}]` : ''}` });
    }
  }
  return out;
}

/** Whether `when` can be judged from what a fixture says (answers, campaign), not from server replies. */
function judgeable(flow: Flow, when: string): boolean {
  const cond = flow.def.conditions[when] ?? {};
  return Object.keys(cond).every((p) => ['answers', 'campaign', 'flags'].includes(parsePointer(p)?.[0] ?? ''));
}

/** The step ids a fixture visits, with the context (answers so far, campaign) at each visit. */
function visits(flow: Flow, journey: Journey): { step: string; ctx: Record<string, unknown> }[] {
  const campaign = captureCampaign(new URL(journey.url, 'http://x').search);
  const answers: Record<string, Record<string, unknown>> = {};
  const out: { step: string; ctx: Record<string, unknown> }[] = [];
  for (const fs of journey.steps) {
    const step = stepByPath(flow, fs.route);
    if (!step) continue;
    if (fs.answers) answers[step.id] = { ...answers[step.id], ...fs.answers };
    const ctx = { answers: structuredClone(answers), campaign, flags: {}, data: {} };
    if (out.at(-1)?.step === step.id) out[out.length - 1] = { step: step.id, ctx };
    else out.push({ step: step.id, ctx });
  }
  return out;
}

/**
 * True when `journey` goes along `path` (see the module doc). The steps must follow one another in the visits, a detour
 * (back, bad input, an error and another try) allowed when it comes back through the step the path says; a variant
 * is judged on the last visit of its step before the path's result step.
 */
export function covers(flow: Flow, path: FlowPath, journey: Journey): boolean {
  const seen = visits(flow, journey);
  let frontier = new Set<number>();
  seen.forEach((v, j) => v.step === path.steps[0] && frontier.add(j));
  for (let i = 1; i < path.steps.length && frontier.size; i++) {
    const next = new Set<number>();
    for (const j of frontier) {
      for (let k = j + 1; k < seen.length; k++) if (seen[k].step === path.steps[i] && seen[k - 1].step === path.steps[i - 1]) next.add(k);
    }
    frontier = next;
  }
  return [...frontier].some((end) =>
    path.variants.every((v) => {
      if (!judgeable(flow, v.when)) return true;
      const last = seen.slice(0, end).findLastIndex((s) => s.step === v.step);
      return last >= 0 && flow.tests[v.when](seen[last].ctx) === v.holds;
    }),
  );
}

/** Each path with the names of the fixtures that cover it. */
export function coverage(flow: Flow, journeys: Journey[]): { path: FlowPath; fixtures: string[] }[] {
  return enumeratePaths(flow).map((path) => ({ path, fixtures: journeys.filter((j) => covers(flow, path, j)).map((j) => j.name) }));
}
