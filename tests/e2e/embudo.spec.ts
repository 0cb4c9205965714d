/** The staff's funnel in a real browser (issue 7): batches arrive, nothing typed leaves, the last one survives leaving the page. */
import { expect, test, type Request } from '@playwright/test';
import { continuar } from './journey';

type Batch = { versionFlujo: number; eventos: { recorrido: string; paso: string; tipo: string; en: string }[] };
const isFunnel = (r: Request) => r.method() === 'POST' && r.url().endsWith('/api/embudo/eventos');

test('cada paso mostrado y enviado llega al servidor en lotes, sin nada de lo que se escribió', async ({ page, context }) => {
  const batches: Batch[] = [];
  context.on('request', (r) => {
    if (isFunnel(r)) batches.push(r.postDataJSON() as Batch);
  });
  await page.goto('/seguro-hogar');
  const first = page.waitForResponse((r) => isFunnel(r.request()));
  await page.getByRole('button', { name: 'Cotizar ahora' }).click();
  await expect(page).toHaveURL(/\/seguro-hogar\/propiedad/);
  const reply = await first; // within batchMs (2 s), not one request per event
  expect(reply.status()).toBe(200);
  expect(batches[0].eventos.map((e) => `${e.tipo} ${e.paso}`)).toEqual(['mostrado inicio', 'enviado inicio', 'mostrado propiedad']);

  await page.getByLabel(/^Casa/).check();
  await page.getByLabel('No', { exact: true }).check();
  await continuar(page);
  await expect(page).toHaveURL(/\/seguro-hogar\/permanencia/);
  // leaving right away: the queued events go out with keepalive as the page is hidden
  await page.goto('about:blank');
  await expect.poll(() => batches.flatMap((b) => b.eventos).map((e) => `${e.tipo} ${e.paso}`)).toEqual([
    'mostrado inicio', 'enviado inicio', 'mostrado propiedad', 'enviado propiedad', 'mostrado permanencia',
  ]);
  const all = batches.flatMap((b) => b.eventos);
  expect(new Set(all.map((e) => e.recorrido)).size).toBe(1);
  for (const e of all) expect(Object.keys(e).sort()).toEqual(['en', 'paso', 'recorrido', 'tipo']);
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
