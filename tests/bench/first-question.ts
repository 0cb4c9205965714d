/**
 * The visitor's first interaction as the e2e spec (tests/e2e/primer-toque.spec.ts) and `npm run bench` measure it:
 * the entry step's button tapped (or Enter) with the app not fetched, starting or ready, and the time until the first
 * question is on screen. The moments are made certain by holding a chunk's response (page.route), never by waiting.
 * Times are taken in the page on performance's clock: the first tap or key (the event's own timestamp), the app's
 * ready event (src/app/router.tsx › APP_READY_EVENT) and the first frame after the question is on the page with a
 * field to answer.
 */
import type { Browser, Page, Route } from '@playwright/test';
import flowJson from '../../flow/flow.json' with { type: 'json' };
import es from '../../src/i18n/es.json' with { type: 'json' };
import { REHEARSAL_MARK } from '../../src/boot/marks.ts';

const texts = es as unknown as Record<string, Record<string, unknown>>;
const entry = flowJson.steps.find((s) => s.id === flowJson.entry)!;
/** The entry step, its button's label, and the first question (the title of the step after it), as es.json has them. */
export const FIRST = {
  entry: entry.id,
  entryTitle: String(texts[entry.id].titulo),
  cta: String(texts[entry.id].cta),
  step: String(entry.next),
  question: String(texts[String(entry.next)].titulo),
};

/** What the page recorded (ms on performance's clock); unset until it happens. */
export interface FirstTimes {
  input?: number;
  /** the finger lifted (pointerup) after a press of some duration ({@link pressCta}) */
  soltar?: number;
  listo?: number;
  pregunta?: number;
}

/** The moments after the first paint: the app module not fetched yet, the app starting, the app ready. */
export type Moment = 'sin-app' | 'arrancando' | 'lista';

/** Starts recording {@link FirstTimes} on every page load of `page` (call before `goto`). */
export async function recordFirstTimes(page: Page) {
  await page.addInitScript((question) => {
    const times: FirstTimes = {};
    // who waits for a time (recorded): resolved as it is set, so nothing polls the page while it is being measured
    const waiting: { [K in keyof FirstTimes]?: (() => void)[] } = {};
    const set = (time: keyof FirstTimes, value: number) => {
      if (times[time] !== undefined) return;
      times[time] = value;
      for (const resolve of waiting[time]?.splice(0) ?? []) resolve();
    };
    Object.assign(window, {
      __tiempos: times,
      __esperarTiempo: (time: keyof FirstTimes) =>
        times[time] !== undefined ? times : new Promise((resolve) => (waiting[time] ??= []).push(() => resolve(times))),
    });
    for (const type of ['pointerdown', 'keydown']) addEventListener(type, (e) => set('input', e.timeStamp), { capture: true });
    addEventListener('pointerup', (e) => set('soltar', e.timeStamp), { capture: true });
    addEventListener('cotizador:listo', () => set('listo', performance.now()));
    // the question on screen: the page's first heading is its title and a field to answer shows (rendered and not
    // hidden: a change of style alone may show it)
    const shown = () =>
      document.querySelector('main h1')?.textContent === question &&
      [...document.querySelectorAll<HTMLElement>('main form input')].some((input) => input.checkVisibility());
    new MutationObserver((_, observer) => {
      if (times.pregunta !== undefined || !shown()) return;
      observer.disconnect();
      // the frame that paints it: after the next animation frame's rendering
      requestAnimationFrame(() => setTimeout(() => set('pregunta', performance.now()), 0));
    }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['style'] });
  }, FIRST.question);
}

/**
 * Resolves once the page has recorded `time`: a promise in the page, resolved as the time is set (Playwright's
 * waitForFunction would run its check in the page at every frame, on the throttled main thread being measured).
 */
export async function recorded(page: Page, time: keyof FirstTimes): Promise<FirstTimes> {
  return page.evaluate(
    (t) => (window as unknown as { __esperarTiempo: (t: keyof FirstTimes) => Promise<FirstTimes> | FirstTimes }).__esperarTiempo(t),
    time,
  );
}

/** Slows the page's CPU `rate` times, as a phone (Chromium's DevTools throttling, CDP Emulation.setCPUThrottlingRate). */
export async function slowCpu(page: Page, rate: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

/**
 * Emulates a phone's slow 4G on the page (CDP Network.emulateNetworkConditions: 150 ms RTT, 1.6 Mbit/s down, 750
 * kbit/s up — the network of Lighthouse's mobile profile, as DevTools applies it): every request from then on.
 */
export async function slowNetwork(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: 1.6e6 / 8,
    uploadThroughput: 750e3 / 8,
  });
}

/** Holds the responses of the app's files under /assets/ whose path matches `file` until `release`; `requested` resolves at the first such request. */
async function hold(page: Page, file: RegExp) {
  const held: Route[] = [];
  let released = false;
  let arrived!: () => void;
  const requested = new Promise<void>((r) => (arrived = r));
  await page.route(
    (url) => url.pathname.includes('/assets/') && file.test(url.pathname),
    async (route) => {
      arrived();
      if (released) await route.continue();
      else held.push(route);
    },
  );
  return {
    requested,
    release: async () => {
      released = true;
      await Promise.all(held.splice(0).map((r) => r.continue()));
    },
  };
}

/**
 * Opens `url` (the entry step) and brings the page to `moment`: the entry module held (its first paint on screen),
 * the screens chunk held once the engine is built, or the app ready.
 * @returns what lets the held chunk through (nothing to do at `lista`)
 */
export async function openAt(page: Page, url: string, moment: Moment): Promise<() => Promise<void>> {
  if (moment === 'sin-app') {
    // the entry module itself (the page's public/arranque.js › data-app) is held: the app cannot have started
    const html = await (await page.request.get(url)).text();
    const app = /data-app="([^"]+)"/.exec(html)?.[1];
    if (!app) throw new Error(`${url} no es una página prerenderizada (no tiene script[data-app])`);
    const entryModule = await hold(page, new RegExp(`${app.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    await page.goto(url);
    await page.getByRole('heading', { level: 1 }).waitFor();
    return entryModule.release;
  }
  if (moment === 'arrancando') {
    // the screens chunk (React, router) is held: the engine is built, nothing is hydrated yet
    const screens = await hold(page, /\/boot-ui-[\w-]+\.js$/);
    await page.goto(url);
    await screens.requested;
    await page.waitForFunction(() => performance.getEntriesByName('cotizador:runtime').length > 0);
    return screens.release;
  }
  await page.goto(url);
  await recorded(page, 'listo');
  return async () => undefined;
}

/** A tap on the entry step's button (a click where the page has no touch screen). */
export async function tapCta(page: Page, touch: boolean) {
  const button = page.getByRole('button', { name: FIRST.cta });
  if (touch) await button.tap();
  else await button.click();
}

/**
 * A finger on the entry step's button for `holdMs` before it lifts (CDP Input.dispatchTouchEvent: touchStart, then
 * touchEnd `holdMs` later, which the browser turns into pointerdown, pointerup and click). Playwright's `tap` lifts at
 * once; a person's finger stays down for a while, and what the page does at the press (the app fetches its form
 * engine at the first pointerdown) runs meanwhile. The hold is a time by nature: it is the finger's, not a wait for
 * the page.
 */
export async function pressCta(page: Page, holdMs: number) {
  const box = await page.getByRole('button', { name: FIRST.cta }).boundingBox();
  if (!box) throw new Error(`el botón «${FIRST.cta}» no está en pantalla`);
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  await new Promise((r) => setTimeout(r, holdMs));
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/** The form engine's chunk (RJSF + StepForm, src/form/load.ts) among a page's requests: its URL or path. */
export const FORM_ENGINE_CHUNK = /\/StepForm-[\w-]+\.js$/;

/** A finger scrolling the page up 200 px (CDP Input.dispatchTouchEvent: touchStart, touchMove, touchEnd), a visitor reading it. */
export async function fingerScroll(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 200, y: 600 }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: 200, y: 400 }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/**
 * Resolves once the app has rehearsed step `stepId`'s form (src/boot/rehearsal.tsx: its User Timing mark), awaited
 * in the page through a PerformanceObserver (nothing polls it).
 */
export async function rehearsed(page: Page, stepId: string) {
  await page.evaluate(
    (name) =>
      new Promise<void>((resolve) => {
        const seen = () => performance.getEntriesByName(name, 'mark').length > 0;
        if (seen()) return resolve();
        const observer = new PerformanceObserver(() => {
          if (!seen()) return;
          observer.disconnect();
          resolve();
        });
        observer.observe({ type: 'mark' });
      }),
    `${REHEARSAL_MARK}${stepId}`,
  );
}

/** The names of the form rehearsals the page has made (src/boot/rehearsal.tsx), by step id. */
export async function rehearsals(page: Page): Promise<string[]> {
  return page.evaluate(
    (prefix) =>
      performance
        .getEntriesByType('mark')
        .filter((m) => m.name.startsWith(prefix))
        .map((m) => m.name.slice(prefix.length)),
    REHEARSAL_MARK,
  );
}

/**
 * A visitor reading the entry step before the tap ({@link fingerScroll}); resolves when what the app does at a first
 * touch is done and the page is idle again: its form engine fetched (src/boot/boot-ui.tsx ›
 * prefetchOnFirstInteraction) and the first question's form rehearsed (src/boot/rehearsal.tsx).
 */
async function scrollToRead(page: Page) {
  const formEngine = page.waitForResponse((r) => FORM_ENGINE_CHUNK.test(r.url()));
  await fingerScroll(page);
  await (await formEngine).finished();
  await rehearsed(page, FIRST.step);
  await idle(page);
  // the times count from the tap that follows, not from this finger
  await page.evaluate(() => {
    const times = (window as unknown as { __tiempos: FirstTimes }).__tiempos;
    delete times.input;
    delete times.soltar;
  });
}

/** Resolves when the page's main thread is next idle (requestIdleCallback): the work that follows start-up is done. */
async function idle(page: Page) {
  await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 10_000 })));
}

/**
 * One first-tap measure on a phone (touch, 390×844) with the CPU 4× slower, on the page at `url` (the app's entry step,
 * or a stack floor's first-tap page, tests/bench/floor/toque.tsx: React + RJSF + Effector showing the same question
 * on a tap, nothing else — the yardstick of the same run — or toque-diferido.tsx, the same with its form chunk
 * fetched at the first interaction as the app's): at `lista`, ms from the tap to the first question, tapped
 * the moment the app is ready; at `reposo`, the same once the app is ready and the browser idle (a visitor who reads
 * the page before tapping: what the app does after start-up, such as rendering the next step ahead, is done); at
 * `leida` (the app only), the same once the app is ready and a finger has scrolled the page ({@link scrollToRead}:
 * a visitor who reads before the tap; the form engine fetched at that first touch has arrived, the first question rehearsed); at
 * `arrancando` (the app only), ms from the app being ready to the first question, for a tap made while it started.
 * With `holdMs`, the tap is a press of that long ({@link pressCta}) and the time counts from the finger lifting; with
 * `slow4g`, the tap and what it fetches go over a phone's slow 4G ({@link slowNetwork}), the page having loaded
 * without it (what the page fetches at the tap is then what costs: the app's form engine, the deferred floor's chunk).
 */
export async function firstTapMs(
  browser: Browser,
  url: string,
  moment: 'lista' | 'reposo' | 'leida' | 'arrancando',
  holdMs?: number,
  slow4g = false,
): Promise<number> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    locale: 'es-AR',
    hasTouch: true,
    isMobile: true,
    timezoneId: 'America/Argentina/Buenos_Aires',
  });
  try {
    const page = await context.newPage();
    await recordFirstTimes(page);
    if (moment === 'arrancando') await slowCpu(page, 4);
    const release = await openAt(page, url, moment === 'reposo' || moment === 'leida' ? 'lista' : moment);
    if (moment === 'reposo') await idle(page);
    if (moment === 'leida') await scrollToRead(page);
    if (moment !== 'arrancando') await slowCpu(page, 4);
    if (slow4g) await slowNetwork(page);
    if (holdMs === undefined) await tapCta(page, true);
    else await pressCta(page, holdMs);
    await release();
    const t = await recorded(page, 'pregunta');
    return t.pregunta! - (moment === 'arrancando' ? t.listo! : holdMs === undefined ? t.input! : t.soltar!);
  } finally {
    await context.close();
  }
}
