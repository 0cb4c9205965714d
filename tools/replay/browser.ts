/**
 * Replays a journey fixture in a real browser (a Playwright `Page`) against any deployment that honours the API
 * contract: steps are found by route in the flow, fields are answered by their schema name through the widget
 * registry's `drive` kinds (never by label), calls are recorded and matched, stubbed replies are served from the
 * fixture, time moves on Playwright's fake clock. The page is a {@link Screen} of the journey driver (driver.ts), which
 * plays the fixture as the headless replay does. Used by `npm run replay` and by the Playwright suite.
 */
import type { Page, Request, Route } from '@playwright/test';
import { stepByPath } from '../../src/engine/core/guards.ts';
import { SYNTHETIC_STORAGE_KEY } from '../../src/engine/funnel/synthetic.ts';
import type { Step } from '../../src/core/flow/types.ts';
import { FIELDS, WIDGETS, type DriveKind, type WidgetSpec } from '../../src/form/widgets/registry.ts';
import { resolveAnswer, routeUnder, type Journey, type JourneyAction, type JourneyStep } from './fixture.ts';
import { CallLog, driveJourney, type DriveOptions, type Product, type Screen, type StepReport } from './driver.ts';
import { settled, trackRequests } from './settle.ts';
import { checkPinsAt, pinsOf, showValue, type PinOptions } from '../../src/recorder/pins.ts';

/** An amount as es-AR shows it (`$ 27.346,33`) → 27346.33; NaN when there is none. */
const parseArs = (text: string) => Number(text.replace(/[^\d,-]/g, '').replace(',', '.') || NaN);

type Json = Record<string, unknown>;

export interface ReplayOptions extends PinOptions, DriveOptions {
  /** Origin of the deployment, e.g. http://127.0.0.1:3199. */
  baseUrl: string;
  /** Per-step wait for the route and for each expectation, ms (default 15000). */
  timeoutMs?: number;
  /**
   * Send the staff funnel's batches to the deployment (default false: the replay answers them itself, as the API
   * would — flow.json › funnel). Either way they are marked `sintetico`, so no replay counts in the funnel report.
   */
  keepFunnel?: boolean;
  /**
   * Replay on another day: the page's clock (Playwright `page.clock`) starts at this instant and runs on, and the
   * fixture's `$hoy+N` dates are counted from it (default: the real time). The deployment must be on that day too.
   */
  now?: Date;
}

const specs: Record<string, WidgetSpec> = { ...(WIDGETS as Record<string, WidgetSpec>), ...(FIELDS as Record<string, WidgetSpec>) };

/** The drive kind of a field: its widget's, else by its schema (enum → select, boolean → checkbox, text). */
function driveKind(prop: Json, fieldUi: Json | undefined): DriveKind {
  const widget = (fieldUi?.['ui:widget'] ?? fieldUi?.['ui:field']) as string | undefined;
  if (widget && specs[widget]?.drive) return specs[widget].drive as DriveKind;
  if (prop.type === 'boolean') return 'checkbox';
  if (Array.isArray(prop.enum)) return 'select';
  return 'text';
}

/** Answers one field by its schema name. `id` is RJSF's control id (`<step>_<field>`). */
async function answerField(page: Page, id: string, kind: DriveKind, value: unknown, now?: Date): Promise<void> {
  const v = resolveAnswer(value, now);
  switch (kind) {
    case 'choice':
      await page.locator(`input[name="${id}"][value="${String(v)}"]`).check();
      return;
    case 'multi': {
      const wanted = new Set((Array.isArray(v) ? v : []).map(String));
      for (const box of await page.locator(`input[name="${id}"]`).all()) {
        const on = wanted.has((await box.getAttribute('value')) ?? '');
        if ((await box.isChecked()) !== on) {
          await box.click();
          await settled(page);
        }
      }
      return;
    }
    case 'checkbox':
      await page.locator(`#${id}`).setChecked(v === true);
      return;
    case 'select':
      await page.locator(`#${id}`).selectOption(String(v));
      return;
    default:
      await page.locator(`#${id}`).fill(String(v ?? ''));
  }
}

/**
 * Answers an object of the form (the step's root, or a nested object such as a sworn statement): a LocationField
 * first (the province when it is asked apart, then the locality by its code), then every other field in ui:order,
 * nested objects recursively, and a PhoneField's area code and number last, typed together in its one input.
 * @param id RJSF's id of the object (`<step>` for the root, `<step>_<field>` below it)
 */
async function answerObject(page: Page, id: string, schema: Json, ui: Json, answers: Json, now?: Date): Promise<void> {
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const handled = new Set<string>();
  const drive = ui['ui:field'] ? specs[ui['ui:field'] as string]?.drive : undefined;
  if (drive === 'location') {
    const names = ((ui['ui:options'] as Json)?.fields ?? {}) as Record<string, string>;
    const apart = (ui['ui:options'] as Json)?.province !== 'search';
    if (apart && answers[names.province] !== undefined)
      await page.locator(`#${id}_${names.province}`).selectOption(String(answers[names.province]));
    if (answers[names.locality] !== undefined) {
      // asked in one search, the locality is typed with its province («Lanús, Buenos Aire…»), as its options read
      const province = !apart && answers[names.provinceName] ? `, ${String(answers[names.provinceName])}` : '';
      const name = String(answers[names.localityName] ?? '') + province;
      await page.locator(`#${id}_${names.locality}`).fill(name.slice(0, Math.max(2, name.length - 1)));
      await page.locator(`[role="option"][data-value="${String(answers[names.locality])}"]`).click();
    }
    Object.values(names).forEach((n) => handled.add(n));
  }
  // the phone's two answers typed as a visitor writes them in its one input: «11 55551234»
  const phoneAt: { names?: Record<string, string> } = {};
  if (drive === 'phone') phoneAt.names = ((ui['ui:options'] as Json)?.fields ?? {}) as Record<string, string>;
  const order = ((ui['ui:order'] as string[] | undefined) ?? Object.keys(props)).filter((k) => k !== '*');
  const keys = [...order, ...Object.keys(answers).filter((k) => !order.includes(k))];
  for (const key of keys) {
    if (handled.has(key) || !(key in answers) || !props[key]) continue;
    if (phoneAt.names && (key === phoneAt.names.areaCode || key === phoneAt.names.number)) continue;
    const fieldUi = (ui[key] ?? {}) as Json;
    const value = answers[key];
    if (props[key].type === 'object' && !fieldUi['ui:field'] && value && typeof value === 'object') {
      await answerObject(page, `${id}_${key}`, props[key], fieldUi, value as Json, now);
    } else {
      await answerField(page, `${id}_${key}`, driveKind(props[key], fieldUi), value, now);
    }
  }
  const phone = phoneAt.names;
  if (phone && (phone.areaCode in answers || phone.number in answers)) {
    const typed = [answers[phone.areaCode], answers[phone.number]].filter((v) => v !== undefined && v !== '').join(' ');
    await page.locator(`#${id}_${phone.number}`).fill(typed);
  }
}

async function act(page: Page, action: JourneyAction, baseUrl: string): Promise<void> {
  if (action === 'next') await page.locator('main .button--primary').first().click();
  else if (action === 'back') await page.goBack();
  else if (action === 'reload') await page.reload();
  else if ('wait' in action) await page.clock.fastForward(Math.round(action.wait * 60_000));
  else if ('goto' in action) await page.goto(baseUrl + action.goto);
  else
    await page
      .getByRole('button', { name: action.click })
      .or(page.getByRole('link', { name: action.click }))
      .first()
      .click();
}

async function checkExpectations(
  page: Page,
  product: Product,
  step: Step | undefined,
  exp: NonNullable<JourneyStep['expect']>,
  timeout: number,
): Promise<void> {
  for (const text of exp.texts ?? []) {
    await page
      .getByText(text, { exact: false })
      .first()
      .waitFor({ timeout })
      .catch(() => {
        throw new Error(`no se ve el texto «${text}» (esperado ${timeout / 1000} s)`);
      });
  }
  if (exp.premio) {
    const shown = await page.getByTestId('premio-cuota').first().textContent({ timeout });
    const amount = Number((shown ?? '').replace(/[^\d,]/g, '').replace(',', '.'));
    if (!(amount >= (exp.premio.min ?? -Infinity) && amount <= (exp.premio.max ?? Infinity))) {
      throw new Error(`premio ${amount} fuera de [${exp.premio.min ?? '-∞'}, ${exp.premio.max ?? '∞'}]`);
    }
  }
  if (exp.policyNumber) {
    const n = await page.getByTestId('poliza').textContent({ timeout });
    if (!/^HOG-\d{4}-\d{6}$/.test(n ?? '')) throw new Error(`número de póliza inesperado: "${n}"`);
  }
  if (exp.storageExcludes?.length) {
    const dump = await page.evaluate(() => JSON.stringify({ ...window.localStorage }));
    for (const secret of exp.storageExcludes) if (dump.includes(secret)) throw new Error(`localStorage guarda "${secret.slice(0, 4)}…"`);
  }
  if (exp.query !== undefined && new URL(page.url()).search !== exp.query)
    throw new Error(`query "${new URL(page.url()).search}", se esperaba "${exp.query}"`);
  for (const text of exp.noTexts ?? [])
    if ((await page.getByText(text, { exact: false }).count()) > 0) throw new Error(`no debería verse "${text}"`);
  for (const id of exp.testIds ?? []) {
    await page
      .getByTestId(id)
      .first()
      .waitFor({ timeout })
      .catch(() => {
        throw new Error(`no se ve [data-testid=${id}] (esperado ${timeout / 1000} s)`);
      });
  }
  for (const id of exp.noTestIds ?? [])
    if ((await page.getByTestId(id).count()) > 0) throw new Error(`no debería estar [data-testid=${id}]`);
  for (const field of exp.fieldErrors ?? []) {
    if (!step) throw new Error('fieldErrors en una ruta que no es un paso');
    await page
      .locator(`[data-field="${field}"] .field__error`)
      .first()
      .waitFor({ timeout })
      .catch(() => {
        throw new Error(`el campo ${field} no muestra error`);
      });
  }
  void product;
}

/** Answers step `stepId`'s form on `page` from `answers` by field name (the fixture's values; `$hoy+N` counted from `now`). */
export async function answerStep(page: Page, product: Product, stepId: string, answers: Json, now?: Date): Promise<void> {
  await answerObject(page, stepId, product.schemas[stepId] ?? {}, product.ui[stepId] ?? {}, answers, now);
}

/**
 * Replays `journey` on `page` (driver.ts: the rules every replay shares). Never throws for a failed step: the report
 * says which step failed and why, and the replay stops there.
 * @returns one report per step reached
 */
export async function replayInBrowser(page: Page, journey: Journey, product: Product, opts: ReplayOptions): Promise<StepReport[]> {
  opts = { ...opts, baseUrl: opts.baseUrl.replace(/\/+$/, '') };
  const apiPrefix = `${new URL(opts.baseUrl).pathname.replace(/\/+$/, '')}/api/`;
  const funnelCall = product.flow.funnel ? product.flow.calls[product.flow.funnel.call] : undefined;
  const calls = new CallLog(journey.stubs);
  const onRequest = await recordAndStubApi(page, calls, apiPrefix);
  if (funnelCall && !opts.keepFunnel) await muteFunnel(page, apiPrefix, funnelCall);
  const clockAt = await prepareDocument(page, journey, opts);
  try {
    return await driveJourney(journey, product, browserScreen(page, product, opts, clockAt), calls, opts);
  } finally {
    page.off('request', onRequest);
    await page.unroute('**/api/**');
  }
}

/**
 * Records every API request the page makes in `calls` (path under /api, parsed JSON body) and answers the ones the
 * fixture stubs. @returns the request listener (to remove when the replay ends, with the route)
 */
async function recordAndStubApi(page: Page, calls: CallLog, apiPrefix: string): Promise<(req: Request) => void> {
  const onRequest = (req: Request) => {
    const url = new URL(req.url());
    if (!url.pathname.startsWith(apiPrefix)) return;
    let body: unknown;
    try {
      body = req.postData() ? JSON.parse(req.postData() as string) : undefined;
    } catch {
      body = req.postData();
    }
    calls.record({ method: req.method(), path: url.pathname.slice(apiPrefix.length - 1), body });
  };
  page.on('request', onRequest);
  trackRequests(page);
  await page.route('**/api/**', async (route: Route) => {
    const req = route.request();
    const pathname = new URL(req.url()).pathname;
    if (!pathname.startsWith(apiPrefix)) return route.fallback();
    const stub = calls.stubFor(req.method(), pathname.slice(apiPrefix.length - 1));
    if (!stub) return route.fallback();
    await route.fulfill({ status: stub.status ?? 200, contentType: 'application/json', body: JSON.stringify(stub.body) });
  });
  return onRequest;
}

/** Answers the funnel's batches on the spot (counted, never sent to the API): a replay does not feed the staff report. */
async function muteFunnel(page: Page, apiPrefix: string, funnelCall: { method: string; path: string }): Promise<void> {
  // on the context, not the page: the last batch leaves with keepalive as the page closes, after page routes end
  await page.context().route(`**${apiPrefix}${funnelCall.path.replace(/^\//, '')}`, (route) => {
    if (route.request().method() !== funnelCall.method) return route.fallback();
    const eventos = (route.request().postDataJSON() as { eventos?: unknown[] } | null)?.eventos ?? [];
    // a batch leaving with keepalive as the page reloads or closes may be dropped by the browser before its reply:
    // nothing waits for that reply, so a route the page already let go is not a replay failure
    return route
      .fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ ok: true, registrados: Math.max(1, eventos.length) }),
      })
      .catch((err: Error) => {
        if (!/already handled/i.test(err.message)) throw err;
      });
  });
}

/**
 * What every document of the replay starts with: the journey marked synthetic, the page's clock (moved to `opts.now`,
 * or installed for `wait` actions) and the fixture's localStorage (first document only).
 * @returns the replay's "now" for `$hoy+N`: the page's clock when `opts.now` moved it, else undefined (the real time)
 */
async function prepareDocument(page: Page, journey: Journey, opts: ReplayOptions): Promise<() => Date | undefined> {
  // a replay's journey is marked synthetic even where navigator.webdriver is not set: with --embudo its batches reach
  // the deployment marked `sintetico` and the report leaves them out (engine/funnel › SYNTHETIC_STORAGE_KEY)
  await page.addInitScript((key) => {
    try {
      sessionStorage.setItem(key, '1');
    } catch {
      // a document without storage (about:blank): nothing of the app runs there
    }
  }, SYNTHETIC_STORAGE_KEY);
  if (opts.now) await page.clock.install({ time: opts.now });
  else if (journey.steps.some((s) => s.actions?.some((a) => typeof a === 'object' && 'wait' in a))) await page.clock.install();
  const movedBy = opts.now ? opts.now.getTime() - Date.now() : 0;
  if (journey.localStorage) {
    // before the app's first script, on the first document only (a reload must see what the app wrote since)
    await page.addInitScript((entries) => {
      if (sessionStorage.getItem('__fixture_seeded')) return;
      sessionStorage.setItem('__fixture_seeded', '1');
      for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v);
    }, journey.localStorage);
  }
  return () => (opts.now ? new Date(Date.now() + movedBy) : undefined);
}

/** The page as the journey driver sees it (driver.ts › Screen), each wait bounded by `opts.timeoutMs` (default 15 s). */
function browserScreen(page: Page, product: Product, opts: ReplayOptions, clockAt: () => Date | undefined): Screen {
  const timeout = opts.timeoutMs ?? 15_000;
  /** The route of `url` under the replay's base URL ('' when outside it: a sub-path deployment is compared under its path). */
  const routeOf = (url: string) => routeUnder(url, opts.baseUrl) ?? '';
  return {
    open: async (url) => void (await page.goto(opts.baseUrl + url)),
    arrive: async (route) => {
      await page
        .waitForURL((url) => routeOf(url.toString()) === route, { timeout })
        .catch(() => {
          throw new Error(`ruta: se esperaba ${opts.baseUrl}/${route}, se llegó a ${page.url()}`);
        });
      await settled(page, timeout);
    },
    shown: async (want, from) => {
      const isStep = (r: string) => r !== from && stepByPath(product.flow, r) !== undefined;
      const reached = await page
        .waitForURL((url) => routeOf(url.toString()) === want || isStep(routeOf(url.toString())), { timeout })
        .then(
          () => true,
          () => false,
        );
      return reached ? routeOf(page.url()) : null;
    },
    check: async (index, fs, step) => {
      if (fs.expect) await checkExpectations(page, product, step, fs.expect, timeout);
      if (!pinsOf(fs.expect)) return;
      const state: unknown = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null'), product.flow.storageKey);
      checkPinsAt(index, fs.expect as Json, state, opts);
      // what the visitor reads: the step's summary shows the chosen plan's cuota, to the cent
      const cuota = fs.expect?.plan && 'premioCuota' in fs.expect.plan ? fs.expect.plan.premioCuota : undefined;
      const summary = page.getByTestId('premio-cuota').first();
      if (!opts.update && cuota !== undefined && (await summary.count()) > 0) {
        const shown = ((await summary.textContent()) ?? '').trim();
        if (parseArs(shown) !== cuota) throw new Error(`el resumen muestra «${shown}» por mes, el plan fijado ${showValue(cuota)}`);
      }
    },
    had: async () => ({}),
    answer: async (stepId, answers) => {
      await settled(page, timeout);
      await answerStep(page, product, stepId, answers, clockAt());
    },
    act: (action) => act(page, action, opts.baseUrl),
    until: async (ready) => {
      // the request event comes as the request leaves, after the action that made it: a short poll until then
      for (const deadline = Date.now() + timeout; !ready(); await page.waitForTimeout(50)) if (Date.now() > deadline) return false;
      return true;
    },
    failureText: () =>
      page
        .locator('main')
        .innerText({ timeout: 2_000 })
        .catch(() => ''),
  };
}
