/**
 * Build-time rendering of every step's route, run by ./index.ts after the client build (a first paint that needs no
 * JavaScript): the same
 * components and texts as the app, in a fresh engine (no journey), with React's server renderer — the landing whole,
 * every other step its frame (header, title, progress). Names no step: it renders whatever the flow has.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { BASE } from '../../src/app/base.ts';
import { StaticRouter } from 'react-router-dom';
import flowJson from '../../flow/flow.json';
import { compileFlow, nextFormSteps } from '../../src/core/flow/graph.ts';
import type { FlowDef } from '../../src/core/flow/types.ts';
import { createFlowEngine } from '../../src/engine/model';
import { conditionTests, stepSources } from '../../src/form/validators';
import { i18n } from '../../src/i18n';
import { FlowRoutes, flowRoutes } from '../../src/app/router';
import { FORM_ENGINE } from './start-up.ts';

export interface PrerenderedPage {
  /** Step id (goes to `#root[data-paso]`). */
  stepId: string;
  /** URL path of the step's route, without leading slash (e.g. `seguro-hogar/metros`). */
  path: string;
  /** True for the flow's entry step (also served at `/`). */
  entry: boolean;
  /** True when the step shows a form (its page fetches the form engine as the app starts). */
  form: boolean;
  /** The inner HTML of `#root`. */
  html: string;
  /**
   * Source files (from the project root) the page needs as the app starts beyond what every page loads: a form
   * step's form engine (src/form/load.ts) and its validator and schemas (src/form/validators › stepSources).
   */
  sources: string[];
  /**
   * Source files of the form steps this step's `next` can lead to that the page does not load as it starts: the form
   * engine (unless the page is a form step's) and each such step's validator and schemas. A tap made before the app
   * is ready needs them as soon as the app is, so public/arranque.js preloads them when it keeps one.
   */
  afterTap: string[];
}

/** One page per step of the flow. @throws Error when a route does not render */
export async function prerenderSteps(): Promise<PrerenderedPage[]> {
  const flow = compileFlow(flowJson as unknown as FlowDef, conditionTests());
  const pages: PrerenderedPage[] = [];
  for (const step of flow.steps) {
    const engine = createFlowEngine({ flow, genericError: i18n.t('errors.generic'), timeoutError: i18n.t('errors.timeout') });
    const html = renderToString(
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          <StaticRouter basename={BASE || undefined} location={`${BASE}/${step.path}`}>
            <FlowRoutes routes={flowRoutes(flow, engine, { prerendered: step.id })} />
          </StaticRouter>
        </I18nextProvider>
      </StrictMode>,
    );
    if (!html) throw new Error(`La ruta /${step.path} no se prerenderizó`);
    const form = step.kind === 'form';
    const nextForms = nextFormSteps(flow, step.id);
    const afterTap = nextForms.length
      ? [...(form ? [] : [FORM_ENGINE]), ...nextForms.flatMap((s) => Object.values(stepSources(s.id)))]
      : [];
    pages.push({
      stepId: step.id,
      path: step.path,
      entry: step.id === flow.entry,
      form,
      html,
      sources: form ? [FORM_ENGINE, ...Object.values(stepSources(step.id))] : [],
      afterTap,
    });
  }
  return pages;
}
