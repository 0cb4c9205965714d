/**
 * The legal texts, documents and after-sale links in the browser, at mobile and desktop, against the API sending through a real local SMTP server
 * (tests/e2e/servidor-e2e.ts): the legal pages from the footer (terms, privacy, claims and policy copy) with the
 * insurer's data of config/aseguradora.json; the Ley 25.326 notice on the step that first asks e-mail and phone; the
 * consent checkbox's links; the conditions PDF on the quote step; the confirmation screen's 10-day right and its
 * installments that add up; the policy e-mail's HTML links opened in the browser; a resume link that never shows the
 * home page. axe finds no violation on the legal pages.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import aseguradora from '../../config/aseguradora.json' with { type: 'json' };
import { trackRequests } from '../../tools/replay/settle.ts';
import { buzon, correo } from './correo';
import { ANA, continuar, fillPersonalData, payWithCard, quoteAHome, shot, UNA_PANTALLA } from './journey';

const pdfText = (file: string) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
const pesos = (s: string) => Math.round(Number(s.replace(/[^\d,]/g, '').replace(',', '.')) * 100);

/** axe-core, every WCAG 2.x A/AA rule: no violation of any impact. */
async function sinViolaciones(page: Page) {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test(
  'un enlace del pie tocado mientras la app arranca lleva a su página: la dirección que escribe el arranque no lo deshace',
  UNA_PANTALLA,
  async ({ page }) => {
    // the screens chunk is held, so the tap lands while the app is starting; the page load a native link would start is
    // held too, until the app has rewritten the address ('/' → the entry step), as a slow phone would order them
    let soltarPantallas!: () => void;
    const pantallas = new Promise<void>((r) => (soltarPantallas = r));
    await page.route(/\/assets\/boot-ui-[\w-]+\.js$/, async (route) => {
      await pantallas;
      await route.continue();
    });
    await page.route(/\/tramite$/, async (route) => {
      await pantallas;
      await expect.poll(() => new URL(page.url()).pathname).toBe('/seguro-hogar');
      await route.continue();
    });
    const pedido = page.waitForRequest(/\/assets\/boot-ui-[\w-]+\.js$/);
    await page.goto('/');
    await page.locator('footer').getByRole('link', { name: 'Consultar un trámite' }).click();
    await pedido;
    soltarPantallas();
    await expect(page).toHaveURL(/\/tramite$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Consultar un trámite' })).toBeVisible();
  },
);

test('el pie lleva a términos, privacidad y atención al asegurado, con los datos de la aseguradora', async ({ page }, info) => {
  trackRequests(page);
  // the footer's links are the router's once the app is up (its ready event): '/' first goes to the entry step's route
  await page.addInitScript(() =>
    window.addEventListener('cotizador:listo', () => ((window as unknown as { __listo?: boolean }).__listo = true)),
  );
  await page.goto('/');
  await page.waitForFunction(() => (window as unknown as { __listo?: boolean }).__listo === true);
  await expect(page).toHaveURL(/\/seguro-hogar$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Asegurá tu hogar en minutos');
  const pie = page.locator('footer');
  await expect(pie).toContainText(`CUIT ${aseguradora.cuit}`);
  await expect(pie).toContainText(`con el N.º ${aseguradora.registroSsn}`);

  const paginas: [string, string, string, RegExp][] = [
    ['Términos y condiciones', '/terminos', 'Términos y condiciones', /12 cuotas mensuales\. Las cuotas suman exactamente el premio anual/],
    ['Política de privacidad', '/privacidad', 'Política de privacidad', /LA AGENCIA DE ACCESO A LA INFORMACIÓN PÚBLICA/],
    ['Siniestros, copia de póliza y reclamos', '/atencion-al-asegurado', 'Atención al asegurado', /Cómo pedir una copia de tu póliza/],
  ];
  for (const [enlace, ruta, titulo, contenido] of paginas) {
    await page.goto('/');
    await page.locator('footer').getByRole('link', { name: enlace }).click();
    await expect(page).toHaveURL(new RegExp(`${ruta}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(titulo);
    await expect(page.locator('main')).toContainText(contenido);
    await shot(page, info, `legal-${ruta.slice(1)}`);
    await sinViolaciones(page);
  }
  // the insurer's identity on the terms page, the SSN block on the service page
  await expect(page.getByRole('heading', { name: 'Servicio de Atención al Asegurado' })).toBeVisible();
  await expect(page.locator('main')).toContainText(`Llamá al ${aseguradora.siniestrosTelefono} (las 24 horas)`);
  await page.goto('/terminos');
  await expect(page.locator('main')).toContainText(
    `${aseguradora.nombre}, CUIT ${aseguradora.cuit}, inscripta en la Superintendencia de Seguros de la Nación (SSN) con el N.º ${aseguradora.registroSsn}`,
  );
  // the terms link the general conditions PDF: exclusions, deductibles and sums of every plan
  const href = (await page.locator('main').getByRole('link', { name: 'condiciones del seguro (PDF)' }).getAttribute('href')) as string;
  expect(href).toBe('/api/documentos/condiciones');
  const pdf = await page.request.get(href);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  const file = info.outputPath('condiciones.pdf');
  writeFileSync(file, await pdf.body());
  const txt = pdfText(file);
  expect(txt).toContain('EXCLUSIONES GENERALES');
  expect(txt).toMatch(/Franquicia: 10 % de cada siniestro, con un mínimo de \$\s50\.000/);
});

test('compra: aviso de datos antes del e-mail, enlaces del consentimiento, condiciones, 10 días y cuotas que suman; el e-mail de la póliza abre sus enlaces', async ({
  page,
  context,
}, info) => {
  trackRequests(page);
  await page.goto('/');
  await page.getByRole('button', { name: 'Cotizar ahora' }).click();
  await page.getByLabel(/^Casa/).check();
  await page.getByLabel('No', { exact: true }).check();
  await continuar(page);
  await page.getByLabel('Sí, es mi vivienda permanente').check();
  await page.getByLabel('Soy propietario/a').check();
  await continuar(page);
  await page.getByLabel('Superficie cubierta').fill('80');
  await continuar(page);
  await page.getByLabel('Localidad').fill('Lanú');
  await page
    .getByRole('listbox')
    .getByRole('option', { name: /^Lanús, Buenos Aires/ })
    .click();
  await continuar(page);
  // the step that first asks e-mail and phone shows the Ley 25.326 notice above the fields
  await expect(page).toHaveURL(/\/seguro-hogar\/contacto/);
  const aviso = page.getByTestId('aviso-legal');
  await expect(aviso).toContainText('Protección de datos personales (Ley 25.326)');
  await expect(aviso).toContainText(aseguradora.datosEmail);
  await expect(aviso.getByRole('link', { name: 'política de privacidad' })).toHaveAttribute('href', '/privacidad');
  const [avisoBox, emailBox] = [await aviso.boundingBox(), await page.getByLabel('E-mail').boundingBox()];
  expect((avisoBox?.y ?? 1e9) < (emailBox?.y ?? 0)).toBe(true);
  const email = buzon(info);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Celular').fill('11 5555-1234');
  await shot(page, info, 'legal-contacto-aviso');
  await continuar(page);
  await expect(page).toHaveURL(/\/seguro-hogar\/vigencia/);
  await page.getByLabel('Inicio de la cobertura').fill(new Date(Date.now() + 2 * 86_400_000 - 3 * 3_600_000).toISOString().slice(0, 10));
  await page.getByRole('button', { name: 'Ver mi cotización' }).click();
  await expect(page).toHaveURL(/\/seguro-hogar\/cotizacion/);

  // the quote step links its conditions (its plans' sums)
  const cond = page.getByTestId('extra-descargarCondiciones');
  await expect(cond).toHaveText(/Condiciones del seguro \(PDF\)/);
  const download = page.waitForEvent('download');
  await cond.click();
  const condFile = info.outputPath('condiciones-cotizacion.pdf');
  await (await download).saveAs(condFile);
  expect(pdfText(condFile)).toContain('Condiciones Generales y Particulares de los planes que cotizaste');
  // every plan card says its installments, which add up to the premio shown
  for (const card of await page.locator('.plan').all()) {
    const total = (await card.locator('.plan__total').textContent()) as string;
    const m = total.match(
      /^Premio anual (\$\u00a0[\d.]+,\d{2}), impuestos incluidos: (?:11 cuotas de (\$\u00a0[\d.]+,\d{2}) y una de (\$\u00a0[\d.]+,\d{2})|12 cuotas de (\$\u00a0[\d.]+,\d{2}))$/,
    );
    expect(m, total).not.toBeNull();
    const [, premio, cuota, ultima, iguales] = m as RegExpMatchArray;
    expect(iguales ? 12 * pesos(iguales) : 11 * pesos(cuota) + pesos(ultima)).toBe(pesos(premio));
    expect(await card.locator('.plan__amount').textContent()).toBe(iguales ?? cuota);
  }

  await page.locator('.plan--recommended .plan__head').click();
  await continuar(page);
  await expect(page).toHaveURL(/\/seguro-hogar\/adicionales/);
  await expect(page.locator('.toggle__price').first()).toHaveText(/^\+ \$\u00a0[\d.]+,\d{2} por mes, impuestos incluidos$/);
  await expect(page.locator('main')).not.toContainText('Tenés que informar');
  await continuar(page);
  await expect(page).toHaveURL(/\/seguro-hogar\/datos-personales(\?|$)/);
  await fillPersonalData(page, ANA);
  await continuar(page);

  await expect(page).toHaveURL(/\/seguro-hogar\/datos-personales\/direccion/);
  await page.getByLabel('Calle').fill('Av. Hipólito Yrigoyen');
  await page.getByLabel('Número', { exact: true }).fill('4200');
  await page.getByLabel('Código postal').fill('1824');
  // the consent names two documents: both are links, opened in a new tab (the step keeps what was typed)
  const tyc = page.getByLabel('Leí y acepto los términos y condiciones y la política de privacidad.');
  const label = page.locator('label.checkbox', { has: tyc });
  for (const [nombre, titulo] of [
    ['términos y condiciones', 'Términos y condiciones'],
    ['política de privacidad', 'Política de privacidad'],
  ]) {
    const nueva = context.waitForEvent('page');
    await label.getByRole('link', { name: nombre }).click();
    const p = await nueva;
    await expect(p.getByRole('heading', { level: 1 })).toHaveText(titulo);
    await p.close();
  }
  await expect(tyc).not.toBeChecked();
  await expect(page.getByLabel('Calle')).toHaveValue('Av. Hipólito Yrigoyen');
  await tyc.check();
  await shot(page, info, 'legal-direccion-consentimiento');
  await continuar(page);
  await page.getByRole('button', { name: 'Confirmar datos' }).click();
  await expect(page).toHaveURL(/\/seguro-hogar\/metodo-de-pago/);
  await payWithCard(page, info);

  // before buying: the 10-day right, the buttons, the conditions, and installments that add up
  const diez = page.getByTestId('aviso-legal');
  await expect(diez).toContainText('Tenés 10 días corridos desde que contratás para arrepentirte, sin costo y sin dar explicaciones');
  await expect(diez.getByRole('link', { name: 'Botón de arrepentimiento' })).toHaveAttribute('href', '/arrepentimiento');
  await expect(diez.getByRole('link', { name: 'Botón de baja' })).toHaveAttribute('href', '/baja');
  await expect(diez.getByRole('link', { name: 'condiciones del seguro' })).toHaveAttribute('href', '/api/documentos/condiciones');
  const fila = (n: string) => page.locator('.review__row').filter({ has: page.locator('dt', { hasText: new RegExp(`^${n}$`) }) });
  const premio = ((await fila('Premio anual, impuestos incluidos').textContent()) as string).match(/\$\u00a0[\d.]+,\d{2}/)?.[0] as string;
  const cuotas = (await fila('Cuotas').textContent()) as string;
  const m = cuotas.match(
    /11 cuotas de (\$\u00a0[\d.]+,\d{2}) y una de (\$\u00a0[\d.]+,\d{2})|12 cuotas de (\$\u00a0[\d.]+,\d{2})/,
  ) as RegExpMatchArray;
  expect(m, cuotas).not.toBeNull();
  expect(m[3] ? 12 * pesos(m[3]) : 11 * pesos(m[1]) + pesos(m[2])).toBe(pesos(premio));
  await shot(page, info, 'legal-confirmacion-10-dias');
  await page.getByRole('button', { name: 'Contratar seguro' }).click();
  await expect(page).toHaveURL(/gracias-seguro-habilitado/, { timeout: 30_000 });
  const num = (await page.getByTestId('poliza').textContent()) as string;

  // the policy e-mail: HTML with the links the PDF refers to, each opened in the browser
  const mail = await correo(email, (x) => x.subject === `Tu póliza de hogar ${num}`);
  expect(mail.attachments.map((a) => a.filename)).toEqual([`poliza-${num}.pdf`, `condiciones-${num}.pdf`]);
  const html = mail.html as string;
  const links = [...html.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((x) => ({ href: x[1].replace(/&amp;/g, '&'), texto: x[2] }));
  expect(links.map((l) => l.texto)).toEqual([
    'Descargar tu póliza (PDF)',
    'Cómo denunciar un siniestro o pedir una copia de la póliza',
    'Botón de arrepentimiento',
    'Botón de baja',
  ]);
  const correoPage = await context.newPage();
  await correoPage.setContent(html);
  await shot(correoPage, info, 'legal-correo-poliza');
  const descarga = correoPage.waitForEvent('download');
  await correoPage.getByRole('link', { name: 'Descargar tu póliza (PDF)' }).click();
  const polizaFile = info.outputPath('poliza.pdf');
  await (await descarga).saveAs(polizaFile);
  expect(readFileSync(polizaFile).equals(mail.attachments[0].content)).toBe(true);
  for (const [texto, titulo] of [
    ['Cómo denunciar un siniestro o pedir una copia de la póliza', 'Atención al asegurado'],
    ['Botón de arrepentimiento', 'Botón de arrepentimiento'],
    ['Botón de baja', 'Botón de baja'],
  ]) {
    await correoPage.setContent(html);
    await correoPage.getByRole('link', { name: texto }).click();
    await expect(correoPage.getByRole('heading', { level: 1 })).toHaveText(titulo);
  }
  await correoPage.close();
});

test('el enlace para retomar abre la cotización sin pasar por la página de inicio', async ({ page, browser }, info) => {
  trackRequests(page);
  const email = buzon(info);
  await quoteAHome(page, info, '', undefined, email);
  await page.getByRole('button', { name: 'Enviarme la cotización' }).click();
  await expect(page.getByRole('status')).toContainText('Listo: te enviamos la cotización');
  const mail = await correo(email, (x) => x.subject === 'Tu cotización de seguro de hogar' && (x.text ?? '').includes('retomar='));
  const link = (mail.text ?? '').match(/http:\/\/127\.0\.0\.1:\d+\/seguro-hogar\/cotizacion\?retomar=[A-Za-z0-9_.-]+/)?.[0] as string;
  expect(link).toBeTruthy();
  const otro = await browser.newContext({
    viewport: page.viewportSize() ?? undefined,
    locale: 'es-AR',
    timezoneId: 'America/Argentina/Buenos_Aires',
  });
  const p = await otro.newPage();
  // every h1 the page ever shows, from the first paint on: the home page's never is one of them
  await p.addInitScript(() => {
    const vistos: string[] = [];
    (window as unknown as { titulosVistos: string[] }).titulosVistos = vistos;
    new MutationObserver(() => {
      const h = document.querySelector('h1')?.textContent;
      if (h && vistos.at(-1) !== h) vistos.push(h);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await p.goto(link);
  await expect(p.locator('.plan')).toHaveCount(3);
  await expect(p).toHaveURL(/\/seguro-hogar\/cotizacion$/);
  const vistos = await p.evaluate(() => (window as unknown as { titulosVistos: string[] }).titulosVistos);
  expect(vistos).toEqual(['Elegí tu plan']);
  await shot(p, info, 'legal-retomar');
  await otro.close();
});
