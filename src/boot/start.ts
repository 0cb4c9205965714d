/**
 * The app's start-up on a page already painted from its prerendered HTML (scripts/prerender/): phases, each its own
 * task with a yield to the browser between them, so that a tap or a frame never waits long on a phone:
 * (1) the engine chunk (Effector, flow, texts; ./boot-engine.ts) evaluated and the flow compiled, (2) the runtime built
 * in parts, (3) the screens chunk (React, router; ./boot-ui.tsx) evaluated and the router built, (4) the journey
 * restored and started, (5) the page hydrated in slices. Each phase leaves a User Timing mark `cotizador:<phase>`
 * (DevTools, `npm run bench:tareas`). The testers' recorder (?grabar=1) is loaded, when asked for, before the first
 * route so it sees the whole journey. Why each piece is shaped so: docs/performance.md.
 */
import { loadStepForm } from '../form/load';

/** Lets the browser run input and paint before the next phase (scheduler.yield where there is one). */
const yieldToMain = (): Promise<void> => {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return s?.yield ? s.yield() : new Promise((resolve) => setTimeout(resolve, 0));
};

/** A User Timing mark per phase (seen in DevTools' performance panel and in `npm run bench:diag` traces). */
const mark = (phase: string) => performance.mark(`cotizador:${phase}`);

/** Starts the app in `#root` (hydrating its prerendered step, or rendering afresh). */
export async function boot() {
  const container = document.getElementById('root') as HTMLElement;
  const prerendered = container.dataset.paso;
  // the chunks are requested now; each is evaluated in its own task when it arrives (React's DOM renderer on its own:
  // it is the largest piece of the screens)
  void import('react-dom/client');
  // on a form step's page the form engine and the step's schemas are needed at once: fetched alongside, not after the
  // start-up
  if (prerendered && container.dataset.formulario !== undefined) {
    void loadStepForm();
    void import('../form/validators').then((v) => v.loadStep(prerendered)).catch(() => undefined);
  }
  const screens = import('./boot-ui');
  const engineBoot = await import('./boot-engine');
  const { i18n, api } = engineBoot;
  const problems = await engineBoot.flowProblems();
  if (problems) {
    console.error(problems);
    (await screens).mountProblems(container, i18n, problems);
    return;
  }
  mark('motor-evaluado');
  await yieldToMain();
  const flow = engineBoot.loadFlow();
  mark('flujo');
  await yieldToMain();
  const runtime = await engineBoot.buildRuntime(flow, yieldToMain);
  mark('runtime');
  const ui = await screens;
  mark('pantallas-evaluadas');
  await yieldToMain();
  // the router before the start: a resume link navigates while the journey starts
  const router = ui.buildRouter(flow, runtime.engine, prerendered);
  mark('router');
  await yieldToMain();
  await runtime.start();
  mark('inicio');
  if (new URLSearchParams(window.location.search).has('grabar')) {
    const { startRecorder } = await import('../recorder/recorder');
    await startRecorder(
      flow,
      runtime.engine,
      (k, o) => i18n.t(k, o) as string,
      async () => import.meta.env.DEV || (await api.get<{ habilitado: boolean }>('/grabador')).habilitado,
    );
  }
  await yieldToMain();
  ui.mount(container, flow, runtime.engine, i18n, router, prerendered);
  mark('montado');
}
