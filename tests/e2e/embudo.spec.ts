/**
 * The staff's funnel end to end (issue 7): a visitor in Chromium → batches to the real API → its database → the
 * `npm run report:funnel` counts. The page clock is paused, so batches leave only when the test lets the 2 s timer run
 * or when the page goes away (fetch keepalive). A browser driven by Playwright is automation (navigator.webdriver):
 * its batches are marked `sintetico`, so the report leaves this journey out unless --incluir-sinteticos.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Request } from '@playwright/test';
import { startServer, type ServerProcess } from '../../server/test/processes.ts';
import { continuar } from './journey';

type Batch = { versionFlujo: number; sintetico?: boolean; eventos: { recorrido: string; paso: string; tipo: string; en: string }[] };
const isFunnel = (r: Request) => r.method() === 'POST' && r.url().endsWith('/api/embudo/eventos');
const PORT = Number(process.env.E2E_PORT ?? 3199) + 9;

test('los pasos mostrados y enviados llegan en lotes, sin nada de lo escrito, el último al irse, y el informe los cuenta', async ({ page }, info) => {
  test.skip(info.project.name !== 'mobile', 'el embudo no depende del tamaño de pantalla: una vez alcanza');
  test.setTimeout(300_000); // its own API, a journey and two report runs: a minute idle, several under load
  const dataDir = mkdtempSync(join(tmpdir(), 'cotizador-embudo-e2e-'));
  let server: ServerProcess | undefined;
  try {
    // info: the API logs each request it receives, which tells the test when the last batch has arrived
    server = await startServer(PORT, { STATIC_DIR: resolve('dist'), DATA_DIR: dataDir, NODE_ENV: 'test', LOG_LEVEL: 'info' });
    const seen: Batch[] = [];
    page.on('request', (r) => {
      if (isFunnel(r)) seen.push(r.postDataJSON() as Batch);
    });
    await page.clock.install();
    await page.goto(`${server.url}/seguro-hogar`);
    await page.getByRole('button', { name: 'Cotizar ahora' }).click();
    await expect(page).toHaveURL(/\/seguro-hogar\/propiedad/);
    expect(seen).toEqual([]); // nothing leaves per event
    const first = page.waitForResponse((r) => isFunnel(r.request()));
    await page.clock.runFor(2_000); // batchMs
    expect((await first).status()).toBe(200);
    expect(seen.map((b) => b.eventos.map((e) => `${e.tipo} ${e.paso}`))).toEqual([['mostrado inicio', 'enviado inicio', 'mostrado propiedad']]);
    for (const e of seen[0].eventos) expect(Object.keys(e).sort()).toEqual(['en', 'paso', 'recorrido', 'tipo']);
    expect(seen[0].sintetico).toBe(true); // a test, not a visitor

    await page.getByLabel(/^Casa/).check();
    await page.getByLabel('No', { exact: true }).check();
    await continuar(page);
    await expect(page).toHaveURL(/\/seguro-hogar\/permanencia/);
    await page.goto('about:blank'); // the visitor leaves before the next tick: the queue goes out with keepalive
    // the second batch has reached the API (however long that takes on a busy machine); stopping drains its answer
    const batches = (out: string) => out.split('\n').filter((l) => l.includes('incoming request') && l.includes('/api/embudo/eventos')).length;
    await server.outputUntil((out) => batches(out) >= 2);
    expect(await server.stop()).toBe(0); // drains, closes the embedded database for the report
    server = undefined;

    const run = (...args: string[]) => JSON.parse(execFileSync(process.execPath, ['scripts/report-funnel.ts', '--json', '--html', join(dataDir, 'embudo.html'), ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    })) as { recorridos: number; sinteticosExcluidos: number; pasos: { paso: string; mostrados: number; completados: number; abandonos: number }[] };
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
});

test('si el registro del embudo falla, el visitante sigue cotizando sin enterarse', async ({ page }) => {
  await page.route('**/api/embudo/eventos', (route) => route.fulfill({ status: 503, json: { status: 503, code: 'SERVICIO_NO_DISPONIBLE', message: 'No disponible.' } }));
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
