/** The whole journey, with a card and with a CBU, ends on the thank-you page with a policy number the API's database holds. */
import { expect, test } from '@playwright/test';
import { choosePlanAndPersonalData, payWithCard, payWithCbu, quoteAHome, shot, storageDump } from './journey';

/** Confirms the purchase and checks the thank-you page against the API's database. @returns the policy number shown */
async function confirmAndCheckPolicy(
  page: import('@playwright/test').Page,
  info: import('@playwright/test').TestInfo,
  secret: string,
): Promise<string> {
  const dump = await storageDump(page);
  expect(dump).not.toContain(secret);
  expect(dump).not.toContain(secret.replace(/\s/g, ''));
  await expect(page.getByText(/terminada en \d{4}/)).toBeVisible();
  await shot(page, info, '14-confirmacion');
  const solicitud = page.waitForResponse((r) => r.url().endsWith('/api/emision/solicitar'));
  await page.getByRole('button', { name: 'Contratar seguro' }).click();
  const { numeroSolicitud } = await (await solicitud).json();

  await expect(page).toHaveURL(/\/seguro-hogar\/gracias-seguro-habilitado\?utm_campaign=primavera$/, { timeout: 30_000 });
  const poliza = (await page.getByTestId('poliza').textContent()) ?? '';
  expect(poliza).toMatch(/^HOG-\d{4}-\d{6}$/);
  await shot(page, info, '15-gracias');

  // the policy number shown is the one the server's database recorded for this application
  const estado = await page.request.get(`/api/emision/estado/${numeroSolicitud}`);
  expect(await estado.json()).toMatchObject({ estado: 'EMITIDA', numSecuPol: poliza });
  expect(await storageDump(page)).not.toContain(secret.replace(/\s/g, ''));
  return poliza;
}

test('compra con tarjeta de crédito', async ({ page }, info) => {
  const problems: string[] = [];
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await quoteAHome(page, info, '?utm_campaign=primavera');
  await choosePlanAndPersonalData(page, info);
  await payWithCard(page, info);
  const poliza = await confirmAndCheckPolicy(page, info, '4242 4242 4242 4242');
  // reloaded, the thank-you page paints from its prerendered frame and the app fills that frame in (hydration without
  // a mismatch): the same lead, now with the e-mail, and the same policy
  await page.reload();
  await expect(page.getByTestId('poliza')).toHaveText(poliza);
  await expect(page.locator('.result__lead')).toContainText('ana.perez@example.com');
  // no script error, React warning or CSP violation along the happy path
  expect(problems).toEqual([]);
});

test('compra con débito en cuenta (CBU)', async ({ page }, info) => {
  await quoteAHome(page, info, '?utm_campaign=primavera');
  await choosePlanAndPersonalData(page, info);
  await payWithCbu(page, info);
  await confirmAndCheckPolicy(page, info, '2850590909400904181356');
});

test('una tarjeta rechazada por la entidad lleva a la pantalla de error', async ({ page }, info) => {
  await quoteAHome(page, info);
  await choosePlanAndPersonalData(page, info);
  await payWithCard(page, info, '4000 0000 0000 0002');
  await page.getByRole('button', { name: 'Contratar seguro' }).click();
  await expect(page).toHaveURL(/\/seguro-hogar\/error$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('No pudimos emitir tu póliza');
  await expect(page.getByText('La entidad rechazó el medio de pago. Probá con otro.')).toBeVisible();
  await shot(page, info, '16-error');

  // the visitor tries another payment method without retyping anything else
  await page.getByRole('button', { name: 'Probar con otro medio de pago' }).click();
  await expect(page).toHaveURL(/\/seguro-hogar\/metodo-de-pago$/);
  await payWithCbu(page, info);
  await page.getByRole('button', { name: 'Contratar seguro' }).click();
  await expect(page).toHaveURL(/\/seguro-hogar\/gracias-seguro-habilitado$/, { timeout: 30_000 });
  await expect(page.getByTestId('poliza')).toHaveText(/^HOG-\d{4}-\d{6}$/);
});
