/**
 * Entry point: checks the flow (an invalid one shows what to fix, never a blank page), restores the journey, then
 * renders the router built from the flow — hydrating the prerendered HTML when the page has the step of its route
 * (issue 9: `#root[data-paso]`, scripts/prerender.ts). After the first commit it tells public/arranque.js (which
 * loaded this module after the first paint) that taps can be replayed, and the form engine chunk is fetched on the
 * first interaction.
 */
import { startTransition, StrictMode, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router-dom';
import flowJson from '../flow/flow.json';
import { api } from './api/instance';
import { APP_READY_EVENT, createFlowRouter } from './app/router';
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

/** After the first commit (the hydration): taps kept by public/arranque.js are replayed; prefetch armed. */
function AfterFirstCommit() {
  useEffect(() => {
    window.dispatchEvent(new Event(APP_READY_EVENT));
    prefetchOnFirstInteraction();
  }, []);
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
  const prerendered = container.dataset.paso;
  const router = createFlowRouter(flow, runtime.engine, { prerendered });
  const app = (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
        <AfterFirstCommit />
      </I18nextProvider>
    </StrictMode>
  );
  // testers' recorder (?grabar=1): loaded only when asked for, before the first route so it sees the whole journey
  const recording = new URLSearchParams(window.location.search).has('grabar')
    ? () =>
        import('./testing/recorder').then((m) =>
          m.startRecorder(flow, runtime.engine, (k, o) => i18n.t(k, o) as string, async () => import.meta.env.DEV || (await api.get<{ habilitado: boolean }>('/grabador')).habilitado),
        )
    : async () => undefined;
  void runtime.start().then(recording).then(() => {
    // hydrate only HTML prerendered for the step of the route we are at now (a resume link may have moved it); anything
    // else is rendered afresh. In a transition: React hydrates in slices, leaving the main thread free between them.
    if (prerendered && stepByPath(flow, window.location.pathname)?.id === prerendered) startTransition(() => void hydrateRoot(container, app));
    else {
      container.textContent = '';
      createRoot(container).render(app);
    }
  });
}
