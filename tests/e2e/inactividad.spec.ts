/** SPEC §4: 10 minutes without activity end the session; campaign keys are removed in every case. */
import { expect, test } from '@playwright/test';
import { continuar, UNA_PANTALLA } from './journey';

test('10 minutos sin actividad vuelven al paso 1 y borran la cotización y la campaña', UNA_PANTALLA, async ({ page }) => {
  await page.clock.install();
  await page.goto('/?utm_campaign=invierno');
  await page.getByRole('button', { name: 'Cotizar ahora' }).click();
  await page.getByLabel('Departamento').check();
  await continuar(page);
  await expect(page).toHaveURL(/\/permanencia\?utm_campaign=invierno$/);
  expect(await page.evaluate(() => localStorage.getItem('cotizador-hogar:campania'))).not.toBeNull();

  await page.clock.fastForward('09:30');
  await expect(page).toHaveURL(/\/permanencia/);
  await page.getByLabel('Alquilo').check(); // activity restarts the 10 minutes
  await page.clock.fastForward('09:30');
  await expect(page).toHaveURL(/\/permanencia/);

  await page.clock.fastForward('00:31');
  await expect(page).toHaveURL(/\/seguro-hogar(\?|$)/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Asegurá tu hogar en minutos');
  const stored = await page.evaluate(() => ({
    campaign: localStorage.getItem('cotizador-hogar:campania'),
    state: JSON.parse(localStorage.getItem('cotizador-hogar:estado:v1') ?? '{}'),
  }));
  expect(stored.campaign).toBeNull();
  expect(stored.state.answers).toEqual({});
  await page.goto('/seguro-hogar/permanencia');
  await expect(page).toHaveURL(/\/seguro-hogar$/);
});
