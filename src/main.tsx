/**
 * Entry point: checks the flow (an invalid one shows what to fix, never a blank page), restores
 * the journey, then renders the router built from the flow.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router-dom';
import flowJson from '../flow/flow.json';
import { api } from './api/instance';
import { createFlowRouter } from './app/router';
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
const root = createRoot(document.getElementById('root') as HTMLElement);
const problems = errorsOnly(checkFlow(def, undefined, { callsUsedElsewhere: callsNamedInUi(allUiSchemas()).map((c) => c.call) }));

if (problems.length) {
  // the checker stops this at build; if it still happens, the visitor gets a Spanish message, not a blank page
  console.error(formatProblems(problems));
  root.render(
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
  const router = createFlowRouter(flow, runtime.engine);
  // testers' recorder (?grabar=1): loaded only when asked for, before the first route so it sees the whole journey
  const recording = new URLSearchParams(window.location.search).has('grabar')
    ? () =>
        import('./testing/recorder').then((m) =>
          m.startRecorder(flow, runtime.engine, (k, o) => i18n.t(k, o) as string, async () => import.meta.env.DEV || (await api.get<{ habilitado: boolean }>('/grabador')).habilitado),
        )
    : async () => undefined;
  void runtime.start().then(recording).then(() =>
    root.render(
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          <RouterProvider router={router} />
        </I18nextProvider>
      </StrictMode>,
    ),
  ).then(() => ('requestIdleCallback' in window ? window.requestIdleCallback(prefetchForms) : setTimeout(prefetchForms, 1500)));
}
