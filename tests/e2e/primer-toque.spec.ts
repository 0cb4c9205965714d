/**
 * The visitor's first interaction is never lost, and answered at once: a tap or Enter on the entry step's button at any
 * moment after the first paint — the app module not fetched yet, the app starting, the app started — shows the first
 * question, on a phone's CPU (Chromium slowed 6× through CDP). The moments are made certain by holding a chunk's
 * response until the visitor has acted (page.route), never by waiting a time. With the app started the question shows
 * within 200 ms at 4× CPU (INP "good"), and a tap made while the app starts is answered within 200 ms of it being ready;
 * both are measured in the page (the input event's timestamp, the ready event, the question's first frame) and asserted
 * with E2E_TIEMPOS=1.
 */
import { expect, test, type Page, type Route } from '@playwright/test';
import flowJson from '../../flow/flow.json' with { type: 'json' };
import es from '../../src/i18n/es.json' with { type: 'json' };

const texts = es as unknown as Record<string, Record<string, unknown>>;
const entry = flowJson.steps.find((s) => s.id === flowJson.entry)!;
/** The entry step's button and the first question (the step after it), as the visitor reads them. */
const CTA = String(texts[entry.id].cta);
const QUESTION = String(texts[String(entry.next)].titulo);

type Moment = 'sin-app' | 'arrancando' | 'lista';
type Way = 'toque' | 'teclado';

interface Times { input?: number; listo?: number; pregunta?: number }

/**
 * Records in the page, on performance's clock: the first tap or key (`input`, the event's own timestamp), the app's
 * ready event (`listo`, src/app/router.tsx › APP_READY_EVENT) and the first frame after the first question is on the
 * page with a field to answer (`pregunta`).
 */
async function recordTimes(page: Page) {
  await page.addInitScript((question) => {
    const times: Times = {};
    (window as unknown as { __tiempos: Times }).__tiempos = times;
    for (const type of ['pointerdown', 'keydown']) addEventListener(type, (e) => (times.input ??= e.timeStamp), { capture: true });
    addEventListener('cotizador:listo', () => (times.listo ??= performance.now()));
    const shown = () => document.querySelector('main h1')?.textContent === question && !!document.querySelector('main form input');
    new MutationObserver((_, observer) => {
      if (times.pregunta !== undefined || !shown()) return;
      observer.disconnect();
      // the frame that paints it: after the next animation frame's rendering
      requestAnimationFrame(() => setTimeout(() => (times.pregunta = performance.now()), 0));
    }).observe(document, { childList: true, subtree: true, characterData: true });
  }, QUESTION);
}

const times = (page: Page) => page.evaluate(() => (window as unknown as { __tiempos: Times }).__tiempos);

/** Slows the page's CPU `rate` times, as a phone (Chromium's DevTools throttling). */
async function slowCpu(page: Page, rate: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

/**
 * Holds the responses of the app's JS files whose path matches `file` until `release` is called; `requested` resolves
 * when the first such request reaches the route.
 */
async function hold(page: Page, file: RegExp) {
  const held: Route[] = [];
  let released = false;
  let arrived!: () => void;
  const requested = new Promise<void>((r) => (arrived = r));
  await page.route((url) => url.pathname.startsWith('/assets/') && file.test(url.pathname), async (route) => {
    arrived();
    if (released) await route.continue();
    else held.push(route);
  });
  return {
    requested,
    release: async () => {
      released = true;
      await Promise.all(held.splice(0).map((r) => r.continue()));
    },
  };
}

/** The visitor acts on the entry step's button: a tap (a click without a touch screen), or focus and Enter. */
async function act(page: Page, way: Way) {
  const button = page.getByRole('button', { name: CTA });
  if (way === 'teclado') {
    await button.focus();
    await page.keyboard.press('Enter');
  } else if (test.info().project.use.hasTouch) await button.tap();
  else await button.click();
}

/** The page is at `moment`: its first paint is on screen and the app is not fetched, is starting, or is ready. */
async function openAt(page: Page, moment: Moment) {
  if (moment === 'sin-app') {
    // the entry module itself (public/arranque.js › data-app) is held: the app cannot have started
    const entryModule = await hold(page, /\/index-[\w-]+\.js$/);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    return entryModule.release;
  }
  if (moment === 'arrancando') {
    // the screens chunk (React, router) is held: the engine is built, nothing is hydrated yet
    const screens = await hold(page, /\/boot-ui-[\w-]+\.js$/);
    await page.goto('/');
    await screens.requested;
    await page.waitForFunction(() => performance.getEntriesByName('cotizador:runtime').length > 0);
    return screens.release;
  }
  await page.goto('/');
  await page.waitForFunction(() => (window as unknown as { __tiempos: Times }).__tiempos.listo !== undefined);
  return async () => undefined;
}

for (const moment of ['sin-app', 'arrancando', 'lista'] as const) {
  for (const way of ['toque', 'teclado'] as const) {
    test(`${way} en «${CTA}» con la app ${moment === 'sin-app' ? 'sin pedir' : moment === 'arrancando' ? 'arrancando' : 'lista'} (CPU 6×): muestra la primera pregunta`, async ({ page }) => {
      await recordTimes(page);
      await slowCpu(page, 6);
      const release = await openAt(page, moment);
      await act(page, way);
      await release();
      await expect(page).toHaveURL(new RegExp(`/${flowJson.basePath}/${String(entry.next)}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(QUESTION);
      await expect(page.locator('main form input').first()).toBeVisible();
    });
  }
}

test(`el foco puesto en «${CTA}» mientras la app arranca sigue ahí cuando está lista: Enter muestra la primera pregunta (CPU 6×)`, async ({ page }) => {
  await recordTimes(page);
  await slowCpu(page, 6);
  const release = await openAt(page, 'arrancando');
  const button = page.getByRole('button', { name: CTA });
  await button.focus();
  await release();
  await page.waitForFunction(() => (window as unknown as { __tiempos: Times }).__tiempos.listo !== undefined);
  // the app's first render does not move the visitor's focus (to the heading, where Enter does nothing)
  await expect(button).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(QUESTION);
  await expect(page.locator('main form input').first()).toBeVisible();
});

/**
 * The two time budgets are asserted only when asked (`E2E_TIEMPOS=1`, on a machine no other job is loading): the CPU
 * throttling multiplies whatever else the machine runs. `npm run bench` prints both, met or not, in every run.
 */
const TIEMPOS = !!process.env.E2E_TIEMPOS;

test('con la app lista, un toque en el botón muestra la primera pregunta en ≤ 200 ms (CPU 4×)', async ({ page }) => {
  test.skip(!TIEMPOS, 'E2E_TIEMPOS=1 en una máquina sin otra carga');
  await recordTimes(page);
  await page.goto('/');
  await page.waitForFunction(() => (window as unknown as { __tiempos: Times }).__tiempos.listo !== undefined);
  await slowCpu(page, 4);
  await act(page, 'toque');
  await page.waitForFunction(() => (window as unknown as { __tiempos: Times }).__tiempos.pregunta !== undefined);
  const t = await times(page);
  expect(t.pregunta! - t.input!).toBeLessThanOrEqual(200);
});

test('un toque mientras la app arranca muestra la primera pregunta ≤ 200 ms después de que la app está lista (CPU 4×)', async ({ page }) => {
  test.skip(!TIEMPOS, 'E2E_TIEMPOS=1 en una máquina sin otra carga');
  await recordTimes(page);
  await slowCpu(page, 4);
  const release = await openAt(page, 'arrancando');
  await act(page, 'toque');
  await release();
  await page.waitForFunction(() => (window as unknown as { __tiempos: Times }).__tiempos.pregunta !== undefined);
  const t = await times(page);
  expect(t.pregunta! - t.listo!).toBeLessThanOrEqual(200);
});
