/** Chat flag, campaign click log and zone re-pricing, as a visitor (and the insurer) would notice them. */
import { expect, test } from '@playwright/test';
import { continuar, fillPersonalData, quoteAHome, shot, UNA_PANTALLA } from './journey';
import { trackRequests } from '../../tools/replay/settle.ts';

test('el chat de WhatsApp aparece solo cuando el servidor lo habilita', UNA_PANTALLA, async ({ page }) => {
  await page.goto('/seguro-hogar');
  await expect(page.getByTestId('chat')).toHaveAttribute('href', /^https:\/\/wa\.me\/\d+\?text=/);

  const other = await page.context().newPage();
  await other.route('**/api/chat/habilitar', (route) => route.fulfill({ json: { p_estado: 'D', telefono: '5491100000000' } }));
  await other.evaluate(() => localStorage.clear()).catch(() => undefined);
  await other.goto('/seguro-hogar');
  await other.evaluate(() => localStorage.clear());
  await other.reload();
  await expect(other.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(other.getByTestId('chat')).toHaveCount(0);
});

test('el botón de chat nunca tapa el bloque de la SSN ni el pie, en ninguna posición del scroll', async ({ page }, info) => {
  trackRequests(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Servicio de Atención al Asegurado' })).toBeVisible();
  await expect(page.getByTestId('chat')).toBeVisible();
  const covered = await page.evaluate(async () => {
    const chat = document.querySelector('[data-testid=chat]') as HTMLElement;
    const blocks = [...document.querySelectorAll('.ssn, .footer p, .footer a')];
    const out: string[] = [];
    for (let y = 0; y <= document.documentElement.scrollHeight; y += 20) {
      window.scrollTo(0, y);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const c = chat.getBoundingClientRect();
      for (const b of blocks) {
        const r = b.getBoundingClientRect();
        if (Math.min(c.right, r.right) > Math.max(c.left, r.left) && Math.min(c.bottom, r.bottom) > Math.max(c.top, r.top))
          out.push(`${y}px: ${b.className || b.tagName}`);
      }
    }
    return out;
  });
  expect(covered).toEqual([]);
  await shot(page, info, 'inicio-fondo-chat');
});

test('el clic de campaña se registra una sola vez en 10 minutos', UNA_PANTALLA, async ({ page }) => {
  const logs: Record<string, unknown>[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/logs/insertar-log-ok') && r.method() === 'POST') logs.push(r.postDataJSON());
  });
  const logged = page.waitForResponse((r) => r.url().endsWith('/api/logs/insertar-log-ok'));
  await page.goto('/?gclid=g-123&utm_campaign=hogar-primavera');
  await expect(page).toHaveURL(/\/seguro-hogar\?gclid=g-123&utm_campaign=hogar-primavera$/);
  expect((await logged).status()).toBe(200);
  expect(logs).toHaveLength(1);
  expect(logs[0]).toMatchObject({ proceso: 'Cotizador Hogar', proceso_detalle: 'LogCampaniaUnicClic', app: 'cotizador-hogar' });
  expect(JSON.parse(String(logs[0].request))).toEqual({ gclid: 'g-123', utm_campaign: 'hogar-primavera' });
  expect(['mobile', 'desktop']).toContain(logs[0].id_extra);
  await page.reload();
  await page.goto('/?gclid=g-123&utm_campaign=hogar-primavera');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForTimeout(500);
  expect(logs).toHaveLength(1);
  const stored = await page.evaluate(() => localStorage.getItem('cotizador-hogar:campania'));
  expect(JSON.parse(stored ?? '{}').params).toEqual({ gclid: 'g-123', utm_campaign: 'hogar-primavera' });
});

test('si la dirección está en otra zona, el precio se actualiza y se avisa', async ({ page }, info) => {
  await quoteAHome(page, info);
  await page.locator('.plan--recommended .plan__head').click();
  await continuar(page);
  const before = await page.getByTestId('premio-cuota').textContent();
  await continuar(page);
  await fillPersonalData(page, {
    firstName: 'Juan',
    lastName: 'Gómez',
    dni: '28999888',
    sexo: 'Masculino',
    birthDate: '1979-03-02',
    actividad: 'Comerciante',
  });
  await continuar(page);

  await expect(page).toHaveURL(/\/datos-personales\/direccion/);
  await page.getByLabel('Provincia').selectOption({ label: 'Chubut' });
  await page.getByLabel('Localidad').fill('Esquel');
  await expect(page.getByText('Elegiste Esquel.')).toBeVisible(); // a name typed exactly is that locality
  await page.getByLabel('Calle').fill('Rivadavia');
  await page.getByLabel('Sin número').check();
  await expect(page.getByLabel('Número', { exact: true })).toBeDisabled();
  await page.getByLabel('Código postal').fill('9200');
  await page.getByLabel(/Leí y acepto/).check();
  await continuar(page);

  await expect(page).toHaveURL(/\/confirmar-datos-personales/);
  await expect(page.getByRole('status').filter({ hasText: 'otra zona de riesgo' })).toBeVisible();
  await expect(page.getByTestId('premio-cuota')).not.toHaveText(before ?? '');
  await expect(page.getByText('Rivadavia')).toBeVisible();
  await shot(page, info, '12-confirmar-datos-personales-otra-zona');
});
