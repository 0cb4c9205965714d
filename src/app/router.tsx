/**
 * Routes built from the flow (SPEC §2): one per step under the base path; the bare root and any
 * unknown path go to the entry step with the same query. Guards run in the engine on entry.
 */
import { useUnit } from 'effector-react';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { createBrowserRouter, Navigate, useLocation, useNavigationType, type RouteObject } from 'react-router-dom';
import { stepById } from '../engine/core/guards.ts';
import type { Flow, Step } from '../engine/core/types.ts';
import type { FlowEngine } from '../engine/model';
import { Layout } from './Layout';
import { StepScreen } from '../screens/StepScreen';
import { TramiteScreen } from '../screens/postventa/TramiteScreen';
import { RUTAS_POSTVENTA, type TipoPostventa } from '../screens/postventa/rutas';

let firstEntry = true;

/** Staff preview: development builds only (absent from production bundles). */
const Preview = import.meta.env.DEV ? lazy(() => import('./Preview').then((m) => ({ default: m.Preview }))) : null;

function StepRoute({ engine, step }: { engine: FlowEngine; step: Step }) {
  const navType = useNavigationType();
  const location = useLocation();
  const [current, routeEntered] = useUnit([engine.$currentStep, engine.routeEntered]);
  const entered = useRef<string | null>(null);
  useEffect(() => {
    if (entered.current === location.key) return;
    entered.current = location.key;
    routeEntered({ stepId: step.id, pop: navType === 'POP' && !firstEntry });
    firstEntry = false;
    window.scrollTo(0, 0);
  }, [location.key, navType, routeEntered, step.id]);
  if (current !== step.id) return null;
  return (
    <Layout engine={engine} step={step}>
      <StepScreen engine={engine} step={step} />
    </Layout>
  );
}

function ToEntry({ flow }: { flow: Flow }) {
  const { search } = useLocation();
  const entry = stepById(flow, flow.entry);
  return <Navigate to={{ pathname: `/${entry.path}`, search }} replace />;
}

/** The router for `flow`; `engine.navigateFx` is bound to it (query parameters always kept). */
export function createFlowRouter(flow: Flow, engine: FlowEngine) {
  const routes: RouteObject[] = flow.steps.map((step) => ({ path: `/${step.path}`, element: <StepRoute key={step.id} engine={engine} step={step} /> }));
  if (import.meta.env.DEV && Preview) {
    routes.push({ path: `/${flow.basePath}/__vista-previa`, element: <Suspense fallback={null}><Preview engine={engine} /></Suspense> });
  }
  // after-sale screens outside the flow (issue 8): no guards, no journey state
  for (const [tipo, path] of Object.entries(RUTAS_POSTVENTA)) routes.push({ path, element: <TramiteScreen key={tipo} tipo={tipo as TipoPostventa} /> });
  routes.push({ path: '*', element: <ToEntry flow={flow} /> });
  const router = createBrowserRouter(routes);
  engine.navigateFx.use(({ stepId, replace }) => {
    const step = stepById(flow, stepId);
    void router.navigate({ pathname: `/${step.path}`, search: window.location.search }, { replace: !!replace });
  });
  return router;
}
