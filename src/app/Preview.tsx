/**
 * Staff preview, `/<basePath>/__vista-previa` (docs/flow-format.md › Vista previa): every step of the flow in graph
 * order with its route, flag, kind and the flow checker's problems of that step. "Abrir" reaches a step the way a
 * visitor would: from the entry step, each step on the way is submitted with its sample answers (the first root
 * `examples` of its schema), so the flow's own calls run against the API and the step opens with real data (the quote's
 * plans, for instance). A walk never submits a step whose calls move money (`idempotent` in flow.json › calls): a step
 * past one (the thank-you page) opens with sample answers and its flag set instead, as does a step the walk cannot
 * reach (the bar says where it stopped and why). A bar on the opened step lists its problems. Under `npm run dev` always; on a production build when the server
 * has VISTA_PREVIA=1 (src/app/PreviewGate.tsx asks GET /api/vista-previa). Its own chunk: visitors never load it.
 * Opening it marks the tab's funnel journeys as synthetic (engine/funnel › markSynthetic): the staff report leaves them out.
 */
import { useUnit } from 'effector-react';
import { useEffect, useMemo, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { flagsForRoute } from '../engine/core/guards.ts';
import type { FlowProblem } from '../core/flow/check-flow.ts';
import type { Flow } from '../core/flow/types.ts';
import type { FlowEngine } from '../engine/model';
import { emptyState } from '../engine/state';
import { markSynthetic } from '../engine/funnel/synthetic';
import { loadStep } from '../form/validators';
import { previewProblems, problemsByStep } from './preview-problems';
import { BASE } from './base.ts';

/** Sample answers of every step: the first of `examples` at the root of its schema. */
export function sampleAnswers(
  flow: Flow,
  schemaOf: (id: string) => Record<string, unknown> | undefined,
): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const s of flow.steps) {
    const examples = schemaOf(s.id)?.examples;
    if (Array.isArray(examples) && examples[0] && typeof examples[0] === 'object') out[s.id] = examples[0] as Record<string, unknown>;
  }
  return out;
}

const where = (p: FlowProblem) => `${p.file ?? 'flow/flow.json'}#${p.pointer}`;

// Inline styles: the preview's look must not grow the stylesheet every visitor's page inlines.
const S = {
  ok: { color: 'var(--c-accent)' },
  list: { margin: 0, paddingLeft: '1.1rem', fontSize: '.9rem' },
  error: { color: 'var(--c-error)' },
  warning: { color: '#7a4d00' },
  table: { borderCollapse: 'collapse', width: '100%', fontSize: '.95rem' },
  cell: { borderTop: '1px solid var(--c-line)', padding: '.4rem .5rem', verticalAlign: 'top', textAlign: 'left' },
  bar: {
    position: 'fixed',
    bottom: 0,
    left: 0,
    right: 0,
    zIndex: 50,
    maxHeight: '40vh',
    overflow: 'auto',
    padding: '.6rem 1rem',
    background: '#fff8e1',
    borderTop: '2px solid #b08900',
    fontSize: '.9rem',
  },
} as const;

function ProblemList({ problems }: { problems: FlowProblem[] }) {
  if (problems.length === 0) return <span style={S.ok}>Sin problemas</span>;
  return (
    <ul style={S.list}>
      {problems.map((p, i) => (
        <li key={i} style={p.severity === 'warning' ? S.warning : S.error}>
          <strong>{p.severity === 'warning' ? 'Aviso' : 'Error'}</strong> <code>{where(p)}</code>: {p.message}
        </li>
      ))}
    </ul>
  );
}

function StepProblemsBar({ engine, byStep, note }: { engine: FlowEngine; byStep: Record<string, FlowProblem[]>; note: string | null }) {
  const current = useUnit(engine.$currentStep);
  if (!current) return null;
  return (
    <aside style={S.bar} aria-label="Vista previa: problemas del paso">
      <p>
        Vista previa · paso <b>{current}</b> · <a href={`${BASE}/${engine.flow.basePath}/__vista-previa`}>volver a la lista</a>
      </p>
      {note && <p style={S.warning}>{note}</p>}
      <ProblemList problems={byStep[current] ?? []} />
    </aside>
  );
}

let bar: { host: HTMLElement; root: Root } | null = null;

/** Shows, on every step opened from the preview (until the page reloads), a bar with that step's problems. */
function showProblemsBar(engine: FlowEngine, byStep: Record<string, FlowProblem[]>, note: string | null) {
  if (!bar) {
    const host = document.createElement('div');
    document.body.appendChild(host);
    bar = { host, root: createRoot(host) };
  }
  bar.root.render(<StepProblemsBar engine={engine} byStep={byStep} note={note} />);
}

/** Whether submitting `step` runs a call that moves money (flow.json › calls › idempotent). */
function movesMoney(flow: Flow, stepId: string): boolean {
  const step = flow.steps.find((s) => s.id === stepId);
  return (step?.onSubmit ?? []).some((ref) => flow.calls[typeof ref === 'string' ? ref : ref.call]?.idempotent === true);
}

/** Resolves true once the engine's current step satisfies `ok` (the route entered it), false after `ms`. */
function stepReached(engine: FlowEngine, ok: (id: string | null) => boolean, ms: number): Promise<boolean> {
  if (ok(engine.$currentStep.getState())) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      unwatch();
      resolve(false);
    }, ms);
    const unwatch = engine.$currentStep.watch((id) => {
      if (!ok(id)) return;
      clearTimeout(timer);
      queueMicrotask(() => unwatch());
      resolve(true);
    });
  });
}

/** The field errors and the banner the engine shows on `stepId`, as one line ('' when none). */
function errorsOn(engine: FlowEngine, stepId: string): string {
  const e = engine.$errors.getState()[stepId];
  return e ? [...Object.entries(e.fields).map(([f, m]) => `${f}: ${m}`), ...(e.banner ? [e.banner] : [])].join(' · ') : '';
}

/**
 * Resolves with the engine's next current step other than `from`; null after `ms`, or as soon as a submit of `from`
 * settles with errors on it (a field error, a refused check, a failed call).
 */
function nextStep(engine: FlowEngine, from: string, ms: number): Promise<string | null> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (v: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      queueMicrotask(() => {
        unwatchStep();
        unwatchSubmit();
      });
      resolve(v);
    };
    const timer = setTimeout(() => finish(null), ms);
    const unwatchStep = engine.$currentStep.watch((id) => {
      if (id && id !== from) finish(id);
    });
    const unwatchSubmit = engine.submitFx.finally.watch(() => {
      if (errorsOn(engine, from)) finish(null);
    });
  });
}

/**
 * Walks from the entry step to `target`, submitting each step's sample answers as a visitor would.
 * @returns null when `target` was reached, or why the walk stopped (Spanish, for the bar)
 */
async function walkTo(engine: FlowEngine, target: string, answers: Record<string, Record<string, unknown>>): Promise<string | null> {
  const { flow } = engine;
  engine.stateRestored({ ...emptyState(flow), flags: flagsForRoute(flow, flow.entry) });
  const atEntry = stepReached(engine, (id) => id === flow.entry, 20_000);
  await engine.navigateFx({ stepId: flow.entry });
  if (!(await atEntry)) return `no se abrió el paso de entrada "${flow.entry}"`;
  for (let i = 0; i < flow.steps.length + 1; i++) {
    const current = engine.$currentStep.getState();
    if (current === target) return null;
    if (!current) return 'la vista previa no encontró el paso actual';
    if (movesMoney(flow, current)) return `el recorrido se detuvo antes de enviar "${current}" (sus llamadas mueven dinero)`;
    const formData = answers[current] ?? {};
    const reached = nextStep(engine, current, 20_000);
    engine.stepSubmitted({ stepId: current, formData });
    if (!(await reached)) {
      const errors = errorsOn(engine, current);
      return `el paso "${current}" no avanzó con sus respuestas de ejemplo${errors ? `: ${errors}` : ''}`;
    }
  }
  return `"${target}" no está en el camino de las respuestas de ejemplo`;
}

export function Preview({ engine }: { engine: FlowEngine }) {
  const [restore, navigate] = useUnit([engine.stateRestored, engine.navigateFx]);
  const flow = engine.flow;
  const { byStep, general } = useMemo(() => problemsByStep(flow, previewProblems()), [flow]);
  const [walking, setWalking] = useState<string | null>(null);
  // this tab's journeys are the staff's, not visitors': the funnel marks them `sintetico` (left out of the report)
  useEffect(() => markSynthetic(window.sessionStorage), []);
  const open = async (id: string) => {
    // each form step's schema as the app loads it (its own chunk, as a visitor's page does): never bundled eagerly here,
    // which would make the schemas shared chunks and take them out of each step page's preload list
    const forms = flow.steps.filter((s) => s.kind === 'form');
    const schemas = new Map(
      await Promise.all(forms.map(async (s) => [s.id, (await loadStep(s.id).catch(() => undefined))?.schema] as const)),
    );
    const answers = sampleAnswers(flow, (stepId) => schemas.get(stepId) as Record<string, unknown> | undefined);
    setWalking(id);
    const stopped = await walkTo(engine, id, answers);
    setWalking(null);
    if (stopped) {
      // not reachable by a walk: open it with sample answers and its flag set, so its guard lets it in
      restore({
        ...engine.$state.getState(),
        answers: { ...answers, ...engine.$state.getState().answers },
        flags: flagsForRoute(flow, id),
      });
      void navigate({ stepId: id });
    }
    showProblemsBar(engine, byStep, stopped && `Abierto con respuestas de ejemplo: ${stopped}.`);
  };
  return (
    <main className="main">
      <h1>Vista previa del flujo (v{flow.version})</h1>
      <p>
        Para staff. Abrí cualquier paso con respuestas de ejemplo (los `examples` de su esquema); los guards lo dejan pasar. Cada paso lista
        lo que `npm run flow:check` encuentra en sus archivos.
      </p>
      {walking && <p role="status">Recorriendo el flujo hasta «{walking}»…</p>}
      {general.length > 0 && (
        <section aria-label="Problemas del flujo">
          <h2>Problemas del flujo</h2>
          <ProblemList problems={general} />
        </section>
      )}
      <div style={{ overflowX: 'auto' }}>
        <table style={S.table}>
          <thead>
            <tr>
              {['Paso', 'Checker', 'Ruta', 'Flag', 'Tipo'].map((h) => (
                <th key={h} style={S.cell}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {flow.steps.map((s) => (
              <tr key={s.id}>
                <td style={S.cell}>
                  <button type="button" className="link-button" disabled={walking !== null} onClick={() => void open(s.id)}>
                    Abrir {s.id}
                  </button>
                </td>
                <td style={S.cell}>
                  <ProblemList problems={byStep[s.id] ?? []} />
                </td>
                <td style={S.cell}>/{s.path}</td>
                <td style={S.cell}>{s.flag}</td>
                <td style={S.cell}>{s.kind}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </main>
  );
}
