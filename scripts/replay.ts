/**
 * `npm run replay [fixture…] [--base-url URL] [--headed]` — replays journey fixtures (default: every file in
 * tests/fixtures/journeys) in Debian's Chromium and prints a per-step report (pass/fail, ms). On a failure: a
 * screenshot under test-results/replay/ and the step's visible text; exit code 1.
 * Without --base-url it builds the app if dist/ is missing and starts it with the API on a throw-away embedded
 * database on a free port; with --base-url it replays against that deployment (any server honouring the contract).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { compileFlowNode } from '../src/check/conditions.ts';
import type { FlowDef } from '../src/engine/core/types.ts';
import { replayInBrowser, type Product } from '../src/testing/browser.ts';
import { loadJourney } from '../src/testing/fixture.ts';
import { loadProduct } from './flow-check.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');

/** The flow (compiled), step schemas and ui schemas under `root`, as the replay addresses them. */
export function loadReplayProduct(root: string): Product {
  const files = loadProduct(root);
  return { flow: compileFlowNode(files.flow as FlowDef), schemas: files.schemas, ui: files.ui, migrations: Object.values(files.migrations ?? {}) } as unknown as Product;
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

/** Starts the built app + API on a free port and a throw-away embedded database. @returns its URL and a stop function */
async function startLocal(): Promise<{ url: string; stop: () => Promise<void> }> {
  if (!existsSync(join(ROOT, 'dist/index.html'))) {
    console.log('No hay build: corriendo npm run build…');
    const b = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('falló el build');
  }
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'cotizador-replay-'));
  const proc = spawn(process.execPath, [join(ROOT, 'server/src/main.ts')], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, STATIC_DIR: join(ROOT, 'dist'), EMISSION_DELAY_MS: '300', LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000', COTIZACIONES_POR_HORA: '100000' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`el servidor terminó (código ${proc.exitCode})`);
    try {
      if ((await fetch(`${url}/api/health/live`)).ok) break;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error('el servidor no respondió en 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: async () => {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const headed = args.includes('--headed');
  const at = args.indexOf('--base-url');
  const baseUrl = at >= 0 ? args[at + 1] : undefined;
  const named = args.filter((a, i) => !a.startsWith('--') && !(at >= 0 && i === at + 1));
  const dir = join(ROOT, 'tests/fixtures/journeys');
  const files = named.length ? named.map((f) => resolve(f)) : readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f));
  const product = loadReplayProduct(ROOT);
  const local = baseUrl ? undefined : await startLocal();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: !headed, args: ['--no-sandbox', '--disable-gpu'] });
  let failures = 0;
  try {
    for (const file of files) {
      const journey = loadJourney(file);
      console.log(`\n▶ ${journey.name} — ${journey.proves}`);
      const context = await browser.newContext({ viewport: journey.viewport ?? { width: 390, height: 844 }, locale: 'es-AR', timezoneId: 'America/Argentina/Buenos_Aires' });
      const page = await context.newPage();
      const reports = await replayInBrowser(page, journey, product, {
        baseUrl: baseUrl ?? local!.url,
        onStep: (r) => console.log(`  ${r.ok ? '✓' : '✗'} ${String(r.index).padStart(2)} ${r.route.padEnd(42)} ${String(r.ms).padStart(6)} ms${r.ok ? '' : `  ${r.error}`}`),
      });
      const failed = reports.find((r) => !r.ok);
      if (failed || reports.length < journey.steps.length) {
        failures++;
        const outDir = join(ROOT, 'test-results/replay');
        mkdirSync(outDir, { recursive: true });
        const shot = join(outDir, `${journey.name}-paso-${failed?.index ?? reports.length}.png`);
        await page.screenshot({ path: shot, fullPage: true });
        console.log(`  captura: ${shot}\n  texto visible:\n${(failed?.text ?? '').split('\n').map((l) => `    ${l}`).join('\n')}`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await local?.stop();
  }
  console.log(`\n${files.length - failures}/${files.length} recorridos verdes`);
  return failures ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then((code) => process.exit(code), (err) => {
    console.error(err);
    process.exit(1);
  });
}
