/**
 * Rehearsals of the next step's form (loaded by ./boot-ui.tsx, in the screens chunk). The first time a form step is
 * rendered on a page, its code runs cold: React's, RJSF's and the widgets' functions are first compiled and run in
 * V8's interpreter, and that is part of what a tap on «Continuar» waits for: most of all step 1's «Cotizar ahora»,
 * the first form of the page. So, once the visitor has shown they are using a page where no form has run yet (a touch,
 * a key, a focus, the mouse: {@link FIRST_INTERACTION_EVENTS}), each step the current step leads to has its form
 * rendered once, when the browser is idle, where nobody sees it: in a React root of its own on a detached element,
 * inside `<Activity mode="hidden">` (React renders it at the lowest priority, in slices, and mounts no effect: no
 * widget calls the API, writes an answer or takes the focus), then thrown away. The real step renders afresh when the
 * visitor gets there, with its code warm (`npm run bench`, first tap after a finger scroll: docs/performance.md › The
 * first interaction).
 *
 * A page nobody touches rehearses nothing (Lighthouse, step 1's bytes: the form engine is not fetched for it), and a
 * rehearsal never shows and never throws into the page (its root swallows its errors).
 */
import { Activity, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { nextFormSteps } from '../core/flow/graph.ts';
import type { Flow, Step } from '../core/flow/types.ts';
import type { FlowEngine } from '../engine/model';
import { loadStepForm } from '../form/load';
import { whenIdle } from '../engine/scheduler.ts';
import { REHEARSAL_MARK } from './marks.ts';

/** The events that say a visitor is using the page (a finger's scroll starts with a touch; a desktop moves the mouse). */
export const FIRST_INTERACTION_EVENTS = ['pointerdown', 'keydown', 'touchstart', 'focusin', 'wheel', 'pointermove'] as const;

/**
 * At the visitor's first interaction, while the form engine's code is still cold on this page (no form step has been
 * the current step yet: step 1, a result or review page opened cold), rehearses the forms of the steps the current
 * step leads to. Once a form has run, the code a next step needs is mostly warm, and a rehearsal would only add a long
 * task at idle (measured: the next step's rehearsal after a coverage tap, 96–102 ms at 4×, in the window where the
 * bench wants no task over 50 ms). @returns the clean-up (listeners and watches removed)
 */
export function rehearseNextForms(flow: Flow, engine: FlowEngine, i18n: I18n): () => void {
  const isForm = (stepId: string | null) => flow.steps.find((s) => s.id === stepId)?.kind === 'form';
  let formSeen = isForm(engine.$currentStep.getState());
  const unwatchSteps = engine.$currentStep.updates.watch((stepId) => void (formSeen ||= isForm(stepId)));
  // moves asked for so far (a move is under way from its call on: its step is entered only after it renders)
  let moves = 0;
  const unwatchMoves = engine.navigateFx.watch(() => void moves++);
  const first = () => {
    stopListening();
    // formSeen has followed every current step, this one included
    if (formSeen) return;
    const from = engine.$currentStep.getState();
    const before = moves;
    const moved = () => moves !== before || engine.$currentStep.getState() !== from;
    for (const step of nextFormSteps(flow, from)) void rehearseForm(step, moved, engine, i18n);
  };
  const stopListening = () => {
    for (const e of FIRST_INTERACTION_EVENTS) window.removeEventListener(e, first, true);
  };
  for (const e of FIRST_INTERACTION_EVENTS) window.addEventListener(e, first, { capture: true, passive: true });
  return () => {
    unwatchSteps();
    unwatchMoves();
    stopListening();
  };
}

/**
 * Renders `step`'s form once, hidden and detached (see the module's comment), with the journey's answers and context
 * as they are now, and unmounts it once rendered. Waits for the form engine chunk and the step's schemas and validator
 * (the first interaction and ./boot-ui.tsx › prefetchNextSteps fetch them), each wait begun when the browser is idle
 * (so neither the loads nor the render run beside the render of a step just entered). Given up as soon as the
 * visitor has moved (`moved()`: a move asked for since it was planned, or another current step), and stopped by a
 * move while it renders: the tap that moves renders the step for real, and a rehearsal beside it would only delay
 * that render. A failed load or render is dropped too: the real step loads and renders as it would have without it.
 */
async function rehearseForm(step: Step, moved: () => boolean, engine: FlowEngine, i18n: I18n) {
  const idle = () => new Promise<void>((resolve) => whenIdle(resolve, 2000));
  // nothing, not even its loads, beside the render of the step just entered
  await idle();
  if (moved()) return;
  let StepForm: Awaited<ReturnType<typeof loadStepForm>>['StepForm'];
  try {
    [{ StepForm }] = await Promise.all([loadStepForm(), import('../form/validators').then((v) => v.loadStep(step.id))]);
  } catch {
    return;
  }
  await idle();
  if (moved()) return;
  const box = document.createElement('div');
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    observer.disconnect();
    unwatch();
    // not during React's own commit: in a task of its own
    setTimeout(() => root.unmount(), 0);
  };
  const observer = new MutationObserver(() => {
    performance.mark(`${REHEARSAL_MARK}${step.id}`);
    finish();
  });
  observer.observe(box, { childList: true });
  // a move while it renders: the rehearsal stops there
  const unwatch = engine.navigateFx.watch(finish);
  const root = createRoot(box, { onUncaughtError: finish, onCaughtError: () => undefined, onRecoverableError: () => undefined });
  const context = engine.$context.getState();
  startTransition(() =>
    root.render(
      <Activity mode="hidden">
        <I18nextProvider i18n={i18n}>
          <StepForm
            stepId={step.id}
            formData={(context.answers[step.id] ?? {}) as Record<string, unknown>}
            context={context}
            call={() => new Promise<never>(() => undefined)}
            submitLabel=""
            onSubmit={() => undefined}
          />
        </I18nextProvider>
      </Activity>,
    ),
  );
}
