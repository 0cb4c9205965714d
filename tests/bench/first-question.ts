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
  listo?: number;
  pregunta?: number;
}

/** The moments after the first paint: the app module not fetched yet, the app starting, the app ready. */
export type Moment = 'sin-app' | 'arrancando' | 'lista';

/** Starts recording {@link FirstTimes} on every page load of `page` (call before `goto`). */
export async function recordFirstTimes(page: Page) {
  await page.addInitScript((question) => {
    const times: FirstTimes = {};
    (window as unknown as { __tiempos: FirstTimes }).__tiempos = times;
    for (const type of ['pointerdown', 'keydown']) addEventListener(type, (e) => (times.input ??= e.timeStamp), { capture: true });
    addEventListener('cotizador:listo', () => (times.listo ??= performance.now()));
    const shown = () => document.querySelector('main h1')?.textContent === question && !!document.querySelector('main form input');
    new MutationObserver((_, observer) => {
      if (times.pregunta !== undefined || !shown()) return;
      observer.disconnect();
      // the frame that paints it: after the next animation frame's rendering
      requestAnimationFrame(() => setTimeout(() => (times.pregunta = performance.now()), 0));
    }).observe(document, { childList: true, subtree: true, characterData: true });
  }, FIRST.question);
}

/** Resolves once the page has recorded `time`. */
export async function recorded(page: Page, time: keyof FirstTimes): Promise<FirstTimes> {
  await page.waitForFunction((t) => (window as unknown as { __tiempos: FirstTimes }).__tiempos[t] !== undefined, time);
  return page.evaluate(() => (window as unknown as { __tiempos: FirstTimes }).__tiempos);
}

/** Slows the page's CPU `rate` times, as a phone (Chromium's DevTools throttling, CDP Emulation.setCPUThrottlingRate). */
export async function slowCpu(page: Page, rate: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
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
 * One first-tap measure on a phone (touch, 390×844) with the CPU 4× slower, on the page at `url` (the app's entry step,
 * or the stack floor's first-tap page, tests/bench/floor/toque.tsx: React + RJSF + Effector showing the same question
 * on a tap, nothing else — the yardstick of the same run): at `lista`, ms from the tap to the first question; at
 * `arrancando` (the app only), ms from the app being ready to the first question, for a tap made while it started.
 */
export async function firstTapMs(browser: Browser, url: string, moment: 'lista' | 'arrancando'): Promise<number> {
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
    const release = await openAt(page, url, moment);
    if (moment === 'lista') await slowCpu(page, 4);
    await tapCta(page, true);
    await release();
    const t = await recorded(page, 'pregunta');
    return t.pregunta! - (moment === 'lista' ? t.input! : t.listo!);
  } finally {
    await context.close();
  }
}
