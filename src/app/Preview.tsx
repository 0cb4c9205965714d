/**
 * Staff preview (development builds only: `npm run dev`, then /<basePath>/__vista-previa): every step of the flow
 * in graph order with its route, flag and kind; "Abrir" opens any step directly with sample answers (the root
 * `examples` of each step schema) and the flag of that step set, so its guard lets it in. Never in a production
 * build: the router adds this route only under `import.meta.env.DEV` and loads this module lazily.
 */
import { useUnit } from 'effector-react';
import { flagsForRoute } from '../engine/core/guards.ts';
import type { Flow } from '../engine/core/types.ts';
import type { FlowEngine } from '../engine/model';
import { emptyState } from '../engine/state';
import { stepSchema } from '../form/validators/schemas';

/** Sample answers of every step: the first of `examples` at the root of its schema. */
export function sampleAnswers(flow: Flow, schemaOf: (id: string) => Record<string, unknown> | undefined = stepSchema): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const s of flow.steps) {
    const examples = schemaOf(s.id)?.examples;
    if (Array.isArray(examples) && examples[0] && typeof examples[0] === 'object') out[s.id] = examples[0] as Record<string, unknown>;
  }
  return out;
}

export function Preview({ engine }: { engine: FlowEngine }) {
  const [restore, navigate] = useUnit([engine.stateRestored, engine.navigateFx]);
  const flow = engine.flow;
  const open = (id: string) => {
    restore({ ...emptyState(flow), answers: sampleAnswers(flow), flags: flagsForRoute(flow, id) });
    void navigate({ stepId: id });
  };
  return (
    <main className="main">
      <h1>Vista previa del flujo (v{flow.version})</h1>
      <p>Solo en desarrollo. Abrí cualquier paso con respuestas de ejemplo; los guards lo dejan pasar.</p>
      <table className="preview">
        <thead>
          <tr><th>Paso</th><th>Ruta</th><th>Flag</th><th>Tipo</th><th /></tr>
        </thead>
        <tbody>
          {flow.steps.map((s) => (
            <tr key={s.id}>
              <td>{s.id}</td>
              <td>/{s.path}</td>
              <td>{s.flag}</td>
              <td>{s.kind}</td>
              <td>
                <button type="button" className="link-button" onClick={() => open(s.id)}>
                  Abrir {s.id}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
