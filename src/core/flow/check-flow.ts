/**
 * Semantic checks of a flow definition that JSON Schema cannot express: references between steps, calls,
 * conditions and summaries; the graph (unreachable steps, dead ends, loops with no exit, steps on no path to
 * a result, ambiguous `back`); orphans (calls and conditions nobody uses); bindings that read the answers of a
 * step that does not exist; and, given the SPEC contract (flow/contract.json), where the derived routes, flags
 * and guard order depart from it (a warning: a deliberate change updates the contract file).
 *
 * Pure: runs in the browser at start-up (an invalid flow shows the error step, never a blank page), at build,
 * in `npm run flow:check` (with the schema, ui, text and wire checks of `src/engine/check/project.ts`) and in tests.
 */
import { analyzeGraph, compileFlow, type GraphInfo } from './graph.ts';
import { escapeToken, parsePointer } from './pointer.ts';
import type { Binding, CallRef, Flow, FlowDef, Step, StepDef } from './types.ts';

export interface FlowProblem {
  /** Repo-relative file the problem is in; default `flow/flow.json`. */
  file?: string;
  /** JSON pointer into that file. */
  pointer: string;
  /** What is wrong and what to change, in Spanish. */
  message: string;
  /** `error` stops the build and the checker; `warning` is printed. Default `error`. */
  severity?: 'error' | 'warning';
}

/** The SPEC's routes, flags and guard order for the shipped flow (flow/contract.json). */
export interface FlowContract {
  routes?: string[];
  flags?: string[];
  guardOrder?: string[];
}

const callName = (ref: CallRef) => (typeof ref === 'string' ? ref : ref.call);
const callWhen = (ref: CallRef) => (typeof ref === 'string' ? undefined : ref.when);

/** Every pointer a binding reads, with its JSON pointer inside the binding (relative). */
export function bindingPointers(binding: Binding | undefined, at = ''): { pointer: string; at: string }[] {
  if (binding === undefined) return [];
  if (typeof binding === 'string') return [{ pointer: binding, at }];
  if ('const' in binding && Object.keys(binding).length === 1) return [];
  if ('merge' in binding && Array.isArray(binding.merge))
    return (binding.merge as Binding[]).flatMap((b, i) => bindingPointers(b, `${at}/merge/${i}`));
  if ('join' in binding && Array.isArray(binding.join))
    return (binding.join as string[]).map((p, i) => ({ pointer: p, at: `${at}/join/${i}` }));
  return Object.entries(binding as Record<string, Binding>).flatMap(([k, b]) => bindingPointers(b, `${at}/${escapeToken(k)}`));
}

/** Every binding of the flow with where it is (calls' body/query/params, step defaults, review rows, results, summaries). */
export function flowBindings(flow: FlowDef): { pointer: string; at: string; step?: string }[] {
  const out: { pointer: string; at: string; step?: string }[] = [];
  for (const [name, call] of Object.entries(flow.calls)) {
    for (const part of ['body', 'query', 'params'] as const)
      out.push(...bindingPointers(call[part] as Binding | undefined, `/calls/${name}/${part}`));
  }
  flow.steps.forEach((s, i) => {
    const at = `/steps/${i}`;
    if (s.defaults) out.push(...bindingPointers(s.defaults, `${at}/defaults`).map((b) => ({ ...b, step: s.id })));
    s.review?.forEach((sec, j) =>
      sec.rows.forEach((r, k) =>
        out.push(...bindingPointers(r.value, `${at}/review/${j}/rows/${k}/value`).map((b) => ({ ...b, step: s.id }))),
      ),
    );
    if (s.result?.rows) out.push(...bindingPointers(s.result.rows, `${at}/result/rows`).map((b) => ({ ...b, step: s.id })));
    if (s.result?.values) out.push(...bindingPointers(s.result.values, `${at}/result/values`).map((b) => ({ ...b, step: s.id })));
    s.result?.message?.forEach((p, j) => out.push({ pointer: p, at: `${at}/result/message/${j}`, step: s.id }));
    s.forget?.forEach((p, j) => out.push({ pointer: p, at: `${at}/forget/${j}`, step: s.id }));
    s.extras?.forEach((x, j) => {
      if ('download' in x && x.download.params)
        out.push(...bindingPointers(x.download.params, `${at}/extras/${j}/download/params`).map((b) => ({ ...b, step: s.id })));
    });
  });
  flow.resume?.save?.forEach((sv, j) => out.push({ pointer: sv.to, at: `/resume/save/${j}/to` }));
  for (const [name, sum] of Object.entries(flow.summaries ?? {})) {
    for (const [k, p] of Object.entries(sum)) if (typeof p === 'string') out.push({ pointer: p, at: `/summaries/${name}/${k}` });
  }
  flow.persist?.exclude?.forEach((p, i) => out.push({ pointer: p, at: `/persist/exclude/${i}` }));
  for (const p of Object.keys(flow.recorder?.replace ?? {})) out.push({ pointer: p, at: `/recorder/replace/${escapeToken(p)}` });
  for (const [name, c] of Object.entries(flow.conditions))
    for (const pointer of Object.keys(c)) out.push({ pointer, at: `/conditions/${name}/${escapeToken(pointer)}` });
  return out;
}

type Report = (pointer: string, message: string) => void;

/**
 * The references a check reads and records while it runs: `needStep`, `needCondition` and `needCalls` report a name
 * that is not declared (an error) and remember every call and condition used, which `checkOrphans` reads at the end.
 */
interface Refs {
  err: Report;
  usedCalls: Set<string>;
  usedConditions: Set<string>;
  needStep: (id: string | undefined, pointer: string) => void;
  needCondition: (name: string | undefined, pointer: string) => void;
  needCalls: (refs: CallRef[] | undefined, pointer: string) => void;
}

/** The reference checks of `flow`, reporting to `err`; `callsUsedElsewhere` start as used (widgets run them). */
function referenceChecker(flow: FlowDef, err: Report, callsUsedElsewhere: Iterable<string> = []): Refs {
  const stepIds = new Set(flow.steps.map((s) => s.id));
  const usedCalls = new Set<string>(callsUsedElsewhere); // e.g. named by a widget's ui:options
  const usedConditions = new Set<string>();
  const needStep = (id: string | undefined, pointer: string) => {
    if (id !== undefined && !stepIds.has(id)) err(pointer, `el paso "${id}" no existe en "steps"`);
  };
  const needCondition = (name: string | undefined, pointer: string) => {
    if (name === undefined) return;
    usedConditions.add(name);
    if (!flow.conditions[name]) err(pointer, `la condición "${name}" no está declarada en "conditions"`);
  };
  const needCalls = (refs: CallRef[] | undefined, pointer: string) =>
    refs?.forEach((ref, i) => {
      usedCalls.add(callName(ref));
      if (!flow.calls[callName(ref)]) err(`${pointer}/${i}`, `la llamada "${callName(ref)}" no está declarada en "calls"`);
      needCondition(callWhen(ref), `${pointer}/${i}/when`);
    });
  return { err, usedCalls, usedConditions, needStep, needCondition, needCalls };
}

/** The flow-level references: entry, onStart, chat, campaign, funnel, forms, proof of work, resume, and each call's path parameters. */
function checkTopLevelRefs(flow: FlowDef, refs: Refs): void {
  const { err, needStep, needCondition, needCalls } = refs;
  needStep(flow.entry, '/entry');
  needCalls(flow.onStart, '/onStart');
  if (flow.chat) needCondition(flow.chat.enabledWhen, '/chat/enabledWhen');
  if (flow.campaign) needCalls([flow.campaign.clickLog], '/campaign/clickLog');
  if (flow.funnel) needCalls([flow.funnel.call], '/funnel/call');
  for (const [id, form] of Object.entries(flow.forms ?? {})) needCalls([form.call], `/forms/${escapeToken(id)}/call`);
  for (const id of Object.keys(flow.funnel?.splitBy ?? {})) needStep(id, `/funnel/splitBy/${escapeToken(id)}`);
  if (flow.proofOfWork) {
    needCalls([flow.proofOfWork.challenge, ...flow.proofOfWork.for], '/proofOfWork');
    needStep(flow.proofOfWork.startAt, '/proofOfWork/startAt');
    if (!flow.proofOfWork.to.startsWith('/meta/')) err('/proofOfWork/to', 'la solución va bajo /meta/ (no se guarda en el navegador)');
  }
  if (flow.resume) {
    needCalls([flow.resume.call], '/resume/call');
    needStep(flow.resume.to, '/resume/to');
    flow.resume.notices?.forEach((n, i) => needCondition(n.when, `/resume/notices/${i}/when`));
  }
  for (const [name, call] of Object.entries(flow.calls)) {
    if (call.poll) needCondition(call.poll.until, `/calls/${name}/poll/until`);
    for (const m of call.path.matchAll(/\{(\w+)\}/g)) {
      if (!call.params?.[m[1]])
        err(`/calls/${name}/params`, `falta el parámetro "${m[1]}" que usa el path "${call.path}": agregalo en "params"`);
    }
  }
}

/** Each step's id, route (`path`) and `flag` must be unique; `seen` maps each one to the first step (or index) that took it. */
function checkStepUnique(
  step: StepDef,
  i: number,
  compiledStep: Step | undefined,
  seen: { ids: Map<string, number>; paths: Map<string, string>; flags: Map<string, string> },
  err: Report,
): void {
  const at = `/steps/${i}`;
  const { ids, paths, flags } = seen;
  if (ids.has(step.id)) err(`${at}/id`, `el id "${step.id}" está repetido (también en /steps/${ids.get(step.id)})`);
  ids.set(step.id, i);
  if (!compiledStep) return;
  if (paths.has(compiledStep.path))
    err(`${at}/path`, `la ruta "/${compiledStep.path}" ya la usa el paso "${paths.get(compiledStep.path)}": poné otro "path"`);
  paths.set(compiledStep.path, step.id);
  if (flags.has(compiledStep.flag))
    err(`${at}/flag`, `el flag "${compiledStep.flag}" ya lo usa el paso "${flags.get(compiledStep.flag)}": poné otro "flag"`);
  flags.set(compiledStep.flag, step.id);
}

/** What one step names (steps, calls, conditions, a summary, download parameters), and that its last `next` branch is the default. */
function checkStepRefs(flow: FlowDef, step: StepDef, at: string, refs: Refs): void {
  const { err, needStep, needCondition, needCalls } = refs;
  if (typeof step.back === 'string') needStep(step.back, `${at}/back`);
  if (typeof step.next === 'string') needStep(step.next, `${at}/next`);
  else
    step.next?.forEach((b, j) => {
      needStep(b.to, `${at}/next/${j}/to`);
      needCondition(b.when, `${at}/next/${j}/when`);
    });
  needStep(step.onError, `${at}/onError`);
  needCalls(step.onSubmit, `${at}/onSubmit`);
  for (const [field, calls] of Object.entries(step.onChange ?? {})) needCalls(calls, `${at}/onChange/${escapeToken(field)}`);
  step.review?.forEach((sec, j) => needStep(sec.edit, `${at}/review/${j}/edit`));
  if (step.summary && !flow.summaries?.[step.summary])
    err(`${at}/summary`, `el resumen "${step.summary}" no está declarado en "summaries"`);
  step.actions?.forEach((a, j) => needStep(a.to, `${at}/actions/${j}/to`));
  step.extras?.forEach((x, j) => {
    if ('call' in x) needCalls([x.call], `${at}/extras/${j}/call`);
    else
      for (const m of x.download.path.matchAll(/\{(\w+)\}/g)) {
        if (!x.download.params?.[m[1]])
          err(`${at}/extras/${j}/download/params`, `falta el parámetro "${m[1]}" que usa el path "${x.download.path}"`);
      }
  });
  step.notices?.forEach((n, j) => needCondition(n.when, `${at}/notices/${j}/when`));
  if (Array.isArray(step.next) && step.next.length && step.next[step.next.length - 1].when !== undefined) {
    err(`${at}/next`, 'la última rama de "next" debe ir sin "when" (el caso por defecto), o el visitante puede quedar sin paso siguiente');
  }
}

/** Per step, in order: unique id/route/flag (`checkStepUnique`), then its references (`checkStepRefs`). */
function checkSteps(flow: FlowDef, compiled: Flow, refs: Refs): void {
  const seen = { ids: new Map<string, number>(), paths: new Map<string, string>(), flags: new Map<string, string>() };
  flow.steps.forEach((step, i) => {
    checkStepUnique(
      step,
      i,
      compiled.steps.find((s) => s.id === step.id),
      seen,
      refs.err,
    );
    checkStepRefs(flow, step, `/steps/${i}`, refs);
  });
}

/** The steps from which a step of `terminal` can be reached along `next`/`onError` edges (the terminal steps included). */
function stepsReachingEnd(graph: GraphInfo, terminal: Set<string>): Set<string> {
  const reachesEnd = new Set<string>(terminal);
  let grew = true;
  while (grew) {
    grew = false;
    for (const e of graph.edges) {
      if ((e.kind === 'next' || e.kind === 'onError') && reachesEnd.has(e.to) && !reachesEnd.has(e.from)) {
        reachesEnd.add(e.from);
        grew = true;
      }
    }
  }
  return reachesEnd;
}

/** Whether step `id` lies on a cycle of `next` edges (its `next` leads back to it). */
function inNextCycle(graph: GraphInfo, id: string): boolean {
  const seen = new Set<string>();
  const stack = graph.edges.filter((e) => e.from === id && e.kind === 'next').map((e) => e.to);
  while (stack.length) {
    const n = stack.pop() as string;
    if (n === id) return true;
    if (seen.has(n)) continue;
    seen.add(n);
    stack.push(...graph.edges.filter((e) => e.from === n && e.kind === 'next').map((e) => e.to));
  }
  return false;
}

/**
 * The graph: some step is a result; every step reachable from the entry; every non-result step has a `next` that
 * leads to a result (a cycle with no exit is named as such); a step with several predecessors says where `back` goes;
 * the first step after the landing declares its `stage`; the detail counter's stage exists.
 */
function checkGraph(flow: FlowDef, compiled: Flow, err: Report): void {
  const graph = analyzeGraph(flow);
  const index = (id: string) => flow.steps.findIndex((s) => s.id === id);
  const terminal = new Set(flow.steps.filter((s) => (s.kind ?? 'form') === 'result').map((s) => s.id));
  if (terminal.size === 0) err('/steps', 'ningún paso es de tipo "result": el recorrido no tiene final');
  const reachesEnd = stepsReachingEnd(graph, terminal);
  for (const step of flow.steps) {
    const at = `/steps/${index(step.id)}`;
    if (!graph.reachable.has(step.id)) {
      err(at, `el paso "${step.id}" es inalcanzable: ningún "next", "onError" ni acción lleva a él desde "${flow.entry}"`);
      continue;
    }
    if (terminal.has(step.id)) continue;
    if (!step.next)
      err(
        `${at}/next`,
        `el paso "${step.id}" no tiene "next": el visitante queda sin salida (solo los pasos "result" terminan el recorrido)`,
      );
    else if (!reachesEnd.has(step.id)) {
      err(
        `${at}/next`,
        inNextCycle(graph, step.id)
          ? `el paso "${step.id}" está en un ciclo de "next" sin salida: ninguna rama lleva a un paso "result"`
          : `desde el paso "${step.id}" no se llega a ningún paso "result"`,
      );
    }
    // the kind of the first step with this id, as `back` resolves it
    const k = flow.steps.find((s) => s.id === step.id)?.kind ?? 'form';
    const preds = graph.predecessors.get(step.id) ?? [];
    if (k !== 'landing' && step.back === undefined && preds.length > 1) {
      err(
        `${at}`,
        `el paso "${step.id}" tiene varios pasos anteriores (${preds.join(', ')}): indicá a cuál vuelve con "back" (o "back": false)`,
      );
    }
  }
  const firstStaged = compiled.steps.find((s) => s.kind !== 'landing');
  if (firstStaged && !firstStaged.stage)
    err(
      `/steps/${index(firstStaged.id)}/stage`,
      `el primer paso después de la entrada ("${firstStaged.id}") debe declarar "stage" (la etapa de la barra de progreso)`,
    );
  if (flow.detailCounter && !compiled.steps.some((s) => s.stage === flow.detailCounter?.stage)) {
    err('/detailCounter/stage', `ningún paso está en la etapa "${flow.detailCounter.stage}"`);
  }
}

/** Every binding is a JSON pointer into a state root, and one under /answers names a step that exists. */
function checkBindings(flow: FlowDef, err: Report): void {
  const stepIds = new Set(flow.steps.map((s) => s.id));
  for (const b of flowBindings(flow)) {
    const tokens = parsePointer(b.pointer);
    if (!tokens) {
      err(b.at, `"${b.pointer}" no es un puntero JSON (debe empezar con "/")`);
      continue;
    }
    if (!['answers', 'data', 'campaign', 'meta', 'response', 'flags', 'input'].includes(tokens[0])) {
      err(b.at, `"${b.pointer}" no lee nada: un puntero empieza con /answers, /data, /flags, /campaign, /meta, /response o /input`);
    } else if (tokens[0] === 'answers' && tokens[1] !== undefined && !stepIds.has(tokens[1])) {
      err(b.at, `"${b.pointer}" lee las respuestas del paso "${tokens[1]}", que no existe en "steps"`);
    }
  }
}

/** Calls, conditions and summaries nobody uses; reads the uses `refs` recorded, so it runs after every reference check. */
function checkOrphans(flow: FlowDef, refs: Refs): void {
  const { err, usedCalls, usedConditions } = refs;
  for (const name of Object.keys(flow.calls))
    if (!usedCalls.has(name))
      err(`/calls/${name}`, `la llamada "${name}" no la usa ningún paso: borrala o agregala a un "onSubmit"/"onChange"`);
  for (const name of Object.keys(flow.conditions))
    if (!usedConditions.has(name)) err(`/conditions/${name}`, `la condición "${name}" no la usa nada: borrala o usala`);
  const usedSummaries = new Set(flow.steps.map((s) => s.summary).filter(Boolean));
  for (const name of Object.keys(flow.summaries ?? {}))
    if (!usedSummaries.has(name)) err(`/summaries/${name}`, `el resumen "${name}" no lo muestra ningún paso`);
}

/** Warnings (in flow/contract.json) where the derived routes, flags or guard order depart from the SPEC contract. */
function checkContract(compiled: Flow, contract: FlowContract, problems: FlowProblem[]): void {
  const file = 'flow/contract.json';
  const diff = (what: string, derived: string[], expected: string[] | undefined, key: string) => {
    if (!expected || JSON.stringify(derived) === JSON.stringify(expected)) return;
    const extra = derived.filter((x) => !expected.includes(x));
    const missing = expected.filter((x) => !derived.includes(x));
    const detail = [
      extra.length ? `nuevos: ${extra.join(', ')}` : '',
      missing.length ? `faltan: ${missing.join(', ')}` : '',
      !extra.length && !missing.length ? `orden: ${derived.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    problems.push({
      pointer: `/${key}`,
      message: `${what} del flujo difiere del contrato de la SPEC (${detail}). Si el cambio es deliberado, actualizá ${file}.`,
      severity: 'warning',
      file,
    });
  };
  diff(
    'las rutas',
    compiled.steps.map((s) => s.path),
    contract.routes,
    'routes',
  );
  diff('los flags', compiled.flags, contract.flags, 'flags');
  diff('el orden de los guards', compiled.guardOrder, contract.guardOrder, 'guardOrder');
}

/**
 * Every problem of `flow` (and, given `contract`, its departures from the SPEC); an empty list means usable.
 * Order of the list: flow-level references, each step (uniqueness, references), the graph, bindings, orphans, contract.
 * @param opts.callsUsedElsewhere calls the flow does not run itself but widgets do (registry `callsNamedInUi`)
 */
export function checkFlow(flow: FlowDef, contract?: FlowContract, opts: { callsUsedElsewhere?: Iterable<string> } = {}): FlowProblem[] {
  const problems: FlowProblem[] = [];
  const err: Report = (pointer, message) => problems.push({ pointer, message });
  const refs = referenceChecker(flow, err, opts.callsUsedElsewhere);
  checkTopLevelRefs(flow, refs);
  const compiled = compileFlow(flow);
  checkSteps(flow, compiled, refs);
  checkGraph(flow, compiled, err);
  checkBindings(flow, err);
  checkOrphans(flow, refs);
  if (contract) checkContract(compiled, contract, problems);
  return problems;
}

/** Only the problems that stop the flow (not warnings). */
export const errorsOnly = (problems: FlowProblem[]) => problems.filter((p) => (p.severity ?? 'error') === 'error');

/** Formats problems for a person: one line each, `<file>#<pointer>: <message>` (warnings prefixed "aviso:"). */
export function formatProblems(problems: FlowProblem[], file = 'flow/flow.json'): string {
  return problems.map((p) => `${p.severity === 'warning' ? 'aviso: ' : ''}${p.file ?? file}#${p.pointer}: ${p.message}`).join('\n');
}
