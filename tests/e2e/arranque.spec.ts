/**
 * How a prerendered page starts the app (scripts/prerender/ and public/arranque.js): the loader preloads
 * every chunk the page needs as the app starts in one go (`data-precarga`), so no chunk is discovered an import level
 * late, and nothing the page does not use is fetched — step 1 never fetches the form engine while nobody touches it
 * (only, once idle, the first question's small schema chunks). And what the app fills into a page's frame moves
 * nothing already painted.
 */
import { expect, test, type Page } from '@playwright/test';
import { settled, trackRequests } from '../../tools/replay/settle.ts';
import { choosePlanAndPersonalData, continuar, quoteAHome, UNA_PANTALLA } from './journey';
import {
  FIRST,
  fingerScroll,
  FORM_ENGINE_CHUNK,
  openAt,
  recordFirstTimes,
  rehearsals,
  rehearsed,
  tapCta,
} from '../bench/first-question.ts';
import flowJson from '../../flow/flow.json' with { type: 'json' };

/** The chunks (validator, schema, ui schema) of the steps `stepId` leads to: fetched once the app is idle, never preloaded. */
function nextStepChunks(stepId: string): RegExp {
  const step = (flowJson.steps as { id: string; next?: string | { to: string }[] }[]).find((s) => s.id === stepId)!;
  const next = typeof step.next === 'string' ? [step.next] : (step.next ?? []).map((b) => b.to);
  return new RegExp(`/(${next.join('|')})(\\.schema|\\.ui)?-[\\w-]+\\.js$`);
}

/** The app's JS files the page fetches from now on (paths under /assets). */
function scriptsFetched(page: Page): Set<string> {
  const seen = new Set<string>();
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/assets/') && path.endsWith('.js')) seen.add(path);
  });
  return seen;
}

/** Waits until the app has hydrated the page (its ready event, src/app/router.tsx › APP_READY_EVENT) and it has settled. */
async function appReady(page: Page) {
  await page.waitForFunction(() => (window as unknown as { __listo?: boolean }).__listo === true);
  await settled(page);
}

/** Marks the app's ready event on every page load of `page`, and counts its requests for {@link settled}. */
async function watchReady(page: Page) {
  trackRequests(page);
  await page.addInitScript(() =>
    window.addEventListener('cotizador:listo', () => ((window as unknown as { __listo?: boolean }).__listo = true)),
  );
}

/** The loader's preload list and the app module it fetches. */
async function loaderLists(page: Page): Promise<{ preload: string[]; app: string }> {
  return page.locator('script[data-app]').evaluate((s) => ({
    preload: (s.getAttribute('data-precarga') ?? '').split(' ').filter(Boolean),
    app: s.getAttribute('data-app') ?? '',
  }));
}

test('el paso 1 precarga de una vez lo que usa al arrancar, y no el motor de formularios', UNA_PANTALLA, async ({ page }) => {
  await watchReady(page);
  const fetched = scriptsFetched(page);
  // once the app is up and the browser idle, the first question's schemas (small chunks) are fetched, never preloaded:
  // the tap on the button then waits for no request (src/boot/boot-ui.tsx › prefetchNextSteps)
  const nextStep = nextStepChunks(FIRST.entry);
  const nextSchema = page.waitForRequest((r) => new RegExp(`/${FIRST.step}\\.schema-`).test(r.url()));
  await page.goto('/seguro-hogar');
  await appReady(page);
  await nextSchema;
  const { preload, app } = await loaderLists(page);
  expect(preload.length).toBeGreaterThan(3);
  expect(preload.some((f) => nextStep.test(f))).toBe(false);
  expect([...fetched].filter((f) => !nextStep.test(f)).sort()).toEqual([app, ...preload].sort());
  expect([...fetched].some((f) => /\/StepForm-/.test(f))).toBe(false);
  // the tab's icon is a PNG: Chromium redraws an SVG icon in a document of its own on the page's main thread at every
  // change of address (every step: ~2 ms, 8 at 4× CPU, seen in a trace of the first tap); a PNG the browser decodes
  expect(await page.locator('link[rel=icon]').getAttribute('href')).toMatch(/^data:image\/png;base64,/);
});

test('quien lee la página antes de tocar (desliza con el dedo, mueve el mouse) ya tiene el motor de formularios, y su primera pregunta ensayada', async ({
  page,
}, info) => {
  await watchReady(page);
  const formEngineRequests: string[] = [];
  page.on('request', (r) => FORM_ENGINE_CHUNK.test(r.url()) && formEngineRequests.push(r.url()));
  await page.goto('/seguro-hogar');
  await appReady(page);
  await settled(page);
  expect(formEngineRequests, 'nadie tocó la página todavía').toEqual([]);
  expect(await rehearsals(page), 'nadie tocó la página: no se ensaya ningún formulario').toEqual([]);
  // the visitor reads: a finger scrolls the page on the phone, the mouse moves over it on the desktop
  const formEngine = page.waitForRequest((r) => FORM_ENGINE_CHUNK.test(r.url()));
  if (info.project.name === 'mobile') await fingerScroll(page);
  else await page.mouse.move(640, 300);
  await (await formEngine).response();
  // the first question's form is rehearsed where nobody sees it (src/boot/rehearsal.tsx): nothing of it is in the page
  await rehearsed(page, FIRST.step);
  await settled(page);
  expect(await rehearsals(page)).toEqual([FIRST.step]);
  await expect(page.locator('form')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(FIRST.entryTitle);
  // the tap then asks for the form engine no more: the first question renders from what is there
  await tapCta(page, info.project.name === 'mobile');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(FIRST.question);
  await expect(page.locator('main form input').first()).toBeVisible();
  expect(formEngineRequests).toHaveLength(1);
});

test(
  'un paso con formulario abierto en frío precarga el motor de formularios y su esquema, y nada queda afuera',
  UNA_PANTALLA,
  async ({ page }) => {
    await watchReady(page);
    await page.goto('/seguro-hogar');
    await page.getByRole('button', { name: 'Cotizar ahora' }).click();
    await page.getByLabel('Departamento').check();
    await continuar(page);
    await expect(page).toHaveURL(/\/seguro-hogar\/permanencia$/);
    // the visitor reloads: the page of this step is served cold, the journey restored
    const fetched = scriptsFetched(page);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('main form')).toBeVisible();
    await appReady(page);
    // its form has run: the visitor's first touch rehearses no next step (src/boot/rehearsal.tsx), which would only
    // add a long task while they answer
    await page.locator('main form input').first().focus();
    await settled(page);
    expect(await rehearsals(page)).toEqual([]);
    const { preload, app } = await loaderLists(page);
    expect(preload.some((f) => /\/StepForm-/.test(f))).toBe(true);
    expect(preload.some((f) => /\/permanencia\.schema-/.test(f))).toBe(true);
    expect(preload.some((f) => /\/propiedad\.schema-/.test(f))).toBe(false);
    // past step 1 the anti-bot proof of work (flow.json › proofOfWork) starts in the background after the app is up: its
    // lazy chunk and its worker are fetched then, on purpose never preloaded
    const background = /\/(proof-of-work|pow\.worker)-[\w-]+\.js$/;
    expect([...fetched].filter((f) => background.test(f)).length).toBeGreaterThan(0);
    const nextStep = nextStepChunks('permanencia');
    expect([...fetched].filter((f) => !background.test(f) && !nextStep.test(f)).sort()).toEqual([app, ...preload].sort());
  },
);

test(
  'un toque guardado mientras la app arranca pide ya lo que necesita la primera pregunta: el motor de formularios y sus esquemas',
  UNA_PANTALLA,
  async ({ page }) => {
    await recordFirstTimes(page);
    // the screens chunk is held: the app cannot be ready while these requests are made
    const release = await openAt(page, '/', 'arrancando');
    const formEngine = page.waitForRequest((r) => FORM_ENGINE_CHUNK.test(r.url()));
    const schema = page.waitForRequest((r) => new RegExp(`/${FIRST.step}\\.schema-[\\w-]+\\.js$`).test(r.url()));
    await tapCta(page, true);
    await Promise.all([formEngine, schema]);
    expect(await page.evaluate(() => (window as unknown as { __tiempos: { listo?: number } }).__tiempos.listo)).toBeUndefined();
    await release();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(FIRST.question);
  },
);

test(
  'una pantalla con el resumen del plan abierta en frío en un teléfono de 360 px no se mueve cuando la app la completa',
  UNA_PANTALLA,
  async ({ page }, info) => {
    test.setTimeout(180_000); // a journey to the payment step: under a minute idle, more on a loaded machine
    await quoteAHome(page, info);
    await choosePlanAndPersonalData(page, info);
    // the visitor goes back to the review and reloads it on a 360-px phone (the most common Android width): its frame is
    // painted (the summary's box blank, no chat icon), then the app fills the summary with the plan, the monthly amount
    // and the yearly total (two lines there) and shows the chat icon in the header
    await page.goBack();
    await expect(page).toHaveURL(/\/seguro-hogar\/confirmar-datos-personales/);
    await page.setViewportSize({ width: 360, height: 800 });
    await watchReady(page);
    await page.addInitScript(() => {
      const moved: string[] = ((window as unknown as { __movidos: string[] }).__movidos = []);
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as { sources: { node?: Node }[] }[])
          for (const s of e.sources) {
            const el = s.node instanceof Element ? s.node : s.node?.parentElement;
            // the header and the step; the footer below may move down as the step's content replaces its placeholder
            if (el?.closest('header, main')) moved.push(`${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''}`);
          }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.reload();
    await appReady(page);
    await expect(page.getByTestId('chat')).toBeVisible();
    await expect(page.getByTestId('premio-cuota')).toHaveText(/^\$\u00a0[\d.]+,\d{2}$/);
    await expect(page.locator('.summary__note--total')).toHaveText(/^Premio anual \$\u00a0[\d.]+,\d{2}, impuestos incluidos$/);
    await expect(page.getByText('Ana Pérez')).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __movidos: string[] }).__movidos)).toEqual([]);
  },
);
