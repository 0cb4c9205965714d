/**
 * The flow checker's problems as the staff preview shows them: computed in Node by `npm run flow:check`'s checker over
 * this build's files (scripts/vite-vista-previa.ts: at build time, and anew under `npm run dev` on every JSON change),
 * grouped here by step. Only the preview's own chunk imports this module.
 */
import problems from 'virtual:problemas-del-flujo';
import flowDef from '../../flow/flow.json';
import type { FlowProblem } from '../core/flow/check-flow.ts';
import type { Flow } from '../core/flow/types.ts';

/** Every problem the checker finds in this build's files (errors and warnings). */
export function previewProblems(): FlowProblem[] {
  return problems;
}

/**
 * The problems that belong to step `stepId`: in its schema or ui schema files, under its entry of flow.json's
 * `steps`, or under its area of es.json. Problems of the flow as a whole (calls, conditions) are `general`.
 */
export function problemsByStep(flow: Flow, all: FlowProblem[]): { byStep: Record<string, FlowProblem[]>; general: FlowProblem[] } {
  const byStep: Record<string, FlowProblem[]> = Object.fromEntries(flow.steps.map((s) => [s.id, []]));
  const general: FlowProblem[] = [];
  const defSteps = (flowDef as { steps: { id: string }[] }).steps;
  for (const p of all) {
    const file = p.file ?? 'flow/flow.json';
    const schemaFile = /^schemas\/([^/]+)\.(?:schema|ui)\.json$/.exec(file);
    const stepInFlow = file === 'flow/flow.json' ? /^\/steps\/(\d+)(?:\/|$)/.exec(p.pointer) : null;
    const textArea = file === 'src/i18n/es.json' ? /^\/([^/]+)/.exec(p.pointer) : null;
    const id = schemaFile?.[1] ?? (stepInFlow ? defSteps[Number(stepInFlow[1])]?.id : undefined) ?? textArea?.[1];
    if (id && byStep[id]) byStep[id].push(p);
    else general.push(p);
  }
  return { byStep, general };
}
