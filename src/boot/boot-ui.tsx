/**
 * Boot phase "screens" (loaded by ./start.ts as its own chunk, after the engine phase, so that neither chunk's
 * evaluation is one long task): React, the router built from the flow and the screens. `mount` hydrates the
 * prerendered HTML when the page has the step of the current route (`#root[data-paso]`, scripts/prerender/), in a
 * transition so React hydrates in slices; anything else is rendered afresh. After the first commit it tells
 * public/arranque.js that kept taps can be replayed, fetches the next steps' schemas once the browser is idle, and
 * arms the fetch of the form engine chunk on the visitor's first interaction (a touch, a key, the mouse moving) and,
 * on a page where no form has run yet, the rehearsal of the next step's form at that interaction (./rehearsal.tsx).
 * A move to a form step waits for its form (`moveWhenFormReady`).
 */
import { startTransition, StrictMode, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { I18nextProvider, useTranslation } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { APP_READY_EVENT, createFlowRouter } from '../app/router';
import { stepByPath } from '../engine/core/guards.ts';
import { sinBase } from '../app/base.ts';
import type { Flow } from '../core/flow/types.ts';
import type { FlowEngine } from '../engine/model';
import { prefetchForms } from '../screens/StepScreen';
import { loadStepForm } from '../form/load';
import { whenIdle } from '../engine/scheduler.ts';
import { nextFormSteps } from '../core/flow/graph.ts';
import { FIRST_INTERACTION_EVENTS, rehearseNextForms } from './rehearsal';

/** After the first commit (the hydration): taps kept by public/arranque.js are replayed; prefetches armed. */
function AfterFirstCommit({ flow, engine }: { flow: Flow; engine: FlowEngine }) {
  const { i18n } = useTranslation();
  useEffect(() => {
    window.dispatchEvent(new Event(APP_READY_EVENT));
    prefetchOnFirstInteraction();
    const stopRehearsals = rehearseNextForms(flow, engine, i18n);
    const stopPrefetches = prefetchNextSteps(flow, engine);
    return () => {
      stopRehearsals();
      stopPrefetches();
    };
  }, [flow, engine, i18n]);
  return null;
}

/**
 * The schemas and validator of every form step the current step's `next` can lead to (small chunks), fetched when the
 * browser is next idle after each step is entered, or at the visitor's next press or key if that comes first, so a
 * tap on the step's button never waits for a request before the next question renders. The current step is followed,
 * not read once: at the first commit the route's guard may not have settled it yet. @returns the clean-up
 */
function prefetchNextSteps(flow: Flow, engine: FlowEngine): () => void {
  let pending: (() => void) | undefined;
  const loadNow = () => {
    const load = pending;
    pending = undefined;
    load?.();
  };
  const prefetch = (stepId: string | null) => {
    const forms = nextFormSteps(flow, stepId);
    if (!forms.length) return;
    pending = () => void import('../form/validators').then((v) => Promise.all(forms.map((s) => v.loadStep(s.id)))).catch(() => undefined);
    whenIdle(loadNow, 2000);
  };
  const events = ['pointerdown', 'keydown'] as const;
  for (const e of events) window.addEventListener(e, loadNow, { capture: true, passive: true });
  prefetch(engine.$currentStep.getState());
  const unwatch = engine.$currentStep.updates.watch(prefetch);
  return () => {
    unwatch();
    for (const e of events) window.removeEventListener(e, loadNow, true);
  };
}

/**
 * Fetches the form engine chunk (~65 KB gzip) on the visitor's first sign of reading the page: a touch (a finger's
 * scroll starts with one), a key, a focus, the mouse wheel or the mouse moving. Never while step 1 is painting, and
 * never for a visitor who only looks: step 1's bytes stay within the stack floor's (`npm run bench`, step-1 JS). A
 * visitor who scrolls, or moves the mouse, before the tap has the engine by then: the first question needs no request
 * (docs/performance.md › The first interaction).
 */
function prefetchOnFirstInteraction() {
  const go = () => {
    for (const e of FIRST_INTERACTION_EVENTS) window.removeEventListener(e, go, true);
    prefetchForms();
  };
  for (const e of FIRST_INTERACTION_EVENTS) window.addEventListener(e, go, { capture: true, passive: true });
}

/** The router for `flow` bound to `engine` (routes, the entry redirect of a prerendered page). */
export function buildRouter(flow: Flow, engine: FlowEngine, prerendered: string | undefined) {
  const Router = createFlowRouter(flow, engine, { prerendered });
  moveWhenFormReady(flow, engine);
  return Router;
}

/** How long a move to a form step waits for its form at most (ms); past it the step shows its placeholder first. */
const FORM_WAIT_MS = 500;

/** The form of step `stepId` ready to render: the form engine chunk evaluated, the step's schemas and validator loaded. */
const formReady = (stepId: string) =>
  Promise.all([loadStepForm(), import('../form/validators').then((v) => v.loadStep(stepId))]).catch(() => undefined);

/**
 * A move the visitor made (a tap: submit, back, edit, restart; not a redirect, which replaces) to a form step waits
 * for that step's form (at most {@link FORM_WAIT_MS}), the current screen staying until then: the next step then
 * renders whole in one pass. Otherwise it would render and commit its placeholder first and the form after, and React
 * holds a Suspense boundary's content at least 300 ms after its fallback was shown. Only the latest move is made: one
 * asked for meanwhile replaces a waiting one.
 */
function moveWhenFormReady(flow: Flow, engine: FlowEngine) {
  const move = engine.navigateFx.use.getCurrent();
  let latest = 0;
  engine.navigateFx.use(async (request) => {
    const mine = ++latest;
    const step = flow.steps.find((s) => s.id === request.stepId);
    if (!request.replace && step?.kind === 'form') {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([formReady(step.id), new Promise((r) => (timer = setTimeout(r, FORM_WAIT_MS)))]);
      clearTimeout(timer);
      if (mine !== latest) return;
    }
    return move(request);
  });
}

/**
 * Renders the app into `container`: hydrates when `prerendered` (the step the HTML was built for) is the step of the
 * route we are at now (a resume link may have moved it), otherwise renders afresh.
 */
export function mount(
  container: HTMLElement,
  flow: Flow,
  engine: FlowEngine,
  i18n: I18n,
  Router: ReturnType<typeof buildRouter>,
  prerendered: string | undefined,
) {
  const app = (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <Router />
        <AfterFirstCommit flow={flow} engine={engine} />
      </I18nextProvider>
    </StrictMode>
  );
  if (prerendered && stepByPath(flow, sinBase(window.location.pathname))?.id === prerendered)
    startTransition(() => void hydrateRoot(container, app));
  else {
    container.textContent = '';
    createRoot(container).render(app);
  }
}

/** The message shown instead of the app when the flow cannot run (development only; see ./boot-engine.ts › flowProblems). */
export function mountProblems(container: HTMLElement, i18n: I18n, detail: string) {
  container.textContent = '';
  createRoot(container).render(
    <main className="main">
      <section className="result result--error">
        <h1 className="result__title">{i18n.t('app.flujoInvalido')}</h1>
        <pre>{detail}</pre>
      </section>
    </main>,
  );
}
