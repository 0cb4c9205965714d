/**
 * The staff preview (docs/flow-format.md › Vista previa) on the production build: the e2e server has VISTA_PREVIA=1.
 * Every step of the shipped flow opens from it with no console error, its heading shown and the checker's verdict in
 * the preview bar; a server without the setting sends the path to step 1 and the preview's chunk is never fetched.
 */
import { expect, test } from '@playwright/test';
import flow from '../../flow/flow.json' with { type: 'json' };
import { UNA_PANTALLA } from './journey';

test('la vista previa abre cada paso del flujo, sin errores en la consola', UNA_PANTALLA, async ({ page }, info) => {
  test.setTimeout(300_000);
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  for (const step of flow.steps) {
    await page.goto('/seguro-hogar/__vista-previa');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Vista previa del flujo (v${flow.version})`);
    await page.getByRole('button', { name: `Abrir ${step.id}`, exact: true }).click();
    const bar = page.getByRole('complementary', { name: 'Vista previa: problemas del paso' });
    await expect(bar).toContainText(`paso ${step.id}`, { timeout: 60_000 });
    await expect(bar).toContainText('Sin problemas');
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toBeVisible();
    await expect(heading).not.toHaveText(/Vista previa/);
    await page.screenshot({ path: `tests/e2e/screenshots/${info.project.name}/vista-previa-${step.id}.png`, fullPage: true });
  }
  expect(errors).toEqual([]);
});

test(
  'la vista previa reúne las respuestas de ejemplo: la cotización muestra los planes que tarifa la API',
  UNA_PANTALLA,
  async ({ page }) => {
    await page.goto('/seguro-hogar/__vista-previa');
    await page.getByRole('button', { name: 'Abrir cotizacion', exact: true }).click();
    await expect(page).toHaveURL(/\/seguro-hogar\/cotizacion$/, { timeout: 60_000 });
    // the plans the API priced for the sample answers, each with its monthly amount
    await expect(page.getByRole('radio', { name: /^Básico .*por mes/ })).toBeVisible();
    await expect(page.getByRole('radio')).toHaveCount(3);
    // the thank-you page is past the purchase: opened with sample answers, and the bar says why
    await page.goto('/seguro-hogar/__vista-previa');
    await page.getByRole('button', { name: 'Abrir gracias', exact: true }).click();
    await expect(page.getByRole('complementary', { name: 'Vista previa: problemas del paso' })).toContainText(
      'se detuvo antes de enviar "confirmacion" (sus llamadas mueven dinero)',
      { timeout: 60_000 },
    );
  },
);

test('sin VISTA_PREVIA en el servidor, la ruta va al paso 1 y el chunk de la vista previa no se descarga', async ({ page }) => {
  await page.route('**/api/vista-previa', (route) => route.fulfill({ json: { habilitada: false } }));
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(r.url()));
  await page.goto('/seguro-hogar/__vista-previa');
  await expect(page).toHaveURL(/\/seguro-hogar$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Asegurá tu hogar en minutos');
  expect(fetched.filter((u) => /\/assets\/Preview-/.test(u))).toEqual([]);
});
