/**
 * Replays a journey fixture in a real browser (a Playwright `Page`) against any deployment that honours the API
 * contract: steps are found by route in the flow, fields are answered by their schema name through the widget
 * registry's `drive` kinds (never by label), calls are recorded and matched, stubbed replies are served from the
 * fixture, time moves on Playwright's fake clock. A step the flow shows out of the fixture's order (steps reordered
 * or split) is answered from the fixture's answers by field name (src/testing/follow.ts). Used by `npm run replay` and
 * by the Playwright suite.
 */
import type { Page, Request, Route } from '@playwright/test';
import { stepByPath } from '../engine/core/guards.ts';
import { SYNTHETIC_STORAGE_KEY } from '../engine/funnel/synthetic.ts';
import type { Flow, Step } from '../engine/core/types.ts';
import type { Migration } from '../engine/core/migrations.ts';
import { FIELDS, WIDGETS, type DriveKind, type WidgetSpec } from '../form/widgets/registry.ts';
import { callMatches, resolveAnswer, routeUnder, type Journey, type JourneyAction, type JourneyStep, type StubbedReply } from './fixture.ts';
import { answersForStep, detour, fillIn } from './follow.ts';
import { settled, trackRequests } from './settle.ts';
import { checkPinsAt, pinsOf, showValue, type PinOptions } from './pins.ts';

/** An amount as es-AR shows it (`$ 27.346,33`) → 27346.33; NaN when there is none. */
const parseArs = (text: string) => Number(text.replace(/[^\d,-]/g, '').replace(',', '.') || NaN);

type Json = Record<string, unknown>;

/** What the driver needs of the product: the compiled flow and each step's schema and ui schema. */
export interface Product {
  flow: Flow;
  schemas: Record<string, Json>;
  ui: Record<string, Json>;
  /** flow/migrations/*.json (the headless replay migrates saved state as the app does). */
  migrations?: Migration[];
}

/** One step of the replay report. */
export interface StepReport {
  index: number;
  route: string;
  ok: boolean;
  ms: number;
  error?: string;
  /** On failure: the visible text of the page. */
  text?: string;
}

export interface ReplayOptions extends PinOptions {
  /** Origin of the deployment, e.g. http://127.0.0.1:3199. */
  baseUrl: string;
  /** Per-step wait for the route and for each expectation, ms (default 15000). */
  timeoutMs?: number;
  /** Called after each step (to print progress). */
  onStep?: (report: StepReport) => void;
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
    if (apart && answers[names.province] !== undefined) await page.locator(`#${id}_${names.province}`).selectOption(String(answers[names.province]));
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
  else await page.getByRole('button', { name: action.click }).or(page.getByRole('link', { name: action.click })).first().click();
}

async function checkExpectations(page: Page, product: Product, step: Step | undefined, exp: NonNullable<JourneyStep['expect']>, timeout: number): Promise<void> {
  for (const text of exp.texts ?? []) {
    await page.getByText(text, { exact: false }).first().waitFor({ timeout }).catch(() => {
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
  if (exp.query !== undefined && new URL(page.url()).search !== exp.query) throw new Error(`query "${new URL(page.url()).search}", se esperaba "${exp.query}"`);
  for (const text of exp.noTexts ?? []) if ((await page.getByText(text, { exact: false }).count()) > 0) throw new Error(`no debería verse "${text}"`);
  for (const id of exp.testIds ?? []) {
    await page.getByTestId(id).first().waitFor({ timeout }).catch(() => {
      throw new Error(`no se ve [data-testid=${id}] (esperado ${timeout / 1000} s)`);
    });
  }
  for (const id of exp.noTestIds ?? []) if ((await page.getByTestId(id).count()) > 0) throw new Error(`no debería estar [data-testid=${id}]`);
  for (const field of exp.fieldErrors ?? []) {
    if (!step) throw new Error('fieldErrors en una ruta que no es un paso');
    await page.locator(`[data-field="${field}"] .field__error`).first().waitFor({ timeout }).catch(() => {
      throw new Error(`el campo ${field} no muestra error`);
    });
  }
  void product;
}

/**
 * Replays `journey` on `page`. Never throws for a failed step: the report says which step failed and why, and the
 * replay stops there.
 * @returns one report per step reached
 */
export async function replayInBrowser(page: Page, journey: Journey, product: Product, opts: ReplayOptions): Promise<StepReport[]> {
  const timeout = opts.timeoutMs ?? 15_000;
  opts = { ...opts, baseUrl: opts.baseUrl.replace(/\/+$/, '') };
  const apiPrefix = `${new URL(opts.baseUrl).pathname.replace(/\/+$/, '')}/api/`;
  const funnelCall = product.flow.funnel ? product.flow.calls[product.flow.funnel.call] : undefined;
  const reports: StepReport[] = [];
  const made: { step: number; method: string; path: string; body?: unknown }[] = [];
  const stubs: (StubbedReply & { left: number })[] = [];
  let current = 0;

  const onRequest = (req: Request) => {
    const url = new URL(req.url());
    if (!url.pathname.startsWith(apiPrefix)) return;
    let body: unknown;
    try {
      body = req.postData() ? JSON.parse(req.postData() as string) : undefined;
    } catch {
      body = req.postData();
    }
    made.push({ step: current, method: req.method(), path: url.pathname.slice(apiPrefix.length - 1), body });
  };
  page.on('request', onRequest);
  trackRequests(page);
  await page.route('**/api/**', async (route: Route) => {
    const req = route.request();
    const pathname = new URL(req.url()).pathname;
    if (!pathname.startsWith(apiPrefix)) return route.fallback();
    const path = pathname.slice(apiPrefix.length - 1);
    const stub = stubs.find((s) => s.left > 0 && callMatches({ method: s.method, path: s.path }, { method: req.method(), path }));
    if (!stub) return route.fallback();
    stub.left -= 1;
    await route.fulfill({ status: stub.status ?? 200, contentType: 'application/json', body: JSON.stringify(stub.body) });
  });
  if (funnelCall && !opts.keepFunnel) {
    // on the context, not the page: the last batch leaves with keepalive as the page closes, after page routes end
    await page.context().route(`**${apiPrefix}${funnelCall.path.replace(/^\//, '')}`, (route) => {
      if (route.request().method() !== funnelCall.method) return route.fallback();
      const eventos = (route.request().postDataJSON() as { eventos?: unknown[] } | null)?.eventos ?? [];
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ ok: true, registrados: Math.max(1, eventos.length) }) });
    });
  }
  // a replay's journey is marked synthetic even where navigator.webdriver is not set: with --embudo its batches reach
  // the deployment marked `sintetico` and the report leaves them out (engine/funnel › SYNTHETIC_STORAGE_KEY)
  await page.addInitScript((key) => {
    try {
      sessionStorage.setItem(key, '1');
    } catch {
      // a document without storage (about:blank): nothing of the app runs there
    }
  }, SYNTHETIC_STORAGE_KEY);
  for (const s of journey.stubs ?? []) stubs.push({ ...s, left: s.times ?? Number.POSITIVE_INFINITY });
  if (opts.now) await page.clock.install({ time: opts.now });
  else if (journey.steps.some((s) => s.actions?.some((a) => typeof a === 'object' && 'wait' in a))) await page.clock.install();
  /** The replay's "now" for `$hoy+N`: the page's clock when `opts.now` moved it, else the real time. */
  const movedBy = opts.now ? opts.now.getTime() - Date.now() : 0;
  const clockAt = () => (opts.now ? new Date(Date.now() + movedBy) : undefined);
  if (journey.localStorage) {
    // before the app's first script, on the first document only (a reload must see what the app wrote since)
    await page.addInitScript((entries) => {
      if (sessionStorage.getItem('__fixture_seeded')) return;
      sessionStorage.setItem('__fixture_seeded', '1');
      for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v);
    }, journey.localStorage);
  }

  /** Fixture steps already used out of order (src/testing/follow.ts). */
  const used = new Set<number>();
  /** The route left by the last action when it was the primary button or Back (the next route is any other step's), or null. */
  let leaving: { route: string; back: boolean } | null = null;
  const lastMove = (fs: JourneyStep): 'next' | 'back' | null => {
    const last = fs.actions === undefined ? 'next' : fs.actions.at(-1);
    return last === 'next' || last === 'back' ? last : null;
  };
  /** Runs fixture step `index` on the page: its expectations, answers, actions and calls. */
  /** The route of `url` under the replay's base URL ('' when outside it: a sub-path deployment is compared under its path). */
  const routeOf = (url: string) => routeUnder(url, opts.baseUrl) ?? '';
  const runStep = async (index: number, fs: JourneyStep) => {
    current = index;
    const started = Date.now();
    const step = stepByPath(product.flow, fs.route);
    try {
      await page.waitForURL((url) => routeOf(url.toString()) === fs.route, { timeout }).catch(() => {
        throw new Error(`ruta: se esperaba ${opts.baseUrl}/${fs.route}, se llegó a ${page.url()}`);
      });
      await settled(page, timeout);
      for (const s of fs.stubs ?? []) stubs.push({ ...s, left: s.times ?? Number.POSITIVE_INFINITY });
      if (fs.expect) await checkExpectations(page, product, step, fs.expect, timeout);
      if (pinsOf(fs.expect)) {
        const state: unknown = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null'), product.flow.storageKey);
        checkPinsAt(index, fs.expect as Json, state, opts);
        // what the visitor reads: the step's summary shows the chosen plan's cuota, to the cent
        const cuota = fs.expect?.plan && 'premioCuota' in fs.expect.plan ? fs.expect.plan.premioCuota : undefined;
        const summary = page.getByTestId('premio-cuota').first();
        if (!opts.update && cuota !== undefined && (await summary.count()) > 0) {
          const shown = ((await summary.textContent()) ?? '').trim();
          if (parseArs(shown) !== cuota) throw new Error(`el resumen muestra «${shown}» por mes, el plan fijado ${showValue(cuota)}`);
        }
      }
      if (fs.answers) {
        if (!step) throw new Error(`la ruta ${fs.route} no es un paso del flujo`);
        await answerObject(page, step.id, product.schemas[step.id] ?? {}, product.ui[step.id] ?? {}, answersForStep(product.schemas, step.id, fs.answers) ?? {}, clockAt());
      }
      const actions = fs.actions ?? (step?.kind === 'result' ? [] : ['next']);
      for (const a of actions) await act(page, a, opts.baseUrl);
      const move = actions.length ? lastMove(fs) : null;
      leaving = move ? { route: fs.route, back: move === 'back' } : null;
      if (fs.calls?.length) {
        const deadline = Date.now() + timeout;
        for (const want of fs.calls) {
          while (!made.some((m) => m.step === index && callMatches(want, m))) {
            if (Date.now() > deadline) {
              const seen = made.filter((m) => m.step === index).map((m) => `${m.method} ${m.path}`);
              throw new Error(`no se llamó ${want.method} ${want.path}${want.body ? ' ' + JSON.stringify(want.body) : ''}; llamadas del paso: ${seen.join(', ') || 'ninguna'}`);
            }
            await page.waitForTimeout(50);
          }
        }
      }
      reports.push({ index, route: fs.route, ok: true, ms: Date.now() - started });
      opts.onStep?.(reports[reports.length - 1]);
      return true;
    } catch (err) {
      const text = await page.locator('main').innerText({ timeout: 2_000 }).catch(() => '');
      reports.push({ index, route: fs.route, ok: false, ms: Date.now() - started, error: (err as Error).message.split('\n')[0], text });
      opts.onStep?.(reports[reports.length - 1]);
      return false;
    }
  };

  try {
    await page.goto(opts.baseUrl + journey.url);
    for (const [index, fs] of journey.steps.entries()) {
      if (used.has(index)) continue;
      // the flow shows another step first (steps reordered or split): answer it from the fixture (src/testing/follow.ts)
      let ok = true;
      for (let hops = 0; ok && leaving && hops < product.flow.steps.length; hops++) {
        const from: string = leaving.route;
        const shownStep = (r: string) => r !== from && stepByPath(product.flow, r) !== undefined;
        const reached = await page.waitForURL((url) => routeOf(url.toString()) === fs.route || shownStep(routeOf(url.toString())), { timeout }).then(() => true, () => false);
        const shown = routeOf(page.url());
        if (!reached || shown === fs.route) break;
        const here = stepByPath(product.flow, shown)!;
        const way = detour(product.flow, journey, index, here.id, leaving.back);
        if (way === 'back') {
          await page.goBack();
          leaving = { route: shown, back: true };
          continue;
        }
        const fill = way === 'fill' ? fillIn(product.flow, product.schemas, journey, index, here.id, used) : null;
        if (!fill) break;
        if (fill.entry !== undefined) {
          used.add(fill.entry);
          ok = await runStep(fill.entry, journey.steps[fill.entry]);
        } else {
          await settled(page, timeout);
          await answerObject(page, here.id, product.schemas[here.id] ?? {}, product.ui[here.id] ?? {}, fill.answers, clockAt());
          await act(page, 'next', opts.baseUrl);
          leaving = { route: shown, back: false };
        }
      }
      if (!ok || !(await runStep(index, fs))) break;
    }
  } finally {
    page.off('request', onRequest);
    await page.unroute('**/api/**');
  }
  return reports;
}
