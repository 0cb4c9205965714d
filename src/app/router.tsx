/**
 * Routes built from the flow (SPEC §2): one per step under the base path; the bare root and any
 * unknown path go to the entry step with the same query. Guards run in the engine on entry.
 * Prerendered HTML (scripts/prerender/): before the engine has a current step, the route of the step the HTML was
 * built for renders that step's frame (src/screens/frame.ts), which depends on no journey state, so the page hydrates
 * without a mismatch whatever the restored journey holds.
 */
import { useUnit } from 'effector-react';
import { lazy, Suspense, useDeferredValue, useEffect, useLayoutEffect, useRef } from 'react';
import {
  BrowserRouter,
  matchRoutes,
  Navigate,
  useLocation,
  useNavigate,
  useNavigationType,
  useRoutes,
  type NavigateFunction,
  type RouteObject,
} from 'react-router-dom';
import { stepById } from '../engine/core/guards.ts';
import type { Flow, Step } from '../core/flow/types.ts';
import type { FlowEngine } from '../engine/model';
import { Layout } from './Layout';
import { BASE } from './base.ts';
import { StepScreen } from '../screens/StepScreen';
import { FrameContext } from '../screens/frame';
import { RUTA_CONSULTA_TRAMITE, RUTAS_POSTVENTA, type TipoPostventa } from '../core/rutas.ts';
import { RUTAS_LEGALES, type PaginaLegal } from '../core/rutas.ts';

let firstEntry = true;

/** The after-sale screens are their own chunk: a visitor of the flow never downloads them. */
const TramiteScreen = lazy(() => import('../screens/postventa/TramiteScreen').then((m) => ({ default: m.TramiteScreen })));
const ConsultaScreen = lazy(() => import('../screens/postventa/ConsultaScreen').then((m) => ({ default: m.ConsultaScreen })));

/** The legal pages (terms, privacy, claims and policy copy) are their own chunk too. */
const LegalScreen = lazy(() => import('../screens/legal/LegalScreen').then((m) => ({ default: m.LegalScreen })));

/** Staff preview: its gate is a small chunk of its own, the preview another (docs/flow-format.md › Vista previa). */
const PreviewGate = lazy(() => import('./PreviewGate').then((m) => ({ default: m.PreviewGate })));

/** How the routes meet a prerendered page. */
export interface RouteOptions {
  /** Id of the step whose HTML the page was prerendered with (its frame shows until the engine has a current step). */
  prerendered?: string;
}

/** Window event the app sends after its first commit; public/arranque.js then replays taps made before it. */
export const APP_READY_EVENT = 'cotizador:listo';

function StepRoute({ engine, step, opts }: { engine: FlowEngine; step: Step; opts: RouteOptions }) {
  const navType = useNavigationType();
  const location = useLocation();
  const [currentStep, routeEntered] = useUnit([engine.$currentStep, engine.routeEntered]);
  // the engine's step is an external store, whose changes React renders at once, in one task: deferred, the new step
  // (a form step's whole form, as a prerendered frame gives way to it) renders in slices that yield to the browser,
  // while the step on screen stays until it is ready (no long task while a step appears)
  const current = useDeferredValue(currentStep);
  const entered = useRef<string | null>(null);
  useEffect(() => {
    if (entered.current === location.key) return;
    entered.current = location.key;
    routeEntered({ stepId: step.id, pop: navType === 'POP' && !firstEntry });
    // a new step starts at the top; the page's first step stays where the visitor is (they may have scrolled to the
    // footer while the app started, and a jump then would move a link from under their finger)
    if (!firstEntry) window.scrollTo(0, 0);
    firstEntry = false;
  }, [location.key, navType, routeEntered, step.id]);
  const frame = current === null && opts.prerendered === step.id;
  if (current !== step.id && !frame) return null;
  return (
    <FrameContext value={frame}>
      <Layout engine={engine} step={step}>
        <StepScreen engine={engine} step={step} />
      </Layout>
    </FrameContext>
  );
}

function ToEntry({ flow }: { flow: Flow }) {
  const { search } = useLocation();
  const entry = stepById(flow, flow.entry);
  return <Navigate to={{ pathname: `/${entry.path}`, search }} replace />;
}

/** The routes of `flow` (steps, after-sale screens, legal pages, everything else to the entry step). */
export function flowRoutes(flow: Flow, engine: FlowEngine, opts: RouteOptions = {}): RouteObject[] {
  const routes: RouteObject[] = flow.steps.map((step) => ({
    path: `/${step.path}`,
    element: <StepRoute key={step.id} engine={engine} step={step} opts={opts} />,
  }));
  routes.push({
    path: `/${flow.basePath}/__vista-previa`,
    element: (
      <Suspense fallback={null}>
        <PreviewGate engine={engine} closed={<ToEntry flow={flow} />} />
      </Suspense>
    ),
  });
  // after-sale screens outside the journey: no guards, no journey state (their forms are the flow's standalone forms)
  for (const [tipo, path] of Object.entries(RUTAS_POSTVENTA))
    routes.push({
      path,
      element: (
        <Suspense fallback={null}>
          <TramiteScreen key={tipo} tipo={tipo as TipoPostventa} engine={engine} />
        </Suspense>
      ),
    });
  routes.push({
    path: RUTA_CONSULTA_TRAMITE,
    element: (
      <Suspense fallback={null}>
        <ConsultaScreen engine={engine} />
      </Suspense>
    ),
  });
  for (const [pagina, path] of Object.entries(RUTAS_LEGALES))
    routes.push({
      path,
      element: (
        <Suspense fallback={null}>
          <LegalScreen key={pagina} pagina={pagina as PaginaLegal} />
        </Suspense>
      ),
    });
  routes.push({ path: '*', element: <ToEntry flow={flow} /> });
  return routes;
}

/**
 * The routes as elements (React Router's declarative mode: the app loads no data per route, so it does without the data
 * router, ~17 KB gzip of every page's start-up). `bind` receives the router's navigate once mounted.
 */
export function FlowRoutes({ routes, bind }: { routes: RouteObject[]; bind?: (navigate: NavigateFunction | null) => void }) {
  const navigate = useNavigate();
  // a layout effect: bound before any route's passive effect (StepRoute's routeEntered may navigate at once)
  useLayoutEffect(() => {
    bind?.(navigate);
    return () => bind?.(null);
  }, [bind, navigate]);
  return useRoutes(routes);
}

/**
 * The router for `flow` as a component; `engine.navigateFx` is bound to it (query parameters always kept). Before it
 * is mounted (a resume link moves the journey while it starts) navigation goes to the browser's history, which the
 * router reads as it mounts. On a prerendered page the bare root (or an unknown path) is replaced by the entry step's
 * route first, as `ToEntry` would do, so that the first render is the prerendered entry step.
 */
export function createFlowRouter(flow: Flow, engine: FlowEngine, opts: RouteOptions = {}) {
  const routes = flowRoutes(flow, engine, opts);
  if (opts.prerendered && matchRoutes(routes, window.location, BASE || undefined)?.at(-1)?.route.path === '*') {
    const entry = stepById(flow, flow.entry);
    window.history.replaceState(window.history.state, '', `${BASE}/${entry.path}${window.location.search}${window.location.hash}`);
  }
  let navigate: NavigateFunction | null = null;
  const bind = (n: NavigateFunction | null) => (navigate = n);
  engine.navigateFx.use(({ stepId, replace }) => {
    const to = { pathname: `/${stepById(flow, stepId).path}`, search: window.location.search };
    if (navigate) void navigate(to, { replace: !!replace });
    else if (replace) window.history.replaceState(null, '', `${BASE}${to.pathname}${to.search}`);
    else window.history.pushState(null, '', `${BASE}${to.pathname}${to.search}`);
  });
  return function FlowRouter() {
    return (
      <BrowserRouter basename={BASE || undefined}>
        <FlowRoutes routes={routes} bind={bind} />
      </BrowserRouter>
    );
  };
}
