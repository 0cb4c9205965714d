/**
 * The flow as a graph, and the compiled flow the engine runs.
 *
 * One source for every rule: a step's route, flag and i18n namespace follow from its id; the guard order
 * (SPEC §4), the stages of the progress bar, the house-detail counter's steps and the default `back` follow
 * from the order of the steps along `next` — never from their position in the `steps` array, and never from
 * a second list to keep in step (CONVENTIONS, "Derive, don't declare twice").
 *
 * Graph order: a topological order of the steps reachable from the entry along `next` and `onError` edges
 * (edges that close a cycle are ignored), ties broken by the order in the file; so a step always comes after
 * every step that leads to it. `actions` and review `edit` links jump back and do not order anything.
 */
import type { ConditionTests } from './conditions.ts';
import type { FlowDef, Flow, Step, StepDef, StepKind } from './types.ts';

export type EdgeKind = 'next' | 'onError' | 'action' | 'edit';

/** One arrow of the graph: from a step to another, with the condition name of a branch. */
export interface Edge {
  from: string;
  to: string;
  kind: EdgeKind;
  when?: string;
  /** JSON pointer of the reference inside the step, relative to the step (e.g. `/next/0/to`). */
  at: string;
}

/** Every arrow leaving `step` (references to unknown steps included: the checker reports them). */
export function stepEdges(step: StepDef): Edge[] {
  const out: Edge[] = [];
  if (typeof step.next === 'string') out.push({ from: step.id, to: step.next, kind: 'next', at: '/next' });
  else step.next?.forEach((b, i) => out.push({ from: step.id, to: b.to, kind: 'next', when: b.when, at: `/next/${i}/to` }));
  if (step.onError) out.push({ from: step.id, to: step.onError, kind: 'onError', at: '/onError' });
  step.actions?.forEach((a, i) => out.push({ from: step.id, to: a.to, kind: 'action', at: `/actions/${i}/to` }));
  step.review?.forEach((s, i) => s.edit && out.push({ from: step.id, to: s.edit, kind: 'edit', at: `/review/${i}/edit` }));
  return out;
}

/** The ids `step`'s `next` can lead to (every branch's target), in the order `next` names them. */
export function nextIds(step: StepDef): string[] {
  return stepEdges(step).flatMap((e) => (e.kind === 'next' ? [e.to] : []));
}

/**
 * The form steps step `stepId`'s `next` can lead to (every branch's), in the flow's order: what the app prefetches
 * and rehearses after a step (src/boot/) and the prerender preloads for its button (scripts/prerender/pages.tsx).
 * @returns [] for an unknown or null `stepId`
 */
export function nextFormSteps(flow: Flow, stepId: string | null): Step[] {
  const current = flow.steps.find((s) => s.id === stepId);
  const next = current ? nextIds(current) : [];
  return flow.steps.filter((s) => next.includes(s.id) && s.kind === 'form');
}

const ordering = (e: Edge) => e.kind === 'next' || e.kind === 'onError';

/** What the graph says about a flow definition: reachability, order, predecessors and loops. */
export interface GraphInfo {
  /** Step ids in graph order: reachable ones first, then unreachable ones in file order. */
  order: string[];
  /** Steps reachable from the entry (through any edge). */
  reachable: Set<string>;
  /** For each step, the steps whose `next` leads to it. */
  predecessors: Map<string, string[]>;
  /** Edges to existing steps. */
  edges: Edge[];
}

/** Graph facts of `def`; unknown step references are skipped (see `checkFlow`). */
export function analyzeGraph(def: FlowDef): GraphInfo {
  const ids = def.steps.map((s) => s.id);
  const known = new Set(ids);
  const fileIndex = new Map(ids.map((id, i) => [id, i]));
  const edges = def.steps.flatMap(stepEdges).filter((e) => known.has(e.to));
  const out = new Map<string, Edge[]>(ids.map((id) => [id, []]));
  for (const e of edges) out.get(e.from)?.push(e);

  const reachable = new Set<string>();
  const stack = known.has(def.entry) ? [def.entry] : [];
  while (stack.length) {
    const id = stack.pop() as string;
    if (reachable.has(id)) continue;
    reachable.add(id);
    for (const e of out.get(id) ?? []) stack.push(e.to);
  }

  // back edges (closing a cycle on the DFS stack from the entry) do not order anything
  const back = new Set<Edge>();
  const state = new Map<string, 'open' | 'done'>();
  const dfs = (id: string) => {
    state.set(id, 'open');
    for (const e of (out.get(id) ?? []).filter(ordering)) {
      const s = state.get(e.to);
      if (s === 'open') back.add(e);
      else if (!s) dfs(e.to);
    }
    state.set(id, 'done');
  };
  for (const id of [def.entry, ...ids]) if (reachable.has(id) && !state.has(id)) dfs(id);

  const orderEdges = edges.filter((e) => ordering(e) && !back.has(e) && reachable.has(e.from) && reachable.has(e.to));
  const indegree = new Map<string, number>([...reachable].map((id) => [id, 0]));
  for (const e of orderEdges) indegree.set(e.to, (indegree.get(e.to) ?? 0) + 1);
  const order: string[] = [];
  const ready = [...reachable].filter((id) => indegree.get(id) === 0);
  const rank = (id: string) => (id === def.entry ? -1 : (fileIndex.get(id) ?? 0));
  while (ready.length) {
    ready.sort((a, b) => rank(a) - rank(b));
    const id = ready.shift() as string;
    order.push(id);
    for (const e of orderEdges.filter((x) => x.from === id)) {
      const n = (indegree.get(e.to) ?? 0) - 1;
      indegree.set(e.to, n);
      if (n === 0) ready.push(e.to);
    }
  }
  for (const id of ids) if (!order.includes(id)) order.push(id);

  const predecessors = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const e of edges.filter((x) => x.kind === 'next')) {
    const list = predecessors.get(e.to) as string[];
    if (!list.includes(e.from)) list.push(e.from);
  }
  return { order, reachable, predecessors, edges };
}

/** Route of a step: `basePath/<path ?? id>`, or the base path itself for `path: ''`. */
function routeOf(def: FlowDef, step: StepDef): string {
  const own = step.path ?? step.id;
  return own === '' ? def.basePath : `${def.basePath}/${own}`;
}

/**
 * Compiles a flow definition: resolves every step default (route, flag, kind, stage, back, detail) and
 * derives the flags, the guard order, the terminal flags and the stages from the graph order.
 * Never throws on a broken reference (it is skipped); `checkFlow` reports it.
 * @param tests the flow's conditions compiled (browser: precompiled at build; Node: tools/check/conditions.ts);
 *   `when` throws for a condition missing here
 * @returns the flow the engine, the router and the screens read
 */
export function compileFlow(def: FlowDef, tests: ConditionTests = {}): Flow {
  const graph = analyzeGraph(def);
  const byId = new Map(def.steps.map((s) => [s.id, s]));
  const position = new Map(graph.order.map((id, i) => [id, i]));
  const kindOf = (s: StepDef): StepKind => s.kind ?? 'form';
  const stages = new Map<string, string | undefined>();
  const steps: Step[] = [];
  for (const id of graph.order) {
    const d = byId.get(id) as StepDef;
    const preds = (graph.predecessors.get(id) ?? []).filter(
      (p) => position.has(p) && (position.get(p) as number) < (position.get(id) as number),
    );
    const closest = preds.sort((a, b) => (position.get(b) as number) - (position.get(a) as number))[0];
    const onErrorFrom = def.steps.find((s) => s.onError === id && (position.get(s.id) as number) < (position.get(id) as number));
    const stage = d.stage ?? (closest ? stages.get(closest) : onErrorFrom ? stages.get(onErrorFrom.id) : undefined);
    stages.set(id, stage);
    const kind = kindOf(d);
    const allPreds = graph.predecessors.get(id) ?? [];
    const back =
      d.back === false || kind === 'landing' || kind === 'result'
        ? undefined
        : typeof d.back === 'string'
          ? d.back
          : allPreds.length === 1
            ? allPreds[0]
            : undefined;
    const detail = !!def.detailCounter && kind === 'form' && stage === def.detailCounter.stage;
    const { path: _p, flag: _f, kind: _k, stage: _s, back: _b, ...rest } = d;
    steps.push({ ...rest, path: routeOf(def, d), flag: d.flag ?? d.id, kind, stage, back, detail, order: position.get(id) as number });
  }
  const entry = steps.find((s) => s.id === def.entry);
  const others = steps.filter((s) => s.id !== def.entry);
  const stageList: string[] = [];
  for (const s of others) if (s.stage && s.kind !== 'result' && !stageList.includes(s.stage)) stageList.push(s.stage);
  const { steps: _steps, ...rest } = def;
  return {
    ...rest,
    steps,
    flags: [...(entry ? [entry.flag] : []), ...others.map((s) => s.flag)],
    guardOrder: others.map((s) => s.flag),
    initialFlags: entry ? { [entry.flag]: true } : {},
    terminalFlags: others.filter((s) => s.kind === 'result').map((s) => s.flag),
    stages: stageList,
    def,
    tests,
  };
}
