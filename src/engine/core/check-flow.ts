/**
 * Semantic checks of a flow definition that JSON Schema cannot express (references between steps,
 * calls, conditions and flags). The structural checks are `flow/flow.schema.json`, run at build
 * (`src/form/validators/compile.ts`) and in tests. Runs at start-up too: an invalid flow shows the
 * file, the JSON pointer and what to change — never a blank page (CONVENTIONS §2).
 */
import type { CallRef, FlowDef } from './types.ts';

export interface FlowProblem {
  /** JSON pointer into flow/flow.json. */
  pointer: string;
  message: string;
}

const callName = (ref: CallRef) => (typeof ref === 'string' ? ref : ref.call);
const callWhen = (ref: CallRef) => (typeof ref === 'string' ? undefined : ref.when);

/** Every reference problem in `flow`; an empty list means the flow is usable. */
export function checkFlow(flow: FlowDef): FlowProblem[] {
  const problems: FlowProblem[] = [];
  const ids = new Set<string>();
  const paths = new Set<string>();
  const flagOwners = new Map<string, string>();
  const stepIds = new Set(flow.steps.map((s) => s.id));
  const needStep = (id: string | undefined, pointer: string) => {
    if (id !== undefined && !stepIds.has(id)) problems.push({ pointer, message: `el paso "${id}" no existe en "steps"` });
  };
  const needCondition = (name: string | undefined, pointer: string) => {
    if (name !== undefined && !flow.conditions[name]) problems.push({ pointer, message: `la condición "${name}" no está declarada en "conditions"` });
  };
  const needCalls = (refs: CallRef[] | undefined, pointer: string) =>
    refs?.forEach((ref, i) => {
      if (!flow.calls[callName(ref)]) problems.push({ pointer: `${pointer}/${i}`, message: `la llamada "${callName(ref)}" no está declarada en "calls"` });
      needCondition(callWhen(ref), `${pointer}/${i}/when`);
    });

  needStep(flow.entry, '/entry');
  needStep(flow.errorStep, '/errorStep');
  for (const f of flow.guardOrder) if (!flow.flags.includes(f)) problems.push({ pointer: '/guardOrder', message: `el flag "${f}" no está en "flags"` });
  for (const f of Object.keys(flow.initialFlags)) if (!flow.flags.includes(f)) problems.push({ pointer: '/initialFlags', message: `el flag "${f}" no está en "flags"` });
  needCalls(flow.onStart, '/onStart');
  if (flow.chat) needCondition(flow.chat.enabledWhen, '/chat/enabledWhen');
  for (const [name, call] of Object.entries(flow.calls)) {
    if (call.poll) needCondition(call.poll.until, `/calls/${name}/poll/until`);
    for (const m of call.path.matchAll(/\{(\w+)\}/g)) {
      if (!call.params?.[m[1]]) problems.push({ pointer: `/calls/${name}/params`, message: `falta el parámetro "${m[1]}" que usa el path` });
    }
  }

  flow.steps.forEach((step, i) => {
    const at = `/steps/${i}`;
    if (ids.has(step.id)) problems.push({ pointer: `${at}/id`, message: `el id "${step.id}" está repetido` });
    ids.add(step.id);
    if (paths.has(step.path)) problems.push({ pointer: `${at}/path`, message: `la ruta "${step.path}" está repetida` });
    paths.add(step.path);
    if (step.flag) {
      if (!flow.flags.includes(step.flag)) problems.push({ pointer: `${at}/flag`, message: `el flag "${step.flag}" no está en "flags"` });
      if (!flow.guardOrder.includes(step.flag)) problems.push({ pointer: `${at}/flag`, message: `el flag "${step.flag}" no está en "guardOrder"` });
      if (flagOwners.has(step.flag)) problems.push({ pointer: `${at}/flag`, message: `el flag "${step.flag}" ya lo usa el paso "${flagOwners.get(step.flag)}"` });
      flagOwners.set(step.flag, step.id);
    } else if (step.id !== flow.entry) {
      problems.push({ pointer: `${at}/flag`, message: 'solo el paso de entrada puede no tener flag (SPEC §2: toda otra ruta está protegida)' });
    }
    needStep(step.back, `${at}/back`);
    if (typeof step.next === 'string') needStep(step.next, `${at}/next`);
    else step.next?.forEach((b, j) => { needStep(b.to, `${at}/next/${j}/to`); needCondition(b.when, `${at}/next/${j}/when`); });
    needStep(step.onError, `${at}/onError`);
    needCalls(step.onSubmit, `${at}/onSubmit`);
    for (const [field, refs] of Object.entries(step.onChange ?? {})) needCalls(refs, `${at}/onChange/${field}`);
    step.review?.forEach((sec, j) => needStep(sec.edit, `${at}/review/${j}/edit`));
    if (step.summary && !flow.summaries?.[step.summary]) problems.push({ pointer: `${at}/summary`, message: `el resumen "${step.summary}" no está declarado en "summaries"` });
    step.actions?.forEach((a, j) => needStep(a.to, `${at}/actions/${j}/to`));
    step.notices?.forEach((n, j) => needCondition(n.when, `${at}/notices/${j}/when`));
    if (step.stage && flow.stages && !flow.stages.includes(step.stage)) problems.push({ pointer: `${at}/stage`, message: `la etapa "${step.stage}" no está en "stages"` });
  });
  return problems;
}

/** Formats problems for a person: one line each, `flow/flow.json#<pointer>: <message>`. */
export function formatProblems(problems: FlowProblem[], file = 'flow/flow.json'): string {
  return problems.map((p) => `${file}#${p.pointer}: ${p.message}`).join('\n');
}
