/**
 * A call may read only answers already given ("contact details after the price"): when a step's call
 * (`onSubmit`, `onChange`, `extras`) binds `/answers/<other step>/…` and that step cannot come BEFORE it along
 * `next`, the call always goes without that answer on the way forward — a staffer who moved the step and forgot the
 * call. Reported as an ERROR naming the binding in flow/flow.json and the step schema the answer lives in.
 */
import { analyzeGraph } from '../../src/core/flow/graph.ts';
import { bindingPointers, type FlowProblem } from '../../src/core/flow/check-flow.ts';
import { escapeToken, parsePointer } from '../../src/core/flow/pointer.ts';
import type { Binding, FlowDef } from '../../src/core/flow/types.ts';

/** @returns one error per binding that reads a later (or never-earlier) step's answers */
export function checkAnswerOrder(def: FlowDef): FlowProblem[] {
  const { predecessors } = analyzeGraph(def);
  const ancestors = (id: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [...(predecessors.get(id) ?? [])];
    while (stack.length) {
      const s = stack.pop()!;
      if (seen.has(s)) continue;
      seen.add(s);
      stack.push(...(predecessors.get(s) ?? []));
    }
    return seen;
  };
  const ids = new Set(def.steps.map((s) => s.id));
  const problems: FlowProblem[] = [];
  const reported = new Set<string>();
  for (const step of def.steps) {
    const names = [
      ...(step.onSubmit ?? []),
      ...Object.values(step.onChange ?? {}).flat(),
      ...(step.extras ?? []).flatMap((x) => ('call' in x && typeof x.call === 'string' ? [x.call] : [])),
    ].map((r) => (typeof r === 'string' ? r : r.call));
    const before = ancestors(step.id);
    for (const name of names) {
      const call = def.calls[name];
      if (!call) continue;
      for (const part of ['body', 'query', 'params'] as const) {
        for (const b of bindingPointers(call[part] as Binding | undefined, `/calls/${escapeToken(name)}/${part}`)) {
          const t = parsePointer(b.pointer);
          if (!t || t[0] !== 'answers' || t.length < 3 || t[1] === step.id || !ids.has(t[1]) || before.has(t[1])) continue;
          const key = `${b.at}|${step.id}`;
          if (reported.has(key)) continue;
          reported.add(key);
          problems.push({
            file: 'flow/flow.json',
            pointer: b.at,
            message: `la llamada "${name}" del paso "${step.id}" lee "${b.pointer}", pero el paso "${t[1]}" (schemas/${t[1]}.schema.json) no viene antes de "${step.id}": la llamada sale sin ese dato. Sacá la lectura de la llamada o poné "${t[1]}" antes de "${step.id}"`,
          });
        }
      }
    }
  }
  return problems;
}
