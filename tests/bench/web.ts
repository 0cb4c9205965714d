/**
 * Browser pieces of `npm run bench` (figures only, nothing asserted):
 * - `journeyStates`: replays a journey fixture in Chromium and keeps, per route, the URL and localStorage the app had
 *   when it arrived there (so every step can be opened cold with a restored journey);
 * - `lighthouseRun`: Lighthouse mobile (its default throttling) on a URL in a fresh Chromium, with localStorage seeded
 *   first (Lighthouse's storage reset is turned off for that);
 * - `assetBytes`: the gzip size of the JS/CSS a page fetches before its first contentful paint and after it, through
 *   network idle, nobody touching the page;
 * - `purchaseTime`: ms from the click on the last review step's submit button to the result route.
 */
import { readFileSync, existsSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result as LhResult } from 'lighthouse';
import { replayInBrowser } from '../../tools/replay/browser.ts';
import type { Product } from '../../tools/replay/driver.ts';
import { loadJourney, type Journey } from '../../tools/replay/fixture.ts';
import { loadReplayProduct } from '../../scripts/replay.ts';
import { startServer, type ServerProcess } from '../../server/test/processes.ts';

export const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PW_ARGS = ['--no-sandbox', '--disable-gpu'];

/**
 * What a returning visitor's browser holds for the app's origin: localStorage (key → raw string value) and the cookies
 * (the API's session cookie among them: a stored quote is only found again in the session that made it).
 */
export interface Storage {
  local: Record<string, string>;
  cookies: { name: string; value: string }[];
}

export interface RouteState {
  route: string;
  url: string;
  storage: Storage;
}

/** Seeds `storage` into `context` for `url`'s origin, on a JSON endpoint of the same origin (no app asset cached). */
async function seed(context: BrowserContext, url: string, storage: Storage, seedPath: string) {
  const page = await context.newPage();
  await page.goto(new URL(seedPath, url).toString());
  await page.evaluate((entries) => {
    for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v);
  }, storage.local);
  await context.addCookies(storage.cookies.map((c) => ({ ...c, url: new URL(url).origin })));
  return page;
}

/**
 * A 390×844 es-AR browser context holding `storage` for `url`'s origin (none: a first visit); `phone`: a touch screen
 * and a mobile viewport, as the taps are measured.
 */
export async function seededContext(
  browser: Browser,
  url: string,
  storage?: Storage,
  seedPath = '/api/health/live',
  phone = false,
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    locale: 'es-AR',
    ...(phone ? { hasTouch: true, isMobile: true, timezoneId: 'America/Argentina/Buenos_Aires' } : {}),
  });
  if (storage) await (await seed(context, url, storage, seedPath)).close();
  return context;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROME, args: PW_ARGS });
}

const routeOf = (url: string) => decodeURIComponent(new URL(url).pathname).replace(/^\/+/, '').replace(/\/+$/, '');

/**
 * Replays `journey` and snapshots (URL, localStorage) on each route the first time the page arrives there.
 * @throws Error when the replay fails (the bench needs the whole journey)
 */
export async function journeyStates(browser: Browser, baseUrl: string, journey: Journey, product: Product): Promise<RouteState[]> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    locale: 'es-AR',
    timezoneId: 'America/Argentina/Buenos_Aires',
  });
  const page = await context.newPage();
  const states = new Map<string, Promise<RouteState | null>>();
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame()) return;
    const route = routeOf(frame.url());
    if (states.has(route)) return;
    // the app writes its state synchronously on every change, before the router moves: this is the state on arrival
    states.set(
      route,
      Promise.all([page.evaluate(() => ({ url: location.href, local: { ...localStorage } })), context.cookies()]).then(
        ([s, cookies]) => ({
          route,
          url: s.url,
          storage: { local: s.local, cookies: cookies.map((c) => ({ name: c.name, value: c.value })) },
        }),
        () => null,
      ),
    );
  });
  const reports = await replayInBrowser(page, journey, product, { baseUrl });
  const failed = reports.find((r) => !r.ok);
  if (failed || reports.length < journey.steps.length)
    throw new Error(`el recorrido ${journey.name} falló en ${failed?.route}: ${failed?.error}`);
  const out = (await Promise.all(states.values())).filter((s): s is RouteState => !!s && journey.steps.some((st) => st.route === s.route));
  await context.close();
  return out;
}

export interface LighthouseFigures {
  score: number;
  lcp: number;
  tbt: number;
  cls: number;
  fcp: number;
  bytes: number;
}

/**
 * Lighthouse mobile (default config: Moto G class device, simulated slow 4G, 4× CPU) on `url`, performance only, in a
 * fresh headless Chromium. With `storage`, localStorage and cookies of `url`'s origin are seeded first (on a JSON endpoint of the
 * same origin, so no app asset is cached) and Lighthouse keeps it.
 */
export async function lighthouseRun(url: string, storage?: Storage, seedPath = '/api/health/live'): Promise<LighthouseFigures> {
  const lhr = await lighthouseReport(url, storage, seedPath);
  const num = (id: string) => Number(lhr.audits[id]?.numericValue ?? NaN);
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    lcp: num('largest-contentful-paint'),
    tbt: num('total-blocking-time'),
    cls: num('cumulative-layout-shift'),
    fcp: num('first-contentful-paint'),
    bytes: num('total-byte-weight'),
  };
}

/** The whole Lighthouse result (LHR) of one run of `lighthouseRun` (for `npm run bench:diag`). */
export async function lighthouseReport(url: string, storage?: Storage, seedPath = '/api/health/live'): Promise<LhResult> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: ['--headless=new', ...PW_ARGS] });
  try {
    if (storage) {
      const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      await (await seed(cdp.contexts()[0], url, storage, seedPath)).close();
      await cdp.close();
    }
    const result = await lighthouse(url, {
      port: chrome.port,
      onlyCategories: ['performance'],
      disableStorageReset: !!storage,
      logLevel: 'error',
      output: 'json',
    });
    if (!result) throw new Error(`Lighthouse no devolvió resultado para ${url}`);
    const { lhr } = result;
    if (process.env.BENCH_TRACE_OUT)
      writeFileSync(process.env.BENCH_TRACE_OUT, JSON.stringify((result.artifacts as unknown as { Trace: unknown }).Trace));
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
    return lhr;
  } finally {
    chrome.kill();
  }
}

/** Median figures of `runs` Lighthouse runs (by LCP). A run Lighthouse itself could not record (e.g. NO_NAVSTART on a busy machine) is run again, once. */
export async function lighthouseMedian(runs: number, url: string, storage?: Storage, seedPath?: string): Promise<LighthouseFigures> {
  const all: LighthouseFigures[] = [];
  for (let i = 0; i < runs; i++) all.push(await lighthouseRun(url, storage, seedPath).catch(() => lighthouseRun(url, storage, seedPath)));
  all.sort((a, b) => a.lcp - b.lcp);
  return all[Math.floor(all.length / 2)];
}

export interface AssetBytes {
  beforePaint: number;
  afterPaint: number;
  files: { path: string; gzip: number; beforePaint: boolean }[];
}

/**
 * Opens `url` (storage seeded like `lighthouseRun`) in a 390×844 page, waits for network idle and sums the gzip
 * size (level 9, of the file in `distDir`) of every JS/CSS file the page fetched: before the first contentful paint
 * (requested before it) and after it. Nobody touches the page.
 */
export async function assetBytes(
  browser: Browser,
  url: string,
  distDir: string,
  storage?: Storage,
  seedPath = '/api/health/live',
): Promise<AssetBytes> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'es-AR' });
  const page = await context.newPage();
  if (storage) await seed(context, url, storage, seedPath);
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForTimeout(1000);
  await page.waitForLoadState('networkidle');
  const { fcp, resources } = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Infinity,
    resources: performance.getEntriesByType('resource').map((r) => ({ name: r.name, start: r.startTime })),
  }));
  await context.close();
  const files = resources
    .map((r) => ({ path: new URL(r.name).pathname, start: r.start }))
    .filter((r) => /\.(js|css)$/.test(r.path) && existsSync(join(distDir, r.path)))
    .map((r) => ({ path: r.path, gzip: gzipBytes(distDir, r.path), beforePaint: r.start < fcp }));
  const sum = (before: boolean) => files.filter((f) => f.beforePaint === before).reduce((s, f) => s + f.gzip, 0);
  return { beforePaint: sum(true), afterPaint: sum(false), files };
}

/**
 * What loading the form engine before the tap would add to step 1: the gzip size (level 9, as {@link assetBytes}
 * counts it) of the files the prerendered entry page's loader fetches at the tap on its button (`data-al-tocar`,
 * written by scripts/prerender: the form engine and the next step's schemas and validator) that step 1 has not
 * already fetched.
 * @param distDir the app's build (its `index.html` is step 1) @param fetched the paths step 1 fetched ({@link assetBytes})
 * @returns bytes (gzip); 0 when the page names no such files
 */
export function tapBytes(distDir: string, fetched: readonly string[]): number {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const paths = (/data-al-tocar="([^"]*)"/.exec(html)?.[1] ?? '').split(' ').filter(Boolean);
  return paths.filter((p) => !fetched.includes(p) && existsSync(join(distDir, p))).reduce((sum, p) => sum + gzipBytes(distDir, p), 0);
}

/** The size a built file travels at, gzip level 9, as the benches count it: bytes. @param path its path under `distDir` */
function gzipBytes(distDir: string, path: string): number {
  return gzipSync(readFileSync(join(distDir, path)), { level: 9 }).length;
}

/**
 * Replays `journey` up to (not through) its step at `reviewRoute`, then times the click on that step's primary
 * button until the page is at `resultRoute` with `resultTestId` visible.
 * @returns milliseconds
 */
export async function purchaseTime(
  browser: Browser,
  baseUrl: string,
  journey: Journey,
  product: Product,
  reviewRoute: string,
  resultRoute: string,
  resultTestId: string,
): Promise<number> {
  const at = journey.steps.findIndex((s) => s.route === reviewRoute);
  if (at < 0) throw new Error(`el recorrido ${journey.name} no pasa por ${reviewRoute}`);
  const upTo: Journey = { ...journey, steps: [...journey.steps.slice(0, at), { route: reviewRoute, actions: [] }] };
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    locale: 'es-AR',
    timezoneId: 'America/Argentina/Buenos_Aires',
  });
  const page = await context.newPage();
  const reports = await replayInBrowser(page, upTo, product, { baseUrl });
  if (reports.some((r) => !r.ok) || reports.length < upTo.steps.length) throw new Error(`el recorrido no llegó a ${reviewRoute}`);
  const button = page.locator('main .button--primary').first();
  await button.waitFor();
  const t0 = Date.now();
  await button.click();
  await page.waitForURL((u) => routeOf(u.toString()) === resultRoute, { timeout: 30_000 });
  await page.getByTestId(resultTestId).first().waitFor({ timeout: 30_000 });
  const ms = Date.now() - t0;
  await context.close();
  return ms;
}

/**
 * The heaviest taps of a purchase (the live re-pricing and the locality search over 3,526 localities) and the
 * other heavy ones of a purchase, each on the step (route suffix) where it happens: what the page must show before
 * (`ready`) and what the visitor does (`act`).
 */
export const INTERACTIONS: { name: string; route: string; ready: (p: Page) => Locator; act: (p: Page) => Promise<void> }[] = [
  {
    name: 'tocar el botón del paso 1 (pasa al paso 2)',
    route: 'seguro-hogar',
    ready: (p) => p.locator('main .button--primary'),
    act: (p) => p.locator('main .button--primary').first().tap(),
  },
  {
    name: 'elegir otro plan',
    route: '/cotizacion',
    ready: (p) => p.locator('.plans input[type=radio]'),
    act: (p) => p.locator('.plans label').nth(1).tap(),
  },
  {
    name: 'sumar una cobertura (recotiza en vivo)',
    route: '/adicionales',
    ready: (p) => p.getByRole('switch'),
    act: (p) => p.getByRole('switch').first().tap(),
  },
  {
    name: 'buscar y elegir una localidad',
    route: '/localidad',
    ready: (p) => p.getByRole('combobox', { name: 'Localidad' }),
    act: async (p) => {
      // one question since the province select went away: the name, and the option that says its province
      await p.getByRole('combobox', { name: 'Localidad' }).pressSequentially('Lanu', { delay: 150 });
      await p.locator('.combobox__option').first().tap({ timeout: 15_000 });
    },
  },
];

/** The restored step where `interaction` happens (its route, or the route ending with it), if the journey reached it. */
export const interactionState = (interaction: { route: string }, states: RouteState[]): RouteState | undefined =>
  states.find((s) => s.route === interaction.route || s.route.endsWith(interaction.route));

export interface InteractionFigures {
  name: string;
  route: string;
  maxEventMs: number;
  maxLongTaskMs: number;
  longTasks: number;
}

/**
 * An interaction on a step, as a phone feels it: the step opened with `storage` seeded (a returning visitor), the
 * app ready (`ready` visible), then Chromium's CPU slowed 4× (Lighthouse's mobile factor) and `act` performed. Reports
 * the longest event (Event Timing: input delay + handlers + the next paint, what INP takes) and the longest main-thread
 * task (Long Tasks API) from the interaction until 1.5 s after it.
 */
export async function interactionTime(
  browser: Browser,
  name: string,
  state: RouteState,
  ready: (page: Page) => Locator,
  act: (page: Page) => Promise<void>,
): Promise<InteractionFigures> {
  const context = await seededContext(browser, state.url, state.storage, undefined, true);
  const page = await context.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __eventos: { t: number; d: number }[]; __tareas: { t: number; d: number }[] };
    w.__eventos = [];
    w.__tareas = [];
    new PerformanceObserver((l) => l.getEntries().forEach((e) => w.__eventos.push({ t: e.startTime, d: e.duration }))).observe({
      type: 'event',
      buffered: true,
      durationThreshold: 16,
    } as PerformanceObserverInit);
    new PerformanceObserver((l) => l.getEntries().forEach((e) => w.__tareas.push({ t: e.startTime, d: e.duration }))).observe({
      type: 'longtask',
      buffered: true,
    });
  });
  await page.goto(state.url);
  await ready(page).first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(1500);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const t0 = await page.evaluate(() => performance.now());
  await act(page);
  await page.waitForTimeout(1500);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  const { eventos, tareas } = await page.evaluate((since) => {
    const w = window as unknown as { __eventos: { t: number; d: number }[]; __tareas: { t: number; d: number }[] };
    return { eventos: w.__eventos.filter((e) => e.t >= since), tareas: w.__tareas.filter((e) => e.t >= since) };
  }, t0);
  await context.close();
  return {
    name,
    route: state.route,
    maxEventMs: Math.max(0, ...eventos.map((e) => e.d)),
    maxLongTaskMs: Math.max(0, ...tareas.map((e) => e.d)),
    longTasks: tareas.length,
  };
}

/**
 * What the per-step tools (bench:diag, bench:tareas, bench:lcp) start from: a browser, the built app of `root`/dist
 * served on a throw-away embedded database with the limits lifted, and the state of each route of the journey fixture
 * `fixture` (tests/fixtures/journeys/<fixture>.json). `close` stops the browser and the app and removes the database.
 * @throws Error when the app does not start or the fixture's replay fails
 */
export async function builtAppStates(
  root: string,
  fixture: string,
): Promise<{ browser: Browser; app: ServerProcess; states: RouteState[]; close: () => Promise<void> }> {
  const browser = await launchBrowser();
  const dataDir = mkdtempSync(join(tmpdir(), 'cotizador-bench-paso-'));
  const close = async (app?: ServerProcess) => {
    await browser.close();
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  let app: ServerProcess | undefined;
  try {
    app = await startServer(
      0,
      {
        STATIC_DIR: join(root, 'dist'),
        DATA_DIR: dataDir,
        RATE_LIMIT_MAX: '100000000',
        COTIZACIONES_POR_HORA: '100000000',
        LOG_LEVEL: 'warn',
      },
      { optimizeWasm: true },
    );
    const states = await journeyStates(
      browser,
      app.url,
      loadJourney(join(root, 'tests/fixtures/journeys', `${fixture}.json`)),
      loadReplayProduct(root),
    );
    const started = app;
    return { browser, app: started, states, close: () => close(started) };
  } catch (err) {
    await close(app);
    throw err;
  }
}

/** True when `route` is one of `wanted` (a route or its last segments); every route when `wanted` is empty. */
export const routeWanted = (route: string, wanted: string[]) =>
  !wanted.length || wanted.some((w) => route === w || route.endsWith(`/${w}`));
