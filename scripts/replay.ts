/**
 * `npm run replay -- [fixture…] [options]` — replays journey fixtures (default: every file in tests/fixtures/journeys)
 * and ends with a summary table (fixture, result, steps, time). `--help` prints the options (USAGE below).
 *
 * Modes: in Debian's Chromium against a deployment (`--base-url`), or against the built app + API started here on a
 * throw-away embedded database (the default; stopped on success, failure, timeout and Ctrl-C); or `--headless`:
 * through the engine against the API in-process (no browser, seconds for the whole set; `--tarifa FILE` prices with
 * another tariff). `--update` rewrites the fixtures' pinned money (expect.planes / expect.plan, src/recorder/pins.ts)
 * from what the replay saw and prints the diff (fixture, step, plan: old → new).
 * Exit code 1 when a fixture fails or cannot be read.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileFlowNode } from '../tools/check/conditions.ts';
import type { FlowDef } from '../src/core/flow/types.ts';
import type { Product, StepReport } from '../tools/replay/driver.ts';
import { checkJourney, type DynamicOptions, type FixtureProblem } from '../tools/replay/check.ts';
import type { Journey } from '../tools/replay/fixture.ts';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { replayHeadless } from '../tools/replay/headless.ts';
import { visitor } from '../tools/replay/inject.ts';
import { updatePins, type SeenPins } from '../src/recorder/pins.ts';
import { loadProduct } from '../server/src/producto.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tools/chromium.ts';
import { usarPlantillaDeHerramientas } from '../tools/plantilla.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');

export const USAGE = `Uso: npm run replay -- [fixture.json…] [opciones]

Reproduce recorridos (por defecto todos los de tests/fixtures/journeys) y termina con una tabla resumen.

Opciones:
  --base-url URL   contra un despliegue (p. ej. https://qa.example.com o https://qa.example.com/hogar)
                   sin --base-url: compila si hace falta y levanta la app + API en un puerto libre, con una base
                   descartable; se detiene al terminar, al fallar, por tiempo o con Ctrl-C
  --headless       sin navegador: por el motor, contra la API en el mismo proceso (segundos para todos)
  --tarifa FILE    (con --headless o en modo local) cotiza con otra tarifa (p. ej. una copia modificada)
  --update         reescribe los montos fijados (expect.planes, expect.plan) con lo visto e imprime el diff
  --port N         (modo local) el puerto de la app + API (por defecto uno libre)
  --embudo         (navegador) manda al despliegue los lotes del embudo del personal; por defecto la reproducción
                   los responde ella misma y ningún recorrido reproducido cuenta en el informe del embudo
  --headed         muestra el navegador
  --reporter junit|json   además escribe el informe (test-results/replay/junit.xml o report.json; --output FILE)
  --help           esta ayuda (no levanta nada)
`;

/** The flow (compiled), step schemas and ui schemas under `root`, as the replay addresses them. */
export function loadReplayProduct(root: string): Product {
  const files = loadProduct(root);
  return {
    flow: compileFlowNode(files.flow as FlowDef),
    schemas: files.schemas,
    ui: files.ui,
    migrations: Object.values(files.migrations ?? {}),
  } as unknown as Product;
}

/** The outcome of one fixture file. `problem`: it could not be read or checked (nothing was replayed). */
export interface FixtureRun {
  file: string;
  name: string;
  ok: boolean;
  ms: number;
  steps: number;
  reports: StepReport[];
  problem?: string;
  seen: SeenPins[];
  /** Files kept for a failure: screenshot, Playwright trace. */
  artifacts?: string[];
}

/**
 * The values run-time option lists take, from the tariff (server/tariffs): plan codes (cotizacion's PlanCardsWidget
 * reads /data/cotizacion/planes) and optional coverage codes (adicionales' CoverageTogglesWidget).
 */
export function tariffOptions(tariffFile = join(ROOT, 'server/tariffs/2026-11.json')): DynamicOptions {
  const t = JSON.parse(readFileSync(tariffFile, 'utf8')) as {
    planes: Record<string, unknown>;
    coberturas: Record<string, { lista: string }>;
  };
  return {
    '/data/cotizacion/planes': Object.keys(t.planes),
    '/data/planElegido/coberturas/optional': Object.entries(t.coberturas)
      .filter(([, c]) => c.lista === 'optional')
      .map(([cod]) => cod),
  };
}

/**
 * Reads and checks every file before anything starts (tools/replay/check.ts): a file that is not JSON, breaks the
 * format, or names a route, field or option the flow does not have becomes a failed run listing each problem as
 * `file#pointer: message`; the others are returned to run.
 */
export function loadFixtures(
  files: string[],
  product: Product = loadReplayProduct(ROOT),
  options: DynamicOptions = tariffOptions(),
): { journeys: { file: string; journey: Journey }[]; bad: FixtureRun[] } {
  const journeys: { file: string; journey: Journey }[] = [];
  const bad: FixtureRun[] = [];
  for (const file of files) {
    const rel = relative(process.cwd(), file);
    const shown = rel && !rel.startsWith('..') ? rel : file;
    let problems: FixtureProblem[];
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(file, 'utf8'));
      problems = checkJourney(data, product, options);
    } catch (err) {
      problems = [
        {
          pointer: '',
          message: (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no existe' : `no es JSON válido (${(err as Error).message})`,
        },
      ];
    }
    if (problems.length === 0) journeys.push({ file, journey: data as Journey });
    else {
      const problem = problems.map((p) => `${shown}#${p.pointer}: ${p.message}`).join('\n  ');
      bad.push({ file, name: basename(file, '.json'), ok: false, ms: 0, steps: 0, reports: [], problem, seen: [] });
    }
  }
  return { journeys, bad };
}

/** The failure line of a run: `paso 7 (seguro-hogar/cotizacion): plan INTERMEDIO: premio esperado …`. */
export function failureOf(run: FixtureRun): string | undefined {
  if (run.problem) return run.problem;
  const failed = run.reports.find((r) => !r.ok);
  if (failed) return `paso ${failed.index} (${failed.route}): ${failed.error}`;
  if (run.reports.length < run.steps) return `se detuvo en el paso ${run.reports.length} de ${run.steps}`;
  return undefined;
}

/**
 * The in-process API the headless replay runs against (server/src/app.ts › build): in-memory PGlite, fast emission,
 * no request or quote limits.
 * @param tariffFile another tariff file (default the shipped one)
 * @returns a ready app; the caller closes it
 */
export async function headlessApi(tariffFile?: string): Promise<FastifyInstance> {
  const { build } = await import('../server/src/app.ts');
  return build({
    tariffFile,
    emisionDelayMs: 50,
    emisionPollMs: 20,
    shutdownTimeoutMs: 200,
    rateLimitMax: 1_000_000,
    settings: { cotizacionesPorHoraPorIp: 1_000_000 },
  });
}

/**
 * Replays `journeys` headless against one in-process API ({@link headlessApi}), each fixture as a new visitor.
 * @param opts.tariffFile another tariff file; opts.update: pins record what was seen instead of failing;
 *   opts.app: an API from headlessApi to replay against (left open) instead of a new one (closed at the end)
 */
export async function runHeadless(
  journeys: { file: string; journey: Journey }[],
  product: Product,
  opts: { tariffFile?: string; update?: boolean; onRun?: (run: FixtureRun) => void; app?: FastifyInstance } = {},
): Promise<FixtureRun[]> {
  const app = opts.app ?? (await headlessApi(opts.tariffFile));
  const texts = loadProduct(ROOT).texts;
  const runs: FixtureRun[] = [];
  try {
    for (const { file, journey } of journeys) {
      const seen: SeenPins[] = [];
      const started = Date.now();
      const reports = await replayHeadless(journey, product, {
        request: visitor(app),
        texts,
        update: opts.update,
        onPins: (s) => seen.push(s),
      });
      const run: FixtureRun = { file, name: journey.name, ok: false, ms: Date.now() - started, steps: journey.steps.length, reports, seen };
      run.ok = !failureOf(run);
      runs.push(run);
      opts.onRun?.(run);
    }
  } finally {
    if (!opts.app) await app.close();
  }
  return runs;
}

/**
 * `--update`: rewrites each run's fixture file from the pins it saw.
 * @returns the diff lines, `fixture: paso N plan X premio: old → new`
 */
export function writeUpdates(runs: FixtureRun[]): string[] {
  const lines: string[] = [];
  for (const run of runs) {
    if (!run.seen.length) continue;
    const before = readFileSync(run.file, 'utf8');
    const { text, diff } = updatePins(before, run.seen);
    if (text !== before) writeFileSync(run.file, text);
    lines.push(...diff.map((d) => `${run.name}: ${d}`));
  }
  return lines;
}

/** The table that ends every run: fixture, result, steps reached, ms; then the failures, then the totals. */
export function summaryTable(runs: FixtureRun[], totalMs: number): string {
  const w = Math.max(8, ...runs.map((r) => r.name.length));
  const rows = runs.map((r) => {
    const reached = r.reports.filter((s) => s.ok).length;
    return `${r.name.padEnd(w)}  ${(r.ok ? 'verde' : r.problem ? 'inválido' : 'rojo').padEnd(8)}  ${`${reached}/${r.steps}`.padStart(7)}  ${String(r.ms).padStart(7)} ms`;
  });
  const failures = runs.filter((r) => !r.ok).map((r) => (r.problem ? `✗ ${r.problem}` : `✗ ${r.name}: ${failureOf(r)}`));
  const green = runs.filter((r) => r.ok).length;
  return [
    '',
    `${'recorrido'.padEnd(w)}  resultado   pasos     tiempo`,
    ...rows,
    ...(failures.length ? ['', ...failures] : []),
    '',
    `${green}/${runs.length} recorridos verdes — ${(totalMs / 1000).toFixed(1)} s en total`,
  ].join('\n');
}

const xml = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JUnit XML of a run (one testsuite, one testcase per fixture, times in seconds) for CI dashboards. */
export function junitReport(runs: FixtureRun[], totalMs: number): string {
  const failed = runs.filter((r) => !r.ok).length;
  const cases = runs.map((r) => {
    const head = `  <testcase classname="recorridos" name="${xml(r.name)}" file="${xml(r.file)}" time="${(r.ms / 1000).toFixed(3)}"`;
    if (r.ok) return `${head}/>`;
    const detail = [failureOf(r) ?? '', ...(r.artifacts ?? []).map((a) => `[[ATTACHMENT|${a}]]`)].join('\n');
    return `${head}>\n    <failure message="${xml(failureOf(r) ?? '')}">${xml(detail)}</failure>\n  </testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="replay" tests="${runs.length}" failures="${failed}" time="${(totalMs / 1000).toFixed(3)}">\n${cases.join('\n')}\n</testsuite>\n`;
}

/** The run as JSON: per fixture its result, time, failure and per-step reports; totals. */
export function jsonReport(runs: FixtureRun[], totalMs: number): string {
  return `${JSON.stringify(
    {
      total: runs.length,
      verdes: runs.filter((r) => r.ok).length,
      ms: totalMs,
      recorridos: runs.map((r) => ({
        nombre: r.name,
        archivo: r.file,
        ok: r.ok,
        ms: r.ms,
        pasos: r.steps,
        falla: failureOf(r),
        archivos: r.artifacts,
        informe: r.reports.map(({ text: _text, ...rest }) => rest),
      })),
    },
    null,
    2,
  )}\n`;
}

const LIMIT_HINT =
  'la API respondió el límite de cotizaciones por hora de esta dirección (COTIZACIONES_POR_HORA): pedí que la agreguen a COTIZACIONES_EXENTAS o esperá una hora (docs/testers.md › The quote limit)';
/** Whether a page's text shows the hourly quote limit message (src/i18n/es.json › servidor.limiteCotizaciones). */
function limitHit(text: string): boolean {
  const message = ((loadProduct(ROOT).texts as { servidor?: Record<string, string> }).servidor?.limiteCotizaciones ?? '').slice(0, 40);
  return message !== '' && text.includes(message);
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => ok(port));
    });
  });
}

/** Stops a child process and waits for it to exit. */
async function stopProcess(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await exited;
}

/**
 * Starts the built app + API on a free port and a throw-away embedded database. The API is stopped whatever happens:
 * if it does not answer in time, if the replay fails, on Ctrl-C / SIGTERM.
 * @returns its URL and a stop function
 */
async function startLocal(tariffFile?: string, fixedPort?: number): Promise<{ url: string; stop: () => Promise<void> }> {
  const staticDir = resolve(process.env.STATIC_DIR ?? join(ROOT, 'dist'));
  if (!existsSync(join(staticDir, 'index.html'))) {
    console.log('No hay build: corriendo npm run build…');
    const b = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('falló el build');
  }
  const port = fixedPort ?? (await freePort());
  const dataDir = mkdtempSync(join(tmpdir(), 'cotizador-replay-'));
  const proc = spawn(process.execPath, [join(ROOT, 'server/src/main.ts')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: staticDir,
      EMISSION_DELAY_MS: '300',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '100000',
      COTIZACIONES_POR_HORA: '100000',
      ...(tariffFile ? { TARIFF_FILE: resolve(tariffFile) } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await stopProcess(proc);
    rmSync(dataDir, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: deteniendo la API local…`);
    void stop().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const url = `http://127.0.0.1:${port}`;
  // a first start creates the embedded database: over 30 s on a loaded 2-core machine, so two minutes unless told
  const waitMs = Number(process.env.REPLAY_ARRANQUE_MS ?? 120_000);
  const deadline = Date.now() + waitMs;
  try {
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`el servidor terminó (código ${proc.exitCode})`);
      try {
        if ((await fetch(`${url}/api/health/live`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline)
        throw new Error(
          `la API local no respondió en ${waitMs / 1000} s (${url}/api/health/live): detenida (REPLAY_ARRANQUE_MS=milisegundos para esperar más)`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}

/** Command-line options; unknown `--x` options are an error (a typo must not run everything). */
export function parseArgs(args: string[]): {
  files: string[];
  baseUrl?: string;
  headless: boolean;
  headed: boolean;
  update: boolean;
  help: boolean;
  embudo: boolean;
  tariffFile?: string;
  reporter?: 'junit' | 'json';
  output?: string;
  port?: number;
} {
  const out = {
    files: [] as string[],
    baseUrl: undefined as string | undefined,
    headless: false,
    headed: false,
    update: false,
    help: false,
    embudo: false,
    tariffFile: undefined as string | undefined,
    reporter: undefined as 'junit' | 'json' | undefined,
    output: undefined as string | undefined,
    port: undefined as number | undefined,
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--help' || a === '-h') out.help = true;
    else if (a === '--headless') out.headless = true;
    else if (a === '--headed') out.headed = true;
    else if (a === '--update') out.update = true;
    else if (a === '--embudo') out.embudo = true;
    else if (a === '--base-url' || a === '--tarifa' || a === '--reporter' || a === '--output' || a === '--port') {
      const v = args[++i];
      if (!v || v.startsWith('--')) throw new Error(`${a} necesita un valor`);
      if (a === '--base-url') {
        if (!/^https?:\/\/[^/]/.test(v)) throw new Error(`--base-url: «${v}» no es una URL http(s)`);
        out.baseUrl = v;
      } else if (a === '--tarifa') out.tariffFile = v;
      else if (a === '--output') out.output = v;
      else if (a === '--port') {
        if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 65535) throw new Error(`--port: «${v}» no es un puerto`);
        out.port = Number(v);
      } else if (v === 'junit' || v === 'json') out.reporter = v;
      else throw new Error(`--reporter: «${v}» no es junit ni json`);
    } else if (a.startsWith('--')) throw new Error(`opción desconocida: ${a}`);
    else out.files.push(a);
  }
  return out;
}

interface BrowserOptions {
  baseUrl?: string;
  headed: boolean;
  update: boolean;
  tariffFile?: string;
  port?: number;
  embudo?: boolean;
  onRun: (run: FixtureRun) => void;
}

/**
 * Replays each journey in Chromium, one browser context each, against `baseUrl` or a local API started for the run
 * (stopped at the end). @returns one run per journey, in order
 */
async function runBrowser(journeys: { file: string; journey: Journey }[], product: Product, opts: BrowserOptions): Promise<FixtureRun[]> {
  const { chromium } = await import('@playwright/test');
  const local = opts.baseUrl ? undefined : await startLocal(opts.tariffFile, opts.port);
  const runs: FixtureRun[] = [];
  try {
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: !opts.headed,
      args: CHROMIUM_ARGS,
    });
    try {
      for (const { file, journey } of journeys) {
        const run = await runInContext(browser, { file, journey }, product, { ...opts, baseUrl: opts.baseUrl ?? local!.url });
        runs.push(run);
        opts.onRun(run);
      }
    } finally {
      await browser.close();
    }
  } finally {
    await local?.stop();
  }
  return runs;
}

/**
 * One journey in a fresh context (phone viewport unless the journey says, es-AR, Buenos Aires time), traced; each step
 * printed as it ends. A failed journey keeps a screenshot and the trace (see saveFailure).
 */
async function runInContext(
  browser: Browser,
  { file, journey }: { file: string; journey: Journey },
  product: Product,
  opts: BrowserOptions & { baseUrl: string },
): Promise<FixtureRun> {
  const { replayInBrowser } = await import('../tools/replay/browser.ts');
  console.log(`\n▶ ${journey.name} — ${journey.proves}`);
  const context = await browser.newContext({
    viewport: journey.viewport ?? { width: 390, height: 844 },
    locale: 'es-AR',
    timezoneId: 'America/Argentina/Buenos_Aires',
  });
  await context.tracing.start({ screenshots: true, snapshots: true });
  const page = await context.newPage();
  const seen: SeenPins[] = [];
  const started = Date.now();
  const reports = await replayInBrowser(page, journey, product, {
    baseUrl: opts.baseUrl,
    update: opts.update,
    keepFunnel: opts.embudo,
    onPins: (s) => seen.push(s),
    onStep: (r) =>
      console.log(
        `  ${r.ok ? '✓' : '✗'} ${String(r.index).padStart(2)} ${r.route.padEnd(42)} ${String(r.ms).padStart(6)} ms${r.ok ? '' : `  ${r.error}`}`,
      ),
  });
  const run: FixtureRun = { file, name: journey.name, ok: false, ms: Date.now() - started, steps: journey.steps.length, reports, seen };
  run.ok = !failureOf(run);
  if (!run.ok) run.artifacts = await saveFailure(page, context, journey.name, reports);
  else await context.tracing.stop();
  await context.close();
  return run;
}

/**
 * Keeps a failed journey's evidence under test-results/replay/: a full-page screenshot and the trace, named after the
 * journey and the failed step, and prints where they are with the page's visible text.
 * @returns the paths of the screenshot and the trace
 */
async function saveFailure(page: Page, context: BrowserContext, name: string, reports: StepReport[]): Promise<string[]> {
  const failed = reports.find((r) => !r.ok);
  const outDir = join(ROOT, 'test-results/replay');
  mkdirSync(outDir, { recursive: true });
  const stem = join(outDir, `${name}-paso-${failed?.index ?? reports.length}`);
  const shot = `${stem}.png`;
  await page.screenshot({ path: shot, fullPage: true });
  await context.tracing.stop({ path: `${stem}-trace.zip` });
  if (limitHit(failed?.text ?? '')) console.log(`  ⚠ ${LIMIT_HINT}`);
  console.log(
    `  captura: ${relative(process.cwd(), shot)}\n  traza: ${relative(process.cwd(), stem)}-trace.zip (npx playwright show-trace)\n  texto visible:\n${(
      failed?.text ?? ''
    )
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n')}`,
  );
  return [shot, `${stem}-trace.zip`];
}

async function main(): Promise<number> {
  usarPlantillaDeHerramientas();
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const started = Date.now();
  const dir = join(ROOT, 'tests/fixtures/journeys');
  const files = args.files.length
    ? args.files.map((f) => resolve(f))
    : readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => join(dir, f));
  const product = loadReplayProduct(ROOT);
  const { journeys, bad } = loadFixtures(files, product, tariffOptions(args.tariffFile && resolve(args.tariffFile)));
  for (const b of bad) console.log(`✗ ${b.problem}`);
  const onRun = (run: FixtureRun) => {
    if (args.headless) console.log(`${run.ok ? '✓' : '✗'} ${run.name} (${run.ms} ms)${run.ok ? '' : `  ${failureOf(run)}`}`);
  };
  const runs =
    journeys.length === 0
      ? []
      : args.headless
        ? await runHeadless(journeys, product, { tariffFile: args.tariffFile, update: args.update, onRun })
        : await runBrowser(journeys, product, {
            baseUrl: args.baseUrl,
            headed: args.headed,
            update: args.update,
            tariffFile: args.tariffFile,
            port: args.port,
            embudo: args.embudo,
            onRun,
          });
  if (args.update) {
    const diff = writeUpdates(runs);
    console.log(diff.length ? `\nMontos fijados actualizados:\n${diff.map((d) => `  ${d}`).join('\n')}` : '\nMontos fijados: sin cambios');
  }
  const all = [...bad, ...runs].sort((a, b) => files.indexOf(a.file) - files.indexOf(b.file));
  const totalMs = Date.now() - started;
  console.log(summaryTable(all, totalMs));
  if (args.reporter) {
    const out = resolve(args.output ?? join(ROOT, 'test-results/replay', args.reporter === 'junit' ? 'junit.xml' : 'report.json'));
    mkdirSync(resolve(out, '..'), { recursive: true });
    writeFileSync(out, args.reporter === 'junit' ? junitReport(all, totalMs) : jsonReport(all, totalMs));
    console.log(`informe ${args.reporter}: ${relative(process.cwd(), out)}`);
  }
  return all.every((r) => r.ok) ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
