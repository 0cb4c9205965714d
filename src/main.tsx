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
import { checkFlow, formatProblems } from './engine/core/check-flow.ts';
import type { FlowDef } from './engine/core/types.ts';
import { createRuntime } from './engine/runtime';
import { prefetchForms } from './screens/StepScreen';
import { i18n } from './i18n';
import './styles.css';

const flow = flowJson as unknown as FlowDef;
const root = createRoot(document.getElementById('root') as HTMLElement);
const problems = checkFlow(flow);

if (problems.length) {
  root.render(
    <main className="main">
      <h1>{i18n.t('app.flujoInvalido')}</h1>
      <pre>{formatProblems(problems)}</pre>
    </main>,
  );
} else {
  const runtime = createRuntime({ flow, api, texts: { genericError: i18n.t('errors.generic'), timeoutError: i18n.t('errors.timeout') } });
  const router = createFlowRouter(flow, runtime.engine);
  void runtime.start().then(() =>
    root.render(
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          <RouterProvider router={router} />
        </I18nextProvider>
      </StrictMode>,
    ),
  ).then(() => ('requestIdleCallback' in window ? window.requestIdleCallback(prefetchForms) : setTimeout(prefetchForms, 1500)));
}
