/**
 * The testers' journey recorder: with `?grabar=1` (development builds; production only when the API says so, config
 * GRABADOR=1) a small bar records the journey as a fixture (flow/journey.schema.json) — routes, answers by schema
 * field, actions (next, browser back, result actions) and the API calls each submit makes (method and path) — and «Descargar fixture»
 * saves it. Answers named in the flow's `recorder.replace` (card numbers, CBUs, names, e-mails, phones, DNI, street)
 * are replaced by test values or placeholders (a step schema's own example value, such as the card refused at
 * emission, is test data and kept), so a recorded file holds no visitor's data and still replays; dates are
 * recorded relative to the day, the phone fitted to its area code, only the calls the submit declares, and the result
 * (the quote's and the chosen plan's money, the policy number) as expectations (src/recorder/record-rules.ts).
 * Loaded lazily, only when asked for: it adds nothing to a visitor's page.
 */
import { createRoot } from 'react-dom/client';
import { useSyncExternalStore } from 'react';
import { stepById, stepByPath } from '../engine/core/guards.ts';
import { setAt } from '../core/flow/pointer.ts';
import type { Flow } from '../core/flow/types.ts';
import type { FlowEngine } from '../engine/model.ts';
import { markSynthetic } from '../engine/funnel/synthetic.ts';
import type { Journey, JourneyStep } from './journey.ts';
import type { Pins } from './pins.ts';
import { loadStep, type LoadedStep } from '../form/validators/index.ts';
import { declaredCall, isSchemaExample, policyIssued, recordedAnswers, resultExpectations } from './record-rules.ts';

type Json = Record<string, unknown>;

/** The query parameter that turns the recorder on. */
export const RECORD_PARAM = 'grabar';

/** Records journeys of `engine`; `snapshot()` is the fixture so far. */
export function createRecorder(
  flow: Flow,
  engine: FlowEngine,
  opts: { url: string; viewport: { width: number; height: number }; label: (stepId: string, text: string) => string },
) {
  const steps: (JourneyStep & { closed?: boolean })[] = [];
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((l) => l());
  const routeOf = (id: string) => stepById(flow, id).path;
  const last = () => steps[steps.length - 1];
  const pinned: Pins = {};
  const open = (stepId: string) => {
    const cur = last();
    if (!cur || cur.closed || cur.route !== routeOf(stepId)) {
      const exp = resultExpectations(engine.$state.getState(), stepById(flow, stepId).kind === 'result', pinned);
      steps.push({ route: routeOf(stepId), ...(Object.keys(exp).length ? { expect: exp } : {}) });
    }
  };
  const unwatch = [
    engine.$currentStep.updates.watch((id) => {
      if (id) open(id);
      changed();
    }),
    engine.stepSubmitted.watch(({ stepId, formData }) => {
      const cur = last();
      if (!cur || cur.closed) steps.push({ route: routeOf(stepId) });
      const target = last();
      if (Object.keys(formData).length) target.answers = answersToRecord(flow, stepId, formData);
      target.closed = true; // the default action, next
      changed();
    }),
    // browser Back/Forward: the page being left gets the action `back` (routeEntered comes before the new step opens)
    engine.routeEntered.watch(({ pop }) => {
      const cur = last();
      if (pop && cur && !cur.closed) {
        cur.actions = ['back'];
        cur.closed = true;
      }
    }),
    engine.editClicked.watch(({ stepId }) => {
      const cur = last();
      const from = cur ? stepByPath(flow, cur.route) : undefined;
      const action = from?.actions?.find((a) => a.to === stepId);
      if (cur && from && action) {
        cur.actions = [{ click: opts.label(from.id, action.text) }];
        cur.closed = true;
      }
    }),
    // the policy is issued while the result step shows (emission polled): its number becomes the step's expectation
    engine.$state.updates.watch((state) => {
      const cur = last();
      const step = cur ? stepByPath(flow, cur.route) : undefined;
      if (cur && step?.kind === 'result' && !cur.expect?.policyNumber && policyIssued(state)) {
        cur.expect = { ...cur.expect, policyNumber: true };
        changed();
      }
    }),
    ...watchSubmitCalls(flow, engine, last),
  ];

  const first = engine.$currentStep.getState();
  if (first) open(first);

  /** The journey so far, as a fixture file. */
  function snapshot(): Journey {
    const clean = steps.map(({ closed: _c, ...s }) => s);
    return {
      name: `grabado-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}`,
      proves: 'Recorrido grabado en el navegador (completá qué demuestra).',
      url: opts.url,
      viewport: opts.viewport,
      steps: clean,
    };
  }

  return {
    snapshot,
    subscribe: (l: () => void) => (listeners.add(l), () => listeners.delete(l)),
    count: () => steps.length,
    stop: () => unwatch.forEach((u) => u.unsubscribe()),
  };
}

/**
 * What a step's answers are recorded as: the fields named in the flow's `recorder.replace` replaced by their test value
 * or placeholder (unless the typed value is the step schema's own example, which is test data and kept), then dates made
 * relative to today and the phone fitted to its area code (record-rules.ts › recordedAnswers).
 */
function answersToRecord(flow: Flow, stepId: string, data: Json): Json {
  let ctx: Json = { answers: { [stepId]: structuredClone(data) } };
  // the step's schema, loaded when its form showed (a settled loadStep promise carries its value); a step with no
  // compiled form has none, and nothing of it is kept
  const loaded = loadStep(stepId) as Promise<LoadedStep> & { value?: LoadedStep };
  loaded.catch(() => undefined);
  const schema = loaded.value?.schema;
  for (const [pointer, value] of Object.entries(flow.recorder?.replace ?? {})) {
    const [, root, step, ...rest] = pointer.split('/');
    const typed = (data as Json)[rest[0]];
    if (
      root === 'answers' &&
      step === stepId &&
      rest.length &&
      typed !== undefined &&
      !(rest.length === 1 && isSchemaExample(schema, rest[0], typed))
    )
      ctx = setAt(ctx, pointer, value);
  }
  return recordedAnswers(
    (ctx.answers as Json)[stepId] as Json,
    new Date(),
    flow.recorder?.replace?.[`/answers/${stepId}/phoneNumber`] as string | undefined,
  );
}

/**
 * Records on the open step the calls its submit makes (what the flow declares for it; method and path, UUIDs as `*`,
 * each once); timers, lists and live re-pricing are left out, their timing is the visitor's, not the journey's.
 * @returns the subscriptions, for `stop()`
 */
function watchSubmitCalls(flow: Flow, engine: FlowEngine, last: () => JourneyStep | undefined) {
  let submitting = 0;
  return [
    engine.submitFx.watch(() => void (submitting += 1)),
    engine.submitFx.finally.watch(() => void (submitting -= 1)),
    engine.requestFx.watch((req) => {
      const cur = last();
      if (!cur || submitting === 0) return;
      const from = stepByPath(flow, cur.route);
      if (!from || !declaredCall(flow, from.id, req)) return;
      const path = req.path.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '*');
      const calls = (cur.calls ??= []);
      if (!calls.some((c) => c.method === req.method && c.path === path)) calls.push({ method: req.method, path });
    }),
  ];
}

/** The recorder bar: a count of steps and «Descargar fixture». */
function RecorderBar({ recorder, t }: { recorder: ReturnType<typeof createRecorder>; t: (key: string, o?: Json) => string }) {
  const count = useSyncExternalStore(recorder.subscribe, recorder.count);
  const download = () => {
    const journey = recorder.snapshot();
    const blob = new Blob([JSON.stringify({ $schema: '../../../flow/journey.schema.json', ...journey }, null, 2) + '\n'], {
      type: 'application/json',
    });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${journey.name}.json`;
    a.click();
    URL.revokeObjectURL(a.href);
  };
  return (
    <div className="recorder" role="region" aria-label={t('grabador.grabando')}>
      <span className="recorder__dot" aria-hidden="true" />
      <span>
        {t('grabador.grabando')} · {t('grabador.pasos', { count })}
      </span>
      <button type="button" className="button button--small" onClick={download} title={t('grabador.aviso')}>
        {t('grabador.descargar')}
      </button>
    </div>
  );
}

/**
 * Starts the recorder on this page when the URL asks for it and the build or the API allows it.
 * @param allowed resolves whether recording may run (development build, or GET /api/grabador on production)
 */
export async function startRecorder(
  flow: Flow,
  engine: FlowEngine,
  t: (key: string, o?: Json) => string,
  allowed: () => Promise<boolean>,
): Promise<void> {
  if (!(await allowed().catch(() => false))) return;
  markSynthetic(window.sessionStorage); // a tester's journey: the staff funnel report leaves it out
  const params = new URLSearchParams(window.location.search);
  params.delete(RECORD_PARAM);
  const query = params.toString();
  const recorder = createRecorder(flow, engine, {
    url: `${window.location.pathname}${query ? `?${query}` : ''}`,
    viewport: { width: window.innerWidth, height: window.innerHeight },
    label: (stepId, text) => t(`${stepId}.acciones.${text}`),
  });
  const host = document.createElement('div');
  document.body.appendChild(host);
  createRoot(host).render(<RecorderBar recorder={recorder} t={t} />);
}
