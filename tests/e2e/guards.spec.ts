/** Guards, reloads and validation as a visitor meets them (SPEC §2, §4). */
import { expect, test } from '@playwright/test';
import { continuar, quoteAHome, shot, UNA_PANTALLA } from './journey';
import { trackRequests } from '../../tools/replay/settle.ts';

test('una ruta protegida abierta en frío vuelve al paso 1 con la query', UNA_PANTALLA, async ({ page }) => {
  await page.goto('/seguro-hogar/metodo-de-pago?gclid=abc123&utm_campaign=otono');
  await expect(page).toHaveURL(/\/seguro-hogar\?gclid=abc123&utm_campaign=otono$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Asegurá tu hogar en minutos');
});

test('una ruta desconocida y la raíz con query van al paso 1', UNA_PANTALLA, async ({ page }) => {
  await page.goto('/cualquier/cosa');
  await expect(page).toHaveURL(/\/seguro-hogar$/);
  await page.goto('/?fbclid=xyz');
  await expect(page).toHaveURL(/\/seguro-hogar\?fbclid=xyz$/);
});

test('a mitad del recorrido, una ruta más adelante redirige al paso actual', UNA_PANTALLA, async ({ page }) => {
  await page.goto('/seguro-hogar');
  await page.getByRole('button', { name: 'Cotizar ahora' }).click();
  await page.getByLabel('Departamento').check();
  await continuar(page);
  await expect(page).toHaveURL(/\/seguro-hogar\/permanencia$/);
  await page.goto('/seguro-hogar/cotizacion?utm_campaign=x');
  await expect(page).toHaveURL(/\/seguro-hogar\/permanencia\?utm_campaign=x$/);
});

test('recargar a mitad del recorrido retoma el mismo paso con lo elegido', UNA_PANTALLA, async ({ page }, info) => {
  await quoteAHome(page, info);
  await page.reload();
  await expect(page).toHaveURL(/\/seguro-hogar\/cotizacion$/);
  await expect(page.locator('.plan')).toHaveCount(3);
  await page.getByRole('button', { name: 'Volver' }).click();
  await expect(page).toHaveURL(/\/seguro-hogar\/vigencia$/);
  await expect(page.getByLabel('Inicio de la cobertura')).not.toHaveValue('');
});

test('el botón atrás del navegador vuelve al paso anterior', UNA_PANTALLA, async ({ page }) => {
  await page.goto('/seguro-hogar');
  await page.getByRole('button', { name: 'Cotizar ahora' }).click();
  await page.getByLabel('PH').check();
  await continuar(page);
  await expect(page).toHaveURL(/\/permanencia$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/propiedad$/);
  await expect(page.getByLabel('PH')).toBeChecked();
});

test('errores claros en español y lo escrito no se pierde', async ({ page }, info) => {
  trackRequests(page);
  await page.goto('/seguro-hogar');
  await page.getByRole('button', { name: 'Cotizar ahora' }).click();
  await continuar(page);
  await expect(page.getByRole('alert')).toContainText('Revisá los datos marcados para continuar.');
  await expect(page.getByText('Este dato es obligatorio.').first()).toBeVisible();
  await page.getByLabel(/^Casa/).check();
  await page.getByLabel('Sí', { exact: true }).check();
  await continuar(page);
  await page.getByLabel('Sí, es mi vivienda permanente').check();
  await page.getByLabel('Alquilo').check();
  await continuar(page);
  await page.getByLabel('Superficie cubierta').fill('5');
  await continuar(page);
  await expect(page.getByText('La superficie mínima es de 20 m².').first()).toBeVisible();
  await page.getByLabel('Superficie cubierta').fill('60');
  await continuar(page);
  await page.getByLabel('Localidad').fill('Córdoba');
  await expect(page.getByText('Elegiste Córdoba, Córdoba.')).toBeVisible(); // a name typed exactly is that locality
  await continuar(page);
  await page.getByLabel('E-mail').fill('ana@example.com');
  await page.getByLabel('Celular').fill('999 555-5123');
  await continuar(page);
  await expect(page.getByText(/código de área/i).first()).toBeVisible();
  await expect(page).toHaveURL(/\/contacto$/);
  await expect(page.getByLabel('E-mail')).toHaveValue('ana@example.com');
  await shot(page, info, '06-contacto-error');
});
