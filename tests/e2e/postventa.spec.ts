/**
 * Documents, the quote by e-mail and the after-sale buttons in the browser, against the API sending through a real
 * local SMTP server (tests/e2e/servidor-e2e.ts): the policy PDF from the thank-you page and the policy e-mail; the
 * quote by e-mail and its resume link in a fresh browser; the botón de arrepentimiento and the botón de baja from the
 * first screen (tracking code, e-mail, state); the baja's one effective-date sentence on the form, the result page
 * and the e-mail; the tracking-code lookup page. The after-sale forms are the flow's standalone forms (flow.json ›
 * forms), rendered by StepForm: an empty submit shows the same error summary as a step.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { cotizarBody, domicilio } from '../../server/test/helper.ts';
import { trackRequests } from '../../tools/replay/settle.ts';
import { buzon, correo } from './correo';
import { choosePlanAndPersonalData, payWithCard, quoteAHome, shot } from './journey';

const pdfText = (file: string) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
const iso = (days: number) => new Date(Date.now() + days * 86_400_000 - 3 * 3_600_000).toISOString().slice(0, 10);

/** A policy bought through the API (faster than the UI; the UI purchase is the first test). @returns its number */
async function comprarPorApi(request: APIRequestContext, email: string): Promise<string> {
  const token = (await (await request.get('/api/set-csrf')).json()).csrfToken as string;
  const post = async (path: string, data: unknown) => {
    const r = await request.post(`/api${path}`, { data, headers: { 'x-xsrf-token': token } });
    expect(r.status(), `${path}: ${await r.text()}`).toBeLessThan(300);
    return r.json();
  };
  // the e2e server runs with ANTIBOT=on: the quote pays its proof of work, as any client must
  const challenge = await (await request.get('/api/antibot/desafio')).json();
  const antibot = { challenge, solution: await solveChallenge({ challenge, deriveKey }) };
  const { refId } = await post('/cotizacion/cotizar', cotizarBody({ antibot, email, initPolicyDate: iso(3) }));
  await post('/cotizacion/datos-presupuesto', { refId, codPlan: 'BASICO', coberturasOpcionales: [] });
  const persona = {
    firstName: 'Ana',
    lastName: 'Pérez',
    typeDoc: 'DNI',
    numberDoc: '30123456',
    genere: 'F',
    birthDate: '1985-05-10',
    email,
    areaCod: '11',
    phoneNumber: '55551234',
    ddjj: { actividad: 'Docente', lyt: false, ppe: false },
    consentimientoDatos: true,
  };
  const { medioPago } = await post('/pagos/validar-forma-cobro', { refId, methodPayment: 'CBU', numberCBU: '2850590909400904181356' });
  const { numeroSolicitud } = await post('/emision/solicitar', {
    refId,
    codPlan: 'BASICO',
    coberturasOpcionales: [],
    medioPagoId: medioPago.id,
    persona,
    domicilio: domicilio({ zipCode: '1824', numberAddress: '4200', floor: undefined, depto: undefined }),
  });
  await post('/emision/emitir-async', { numeroSolicitud });
  // the emission is asynchronous: ask until it is done, up to a ceiling for a loaded machine (idle: under a second)
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const e = await (await request.get(`/api/emision/estado/${numeroSolicitud}`)).json();
    if (e.estado === 'EMITIDA') return e.numSecuPol as string;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('la póliza no se emitió en 60 s');
}

/** Today in Argentina as the pages write it, e.g. "25/11/2026". */
const hoyAr = () =>
  new Intl.DateTimeFormat('es-AR', {
    timeZone: 'America/Argentina/Buenos_Aires',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(new Date());
/** The one sentence of a baja's effective date (es.json › legal.bajaRige) for `fecha` (DD/MM/AAAA). */
const bajaRige = (fecha: string) =>
  `La baja rige desde las 24 h del ${fecha}. No se hacen más débitos desde esa fecha; te devolvemos la parte del premio no devengada (la de los días sin cobertura, o todo si la cobertura todavía no había empezado) por el mismo medio de pago.`;

async function tramite(page: Page, info: import('@playwright/test').TestInfo, boton: string, num: string, email: string, nombre: string) {
  trackRequests(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Servicio de Atención al Asegurado' })).toBeVisible();
  await page.locator('main').getByRole('link', { name: boton }).click();
  await expect(page.getByRole('heading', { level: 1, name: boton })).toBeVisible();
  if (boton === 'Botón de baja') await expect(page.getByTestId('baja-rige')).toContainText(`Si la pedís hoy: ${bajaRige(hoyAr())}`);
  // an empty submit: the error summary (the same form as every step's) takes the focus and links each field's message
  await page.getByRole('button', { name: /Revocar|Dar de baja/ }).click();
  const summary = page.getByRole('alert').filter({ hasText: 'Revisá los datos marcados' });
  await expect(summary).toBeFocused();
  await expect(summary.getByRole('link')).toHaveText([
    'Número de póliza: Ingresá el número de póliza tal como figura en la póliza (HOG-AAAA-NNNNNN).',
    'DNI del asegurado: Ingresá el DNI sin puntos (7 u 8 números).',
    'E-mail con el que contrataste: Ingresá un e-mail válido.',
  ]);
  await shot(page, info, `${nombre}-vacio`);
  // unknown data: a Spanish message that does not say whether the policy exists
  await page.getByLabel('Número de póliza').fill('HOG-2026-999999');
  await page.getByLabel('DNI del asegurado').fill('30123456');
  await page.getByLabel('E-mail con el que contrataste').fill(email);
  await page.getByRole('button', { name: /Revocar|Dar de baja/ }).click();
  await expect(page.getByRole('alert')).toHaveText(/No encontramos una póliza con esos datos/);
  await shot(page, info, `${nombre}-error`);
  await page.getByLabel('Número de póliza').fill(num);
  await shot(page, info, `${nombre}`);
  await page.getByRole('button', { name: /Revocar|Dar de baja/ }).click();
  await expect(page.getByTestId('codigo')).toHaveText(/^(ARR|BAJ)-[0-9A-Z]{10}$/);
  await shot(page, info, `${nombre}-listo`);
  return (await page.getByTestId('codigo').textContent()) as string;
}

test('compra → descarga la póliza en PDF → el servidor SMTP recibe la póliza adjunta', async ({ page }, info) => {
  const email = buzon(info);
  await quoteAHome(page, info, '', undefined, email);
  await choosePlanAndPersonalData(page, info);
  await payWithCard(page, info);
  await page.getByRole('button', { name: 'Contratar seguro' }).click();
  await expect(page).toHaveURL(/gracias-seguro-habilitado/, { timeout: 30_000 });
  const num = (await page.getByTestId('poliza').textContent()) as string;
  await expect(page.getByText(/Vamos a enviarla a .* en unos minutos/)).toBeVisible();
  await shot(page, info, '15-gracias-descarga');
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Descargar póliza (PDF)' }).click();
  const file = info.outputPath('poliza.pdf');
  await (await download).saveAs(file);
  const txt = pdfText(file);
  expect(txt).toContain(num);
  expect(txt).toContain('Av. Hipólito Yrigoyen 4200');
  expect(txt).toMatch(/Premio total\s+\$\s[\d.]+,\d{2}/);
  expect(txt).not.toContain('4242 4242 4242 4242');
  execFileSync('pdftoppm', ['-png', '-r', '70', file, `tests/e2e/screenshots/${info.project.name}/poliza-pdf`]);

  const mail = await correo(email, (m) => m.subject === `Tu póliza de hogar ${num}`);
  expect(mail.attachments.map((a) => a.filename)).toEqual([`poliza-${num}.pdf`, `condiciones-${num}.pdf`]); // the policy and its general conditions, both sent with it
  expect(mail.attachments[0].content.equals(readFileSync(file))).toBe(true); // the same stored bytes
  expect(mail.text).not.toMatch(/4242 ?4242 ?4242 ?4242/);
});

test('enviarme la cotización → el enlace la retoma en otro navegador con las mismas respuestas', async ({ page, browser }, info) => {
  const email = buzon(info);
  await quoteAHome(page, info, '', undefined, email);
  await page.getByRole('button', { name: 'Enviarme la cotización' }).click();
  await expect(page.getByText(`te enviamos la cotización a ${email}`, { exact: false })).toBeVisible();
  await shot(page, info, '08-cotizacion-enviada');
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Descargar cotización' }).click();
  const file = info.outputPath('cotizacion.pdf');
  await (await download).saveAs(file);
  expect(pdfText(file)).toMatch(/válida hasta el \d{2}\/\d{2}\/\d{4}/);
  execFileSync('pdftoppm', ['-png', '-r', '70', file, `tests/e2e/screenshots/${info.project.name}/cotizacion-pdf`]);
  const answers = await page.evaluate(() =>
    JSON.stringify(JSON.parse(Object.values({ ...window.localStorage }).find((v) => v.includes('"answers"')) ?? '{}').answers),
  );

  const mail = await correo(email, (m) => m.subject === 'Tu cotización de seguro de hogar');
  const link = (mail.text ?? '').match(/http:\/\/127\.0\.0\.1:\d+\/seguro-hogar\/cotizacion\?retomar=[A-Za-z0-9_.-]+/)?.[0] as string;
  expect(link).toBeTruthy();
  expect(link).not.toMatch(/%40|@|perez/i); // no personal data in the URL
  const otro = await browser.newContext({
    viewport: page.viewportSize() ?? undefined,
    locale: 'es-AR',
    timezoneId: 'America/Argentina/Buenos_Aires',
  });
  const p2 = await otro.newPage();
  trackRequests(p2);
  await p2.goto(new URL(link).pathname + new URL(link).search);
  await expect(p2).toHaveURL(/\/seguro-hogar\/cotizacion$/);
  await expect(p2.getByText('Retomaste tu cotización.', { exact: false })).toBeVisible();
  await expect(p2.locator('.plan')).toHaveCount(3);
  await shot(p2, info, '08-cotizacion-retomada');
  const restored = await p2.evaluate(() =>
    JSON.stringify(JSON.parse(Object.values({ ...window.localStorage }).find((v) => v.includes('"answers"')) ?? '{}').answers),
  );
  expect(JSON.parse(restored)).toEqual(JSON.parse(answers));
  await p2.getByRole('button', { name: 'Volver' }).click();
  await expect(p2.getByLabel('Inicio de la cobertura')).toHaveValue(/\S/);
  await otro.close();
});

test('botón de arrepentimiento desde la primera pantalla → código, e-mail y póliza ANULADA', async ({ page }, info) => {
  const email = buzon(info);
  const num = await comprarPorApi(page.request, email);
  const codigo = await tramite(page, info, 'Botón de arrepentimiento', num, email, 'arrepentimiento');
  const mail = await correo(email, (m) => m.subject === `Recibimos tu arrepentimiento — código ${codigo}`);
  expect(mail.text).toContain(num);
  expect(await (await page.request.get(`/api/dev/poliza/${num}`)).json()).toMatchObject({ estado: 'ANULADA' });
});

test('botón de baja desde la primera pantalla → código, e-mail y póliza en BAJA', async ({ page }, info) => {
  const email = buzon(info);
  const num = await comprarPorApi(page.request, email);
  const codigo = await tramite(page, info, 'Botón de baja', num, email, 'baja');
  // one effective date, said the same way on the result page and in the e-mail (the form said it before the request)
  await expect(page.getByTestId('baja-rige')).toHaveText(bajaRige(hoyAr()));
  const mail = await correo(email, (m) => m.subject === `Recibimos tu pedido de baja — código ${codigo}`);
  expect(mail.text).toContain(bajaRige(hoyAr()));
  expect(await (await page.request.get(`/api/dev/poliza/${num}`)).json()).toMatchObject({ estado: 'BAJA' });
  // the result page leads to the lookup
  await page.getByRole('link', { name: 'Consultar un trámite' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Consultar un trámite' })).toBeVisible();
});

test('consultar un trámite desde el pie: código + DNI → tipo, fecha, estado y desde cuándo rige; sin enumerar códigos', async ({
  page,
}, info) => {
  const email = `consulta-${info.project.name}@example.com`;
  const num = await comprarPorApi(page.request, email);
  const token = (await (await page.request.get('/api/set-csrf')).json()).csrfToken as string;
  const baja = await page.request.post('/api/postventa/baja', {
    data: { numSecuPol: num, dni: '30123456', email },
    headers: { 'x-xsrf-token': token },
  });
  expect(baja.status()).toBe(200);
  const { codigo } = await baja.json();

  trackRequests(page);
  await page.goto('/');
  await page.locator('footer').getByRole('link', { name: 'Consultar un trámite' }).click();
  await expect(page).toHaveURL(/\/tramite$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Consultar un trámite' })).toBeVisible();
  await shot(page, info, 'tramite');
  await page.getByRole('button', { name: 'Consultar' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Revisá los datos marcados' }).getByRole('link')).toHaveText([
    'Código de seguimiento: Ingresá el código de seguimiento.',
    'DNI o e-mail del asegurado: Ingresá el DNI o el e-mail del asegurado.',
  ]);
  // a wrong DNI gets the same answer as an unknown code
  await page.getByLabel('Código de seguimiento').fill(codigo.toLowerCase());
  await page.getByLabel('DNI o e-mail del asegurado').fill('30123457');
  await page.getByRole('button', { name: 'Consultar' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'No encontramos un trámite con esos datos. Revisá el código de seguimiento y el DNI o e-mail del asegurado.',
  );
  await shot(page, info, 'tramite-error');
  await page.getByLabel('DNI o e-mail del asegurado').fill('30.123.456');
  await page.getByRole('button', { name: 'Consultar' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Tu trámite ${codigo}`);
  await expect(page.getByTestId('consulta-tipo')).toHaveText('Baja');
  await expect(page.getByTestId('consulta-poliza')).toHaveText(num);
  await expect(page.getByTestId('consulta-fecha')).toHaveText(hoyAr());
  await expect(page.getByTestId('consulta-estado')).toHaveText('Póliza dada de baja.');
  await expect(page.getByTestId('consulta-efectiva')).toHaveText(`Desde las 24 h del ${hoyAr()}`);
  await expect(page.getByTestId('baja-rige')).toHaveText(bajaRige(hoyAr()));
  await expect(
    page.getByText(/La baja no te quita el arrepentimiento: hasta el \d{2}\/\d{2}\/\d{4} podés usar también el Botón de arrepentimiento/),
  ).toBeVisible();
  await shot(page, info, 'tramite-resultado');
});
