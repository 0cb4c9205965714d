/**
 * The staff's funnel end to end: a visitor in Chromium → batches to the real API → its database → the
 * `npm run report:funnel` counts. The page clock is paused from the first script on, so batches leave only when the
 * test lets the 2 s timer run or when the page goes away (fetch keepalive). A browser driven by Playwright is
 * automation (navigator.webdriver): its batches are marked `sintetico`, so the report leaves this journey out unless
 * --incluir-sinteticos. The same holds for the testers' replays sent to a deployment (`npm run replay -- --embudo`):
 * mixed with real visitors' batches, only the real ones are counted, card/CBU split included.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Request } from '@playwright/test';
import flowJson from '../../flow/flow.json' with { type: 'json' };
import { NODE_DE_PRUEBA, startServer, Visitante, type ServerProcess } from '../../server/test/processes.ts';
import { startOwnApi } from '../support/own-api.ts';
import { continuar, UNA_PANTALLA } from './journey';

type Batch = { versionFlujo: number; sintetico?: boolean; eventos: { recorrido: string; paso: string; tipo: string; en: string }[] };
const isFunnel = (r: Request) => r.method() === 'POST' && r.url().endsWith('/api/embudo/eventos');

/** `npm run report:funnel -- --json --html <dataDir>/embudo.html …args` over the stopped API's `dataDir`: its JSON. */
function informe<T>(dataDir: string, ...args: string[]): T {
  const out = execFileSync(
    process.execPath,
    [...NODE_DE_PRUEBA, 'scripts/report-funnel.ts', '--json', '--html', join(dataDir, 'embudo.html'), ...args],
    { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, encoding: 'utf8' },
  );
  return JSON.parse(out) as T;
}

test(
  'los pasos mostrados y enviados llegan en lotes, sin nada de lo escrito, el último al irse, y el informe los cuenta',
  UNA_PANTALLA,
  async ({ page }) => {
    test.setTimeout(300_000); // its own API, a journey and two report runs: a minute idle, several under load
    const dataDir = mkdtempSync(join(tmpdir(), 'cotizador-embudo-e2e-'));
    let server: ServerProcess | undefined;
    try {
      // info: the API logs each request it receives, which tells the test when the last batch has arrived
      server = await startServer(0, { STATIC_DIR: resolve('dist'), DATA_DIR: dataDir, NODE_ENV: 'test', LOG_LEVEL: 'info' });
      const seen: Batch[] = [];
      page.on('request', (r) => {
        if (isFunnel(r)) seen.push(r.postDataJSON() as Batch);
      });
      // the page's clock is paused from its first script on, so the funnel's timer (batchMs, started with the app)
      // fires only when the test runs it, however slow the machine is
      // (paused a minute ahead of install: the clock runs between the two calls, and pausing in its past throws)
      const t0 = Date.now();
      await page.clock.install({ time: t0 });
      await page.clock.pauseAt(t0 + 60_000);
      await page.goto(`${server.url}/seguro-hogar`);
      await page.clock.runFor(1_000); // start-up's idle callback and timers, short of one batchMs (2 s)
      await page.getByRole('button', { name: 'Cotizar ahora' }).click();
      await expect(page).toHaveURL(/\/seguro-hogar\/propiedad/);
      expect(seen).toEqual([]); // nothing leaves per event
      const first = page.waitForResponse((r) => isFunnel(r.request()), { timeout: 60_000 });
      // one batchMs: the timer, started with the app at some point of the first second, fires once
      await page.clock.runFor(flowJson.funnel.batchMs);
      expect((await first).status()).toBe(200);
      expect(seen.map((b) => b.eventos.map((e) => `${e.tipo} ${e.paso}`))).toEqual([
        ['mostrado inicio', 'enviado inicio', 'mostrado propiedad'],
      ]);
      for (const e of seen[0].eventos) expect(Object.keys(e).sort()).toEqual(['en', 'paso', 'recorrido', 'tipo']);
      expect(seen[0].sintetico).toBe(true); // a test, not a visitor

      await page.getByLabel(/^Casa/).check();
      await page.getByLabel('No', { exact: true }).check();
      await continuar(page);
      await expect(page).toHaveURL(/\/seguro-hogar\/permanencia/);
      // the visitor reads the question, then leaves before the next tick: the queue goes out with keepalive.
      // Leaving only once the step is drawn: Chromium gives up on a page whose pagehide starts seconds after the
      // navigation (here a pagehide held ~3 s by a busy main thread lost its batch one time in two, ~2 s never),
      // and a step still rendering on a loaded CI run is the likely holder when no batch arrived in 60 s (stop 37's red run)
      await expect(page.getByLabel('Sí, es mi vivienda permanente')).toBeVisible();
      await page.goto('about:blank');
      // the second batch has reached the API (however long that takes on a busy machine); stopping drains its answer
      const batches = (out: string) =>
        out.split('\n').filter((l) => l.includes('incoming request') && l.includes('/api/embudo/eventos')).length;
      await server.outputUntil((out) => batches(out) >= 2);
      expect(await server.stop()).toBe(0); // drains, closes the embedded database for the report
      server = undefined;

      const run = (...args: string[]) =>
        informe<{
          recorridos: number;
          sinteticosExcluidos: number;
          pasos: { paso: string; mostrados: number; completados: number; abandonos: number }[];
        }>(dataDir, ...args);
      expect(run()).toMatchObject({ recorridos: 0, sinteticosExcluidos: 1 });
      const report = run('--incluir-sinteticos');
      expect(report.recorridos).toBe(1);
      expect(report.pasos.slice(0, 4).map((p) => [p.paso, p.mostrados, p.completados, p.abandonos])).toEqual([
        ['inicio', 1, 1, 0],
        ['propiedad', 1, 1, 0],
        ['permanencia', 1, 0, 1], // arrived only through the keepalive sent while leaving
        ['metros', 0, 0, 0],
      ]);
    } finally {
      await server?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
);

test('si el registro del embudo falla, el visitante sigue cotizando sin enterarse', async ({ page }) => {
  await page.route('**/api/embudo/eventos', (route) =>
    route.fulfill({ status: 503, json: { status: 503, code: 'SERVICIO_NO_DISPONIBLE', message: 'No disponible.' } }),
  );
  const failed = page.waitForResponse((r) => isFunnel(r.request()));
  await page.goto('/seguro-hogar');
  await page.getByRole('button', { name: 'Cotizar ahora' }).click();
  await expect(page).toHaveURL(/\/seguro-hogar\/propiedad/);
  expect((await failed).status()).toBe(503);
  await page.getByLabel(/^Casa/).check();
  await page.getByLabel('No', { exact: true }).check();
  await continuar(page);
  await expect(page).toHaveURL(/\/seguro-hogar\/permanencia/);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test(
  'el informe del embudo de una base llenada por reproducciones (npm run replay -- --embudo) y recorridos reales cuenta solo los reales, con la división tarjeta/CBU',
  UNA_PANTALLA,
  async () => {
    test.setTimeout(480_000);
    const dataDir = mkdtempSync(join(tmpdir(), 'cotizador-embudo-replay-'));
    let server: ServerProcess | undefined;
    try {
      server = await startOwnApi(dataDir);

      // 3 real visitors, as their browsers send the batches (no `sintetico`): two pay by card, one by CBU
      const steps = flowJson.steps.map((st) => st.id);
      const real = (rama: 'TC' | 'CBU') => {
        const before = steps.slice(0, steps.indexOf('metodo-de-pago')).flatMap((p) => [
          ['mostrado', p],
          ['enviado', p],
        ]);
        return [...before, ['mostrado', 'metodo-de-pago'], ['enviado', 'metodo-de-pago', rama], ['mostrado', 'confirmacion']];
      };
      for (const rama of ['TC', 'TC', 'CBU'] as const) {
        const recorrido = randomUUID();
        const t0 = Date.now();
        const eventos = real(rama).map(([tipo, paso, r], i) => ({
          recorrido,
          paso,
          tipo,
          en: new Date(t0 + i).toISOString(),
          ...(r ? { rama: r } : {}),
        }));
        const res = await new Visitante().post(server.url, '/api/embudo/eventos', { versionFlujo: flowJson.version, eventos });
        expect(res.status).toBe(200);
      }

      // 2 replays against the same deployment, sending their funnel batches: one pays by card, one by CBU
      const replay = await new Promise<{ code: number; out: string }>((ok) => {
        execFile(
          process.execPath,
          [
            'scripts/replay.ts',
            '--embudo',
            '--base-url',
            server!.url,
            'tests/fixtures/journeys/compra-tarjeta-casa.json',
            'tests/fixtures/journeys/compra-cbu-ph.json',
          ],
          { maxBuffer: 20_000_000 },
          (err, stdout, stderr) => ok({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout + stderr }),
        );
      });
      expect(replay.out).toContain('2/2 recorridos verdes');
      expect(replay.code, replay.out).toBe(0);
      expect(await server.stop()).toBe(0); // drains, closes the embedded database for the report
      server = undefined;

      type Report = {
        recorridos: number;
        sinteticosExcluidos: number;
        aristas: { desde: string; hasta: string; rama?: string; recorridos: number }[];
      };
      const report = (...args: string[]) => informe<Report>(dataDir, ...args);
      const split = (r: Report) =>
        Object.fromEntries(r.aristas.filter((a) => a.desde === 'metodo-de-pago' && a.rama).map((a) => [a.rama, a.recorridos]));
      const only = report();
      expect([only.recorridos, only.sinteticosExcluidos]).toEqual([3, 2]);
      expect(split(only)).toEqual({ TC: 2, CBU: 1 });
      const all = report('--incluir-sinteticos');
      expect([all.recorridos, all.sinteticosExcluidos]).toEqual([5, 0]);
      expect(split(all)).toEqual({ TC: 3, CBU: 2 });
    } finally {
      await server?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
);
