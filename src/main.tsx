/**
 * Entry point (issue 9: no long task on a phone while the app starts). The page is already painted from its
 * prerendered HTML; this module only orders the start-up in phases, each its own task with a yield to the browser
 * between them, so that a tap or a frame is never kept waiting long: (1) the engine chunk (Effector, flow, texts) is
 * evaluated and the flow compiled, (2) the runtime built, (3) the screens chunk (React, router) evaluated and the
 * router built, (4) the journey restored and started, (5) the page hydrated in slices (src/app/boot-ui.tsx).
 * The testers' recorder (?grabar=1) is loaded, when asked for, before the first route so it sees the whole journey.
 */
import './styles.css';
import { loadStepForm } from './form/load';

/** Lets the browser run input and paint before the next phase (scheduler.yield where there is one). */
const yieldToMain = (): Promise<void> => {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return s?.yield ? s.yield() : new Promise((resolve) => setTimeout(resolve, 0));
};

/** A User Timing mark per phase (seen in DevTools' performance panel and in `npm run bench:diag` traces). */
const mark = (phase: string) => performance.mark(`cotizador:${phase}`);

async function boot() {
  const container = document.getElementById('root') as HTMLElement;
  const prerendered = container.dataset.paso;
  // the chunks are requested now; each is evaluated in its own task when it arrives (React's DOM renderer on its own:
  // it is the largest piece of the screens)
  void import('react-dom/client');
  // on a form step's page (scripts/prerender.ts) the form engine and the step's schemas are needed at once: fetched
  // alongside, not after the start-up
  if (prerendered && container.dataset.formulario !== undefined) {
    void loadStepForm();
    void import('./form/validators').then((v) => v.loadStep(prerendered)).catch(() => undefined);
  }
  const screens = import('./app/boot-ui');
  const engineBoot = await import('./app/boot-engine');
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
    const { startRecorder } = await import('./recorder/recorder');
    await startRecorder(flow, runtime.engine, (k, o) => i18n.t(k, o) as string, async () => import.meta.env.DEV || (await api.get<{ habilitado: boolean }>('/grabador')).habilitado);
  }
  await yieldToMain();
  ui.mount(container, flow, i18n, router, prerendered);
  mark('montado');
}

void boot();
