/**
 * Entry point: checks the flow (an invalid one shows what to fix, never a blank page), renders the router built from
 * the flow — hydrating the prerendered HTML when the page has the step of its route (issue 9: `#root[data-paso]`,
 * scripts/prerender.ts) — then restores the journey; the form engine chunk is fetched on the first interaction.
 */
import { StrictMode, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router-dom';
import flowJson from '../flow/flow.json';
import { api } from './api/instance';
import { createFlowRouter } from './app/router';
import { stepByPath } from './engine/core/guards.ts';
import { checkFlow, errorsOnly, formatProblems } from './engine/core/check-flow.ts';
import { compileFlow } from './engine/core/graph.ts';
import { allUiSchemas, conditionTests } from './form/validators';
import { callsNamedInUi } from './form/widgets/registry';
import type { FlowDef } from './engine/core/types.ts';
import type { Migration } from './engine/core/migrations.ts';
import { createRuntime } from './engine/runtime';
import { prefetchForms } from './screens/StepScreen';
import { i18n } from './i18n';
import './styles.css';

const def = flowJson as unknown as FlowDef;
const container = document.getElementById('root') as HTMLElement;
const problems = errorsOnly(checkFlow(def, undefined, { callsUsedElsewhere: callsNamedInUi(allUiSchemas()).map((c) => c.call) }));

/** Runs `run` once, after the first commit (the hydration): nothing changes the stores while React hydrates. */
function AfterFirstCommit({ run }: { run: () => void }) {
  useEffect(run, [run]);
  return null;
}

/** Fetches the form engine chunk on the visitor's first interaction (never while step 1 is painting). */
function prefetchOnFirstInteraction() {
  const events = ['pointerdown', 'keydown', 'touchstart', 'focusin'] as const;
  const go = () => {
    for (const e of events) window.removeEventListener(e, go, true);
    prefetchForms();
  };
  for (const e of events) window.addEventListener(e, go, { capture: true, passive: true });
}

if (problems.length) {
  // the checker stops this at build; if it still happens, the visitor gets a Spanish message, not a blank page
  console.error(formatProblems(problems));
  container.textContent = '';
  createRoot(container).render(
    <main className="main">
      <section className="result result--error">
        <h1 className="result__title">{i18n.t('app.flujoInvalido')}</h1>
        {import.meta.env.DEV && <pre>{formatProblems(problems)}</pre>}
      </section>
    </main>,
  );
} else {
  const flow = compileFlow(def, conditionTests());
  const migrations = Object.values(import.meta.glob<Migration>('../flow/migrations/*.json', { eager: true, import: 'default' }));
  const runtime = createRuntime({ flow, api, migrations, texts: { genericError: i18n.t('errors.generic'), timeoutError: i18n.t('errors.timeout') } });
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const prerendered = container.dataset.paso;
  const router = createFlowRouter(flow, runtime.engine, { prerendered, ready });
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    void runtime.start().then(markReady);
    prefetchOnFirstInteraction();
  };
  const app = (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
        <AfterFirstCommit run={start} />
      </I18nextProvider>
    </StrictMode>
  );
  // hydrate only HTML prerendered for this very route's step; anything else is rendered afresh
  if (prerendered && stepByPath(flow, window.location.pathname)?.id === prerendered) hydrateRoot(container, app);
  else {
    container.textContent = '';
    createRoot(container).render(app);
  }
}
