/**
 * A price in at most 8 answers on the shipped flow, on a phone (390×844) and a desktop (1280×800): the answers a
 * visitor gives before the quote shows premiums are counted one by one (a field filled or an option chosen), every
 * route of the spec still walked (propiedad … vigencia). What makes it 8: the start of cover comes chosen (tomorrow),
 * the locality is one search that brings its province («Lanús, Buenos Aires»), the phone is one field
 * (libphonenumber-js splits it into the wire's areaCod + phoneNumber; ENACOM's list says whether the code exists).
 * Screenshots: tests/e2e/screenshots/<project>/ocho-*.png (axe runs on each, shot()).
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { arInDays, continuar, shot } from './journey';
import { trackRequests } from '../../tools/replay/settle.ts';
import { LANUS_RESPUESTAS, SAN_JOSE_PRIMERAS } from '../support/localidades.ts';

/** The answers the app keeps for step `step` (its saved journey in localStorage). */
async function savedAnswers(page: Page, step: string): Promise<Record<string, unknown>> {
  const saved = await page.evaluate(() => localStorage.getItem('cotizador-hogar:estado:v1'));
  return (JSON.parse(saved ?? '{}') as { answers?: Record<string, Record<string, unknown>> }).answers?.[step] ?? {};
}

/** Counts what the visitor does: each call is one answer (a field filled or an option chosen). */
function answers() {
  const given: string[] = [];
  return {
    given,
    async give(what: string, act: () => Promise<void>) {
      given.push(what);
      await act();
    },
  };
}

const size = (info: TestInfo) => (info.project.name === 'desktop' ? 'escritorio' : 'telefono');

/** Landing → the quote with premiums, answering as a visitor; returns the answers given before the first price. */
async function toPrice(page: Page, info: TestInfo, vivienda: 'Casa' | 'Departamento'): Promise<string[]> {
  const a = answers();
  trackRequests(page);
  await page.goto('/');
  await page.getByRole('button', { name: 'Cotizar ahora' }).click();

  await expect(page).toHaveURL(/\/seguro-hogar\/propiedad$/);
  await a.give('tipoVivienda', () => page.getByLabel(new RegExp(`^${vivienda}`)).check());
  // a house is asked whether it is in a gated community; an apartment is not (the spec's house/apartment rule)
  if (vivienda === 'Casa') await a.give('barrioCerrado', () => page.getByLabel('No', { exact: true }).check());
  else await expect(page.getByText('¿Está en un barrio cerrado?')).toHaveCount(0);
  await continuar(page);

  await expect(page).toHaveURL(/\/seguro-hogar\/permanencia$/);
  await a.give('usoVivienda', () => page.getByLabel('Sí, es mi vivienda permanente').check());
  // a tenant, the branch whose cover differs from an owner's
  await a.give('titularidad', () => page.getByLabel(/^Alquilo/).check());
  await continuar(page);

  await expect(page).toHaveURL(/\/seguro-hogar\/metros$/);
  await a.give('metros', () => page.getByLabel('Superficie cubierta').fill('80'));
  await continuar(page);

  await expect(page).toHaveURL(/\/seguro-hogar\/localidad$/);
  await a.give('localidad (con su provincia)', async () => {
    await page.getByLabel('Localidad').fill('Lanú');
    await page
      .getByRole('listbox')
      .getByRole('option', { name: /^Lanús, Buenos Aires/ })
      .click();
  });
  await expect(page.getByLabel('Localidad')).toHaveValue('Lanús, Buenos Aires');
  await shot(page, info, `ocho-localidad-${size(info)}`);
  await continuar(page);

  await expect(page).toHaveURL(/\/seguro-hogar\/contacto$/);
  await a.give('email', () => page.getByLabel('E-mail').fill('ana.perez@example.com'));
  await a.give('celular (código de área y número)', () => page.getByLabel('Celular').fill('3541 12-3456'));
  await shot(page, info, `ocho-contacto-${size(info)}`);
  await continuar(page);

  // the start of cover comes chosen: tomorrow; the visitor only asks for the price
  await expect(page).toHaveURL(/\/seguro-hogar\/vigencia$/);
  await expect(page.getByLabel('Inicio de la cobertura')).toHaveValue(arInDays(1));
  await expect(page.getByText('Te proponemos empezar mañana; si preferís otro día, cambiá la fecha.')).toBeVisible();
  await shot(page, info, `ocho-vigencia-${size(info)}`);
  await expect(page.locator('.plan__amount')).toHaveCount(0);
  await page.getByRole('button', { name: 'Ver mi cotización' }).click();

  await expect(page).toHaveURL(/\/seguro-hogar\/cotizacion$/);
  await expect(page.locator('.plan')).toHaveCount(3);
  await expect(page.locator('.plan__amount').first()).toHaveText(/^\$\u00a0[\d.]+,\d{2}$/);
  return a.given;
}

test('una casa: el precio sale con 8 respuestas (la fecha de inicio ya viene elegida: mañana)', async ({ page }, info) => {
  const given = await toPrice(page, info, 'Casa');
  expect(given).toEqual([
    'tipoVivienda',
    'barrioCerrado',
    'usoVivienda',
    'titularidad',
    'metros',
    'localidad (con su provincia)',
    'email',
    'celular (código de área y número)',
  ]);
  expect(given).toHaveLength(8);
  // what the quote was asked with: the province from the one locality choice, the phone split in two, tomorrow
  expect(await savedAnswers(page, 'localidad')).toEqual(LANUS_RESPUESTAS);
  expect(await savedAnswers(page, 'contacto')).toEqual({ email: 'ana.perez@example.com', areaCod: '3541', phoneNumber: '123456' });
  // the WhatsApp button (fixed at the bottom right on a desktop) leaves the conditions link whole on a first view
  const [chat, link] = [await page.getByTestId('chat').boundingBox(), await page.getByTestId('extra-descargarCondiciones').boundingBox()];
  expect(chat && link).toBeTruthy();
  const overlap =
    chat!.x < link!.x + link!.width &&
    link!.x < chat!.x + chat!.width &&
    chat!.y < link!.y + link!.height &&
    link!.y < chat!.y + chat!.height;
  expect(overlap, `botón de chat ${JSON.stringify(chat)} sobre el enlace ${JSON.stringify(link)}`).toBe(false);
  await shot(page, info, `ocho-cotizacion-${size(info)}`);
});

/** From the landing to the locality step as the owner of a 60 m² flat they live in (the answers before it). */
async function hastaLocalidad(page: Page) {
  trackRequests(page);
  await page.goto('/');
  await page.getByRole('button', { name: 'Cotizar ahora' }).click();
  await page.getByLabel(/^Departamento/).check();
  await continuar(page);
  await page.getByLabel('Sí, es mi vivienda permanente').check();
  await page.getByLabel('Soy propietario/a').check();
  await continuar(page);
  await page.getByLabel('Superficie cubierta').fill('60');
  await continuar(page);
}

test('un departamento: 7 respuestas (no se pregunta barrio cerrado)', async ({ page }, info) => {
  const given = await toPrice(page, info, 'Departamento');
  expect(given).toHaveLength(7);
  expect(given).not.toContain('barrioCerrado');
});

test('localidad: «Lanús» es Lanús, Buenos Aires; las del mismo nombre se distinguen por la provincia', async ({ page }, info) => {
  await hastaLocalidad(page);
  await expect(page).toHaveURL(/\/seguro-hogar\/localidad$/);
  // one question: no province select
  await expect(page.getByLabel('Provincia')).toHaveCount(0);
  const locality = page.getByRole('combobox', { name: 'Localidad' });

  // the same name in seven provinces (INDEC): each option says its province, the department tells two of Catamarca apart
  await locality.pressSequentially('San José');
  const list = page.getByRole('listbox', { name: 'Localidad' });
  await expect(list.locator('.combobox__option > span:first-child')).toHaveText([
    ...SAN_JOSE_PRIMERAS,
    /^San José de /,
    /^San José de /,
    /^San José de /,
    /^San José de /,
    /^San José de /,
  ]);
  await expect(list.getByRole('option').nth(1)).toContainText('Fray Mamerto Esquiú');
  await expect(list.getByRole('option').nth(2)).toContainText('Santa María');
  await shot(page, info, `ocho-localidad-homonimas-${size(info)}`);
  // the name alone is not taken: it is in seven provinces
  await locality.press('Tab');
  await expect(page.getByText('Hay más de una localidad con ese nombre: elegí la tuya de la lista, que dice la provincia.')).toBeVisible();
  await continuar(page);
  await expect(page.getByRole('alert').filter({ hasText: 'Revisá los datos marcados' }).getByRole('link')).toHaveText([
    'Localidad: Escribí tu localidad y elegila de la lista.',
  ]);
  await expect(page).toHaveURL(/\/seguro-hogar\/localidad$/);

  // typed with its province, it is that one, and the quote will be asked with that province
  await locality.fill('');
  await locality.pressSequentially('San José, Entre Ríos');
  await expect(page.getByText('Elegiste San José, Entre Ríos.')).toBeVisible();
  await continuar(page);
  await expect(page).toHaveURL(/\/seguro-hogar\/contacto$/);
  expect(await savedAnswers(page, 'localidad')).toEqual({
    idProvincia: '30',
    provincia: 'Entre Ríos',
    codLocalidad: '30008090',
    localidad: 'San José',
    departamento: 'Colón',
  });
  await page.getByRole('button', { name: 'Volver' }).click();
  await expect(page).toHaveURL(/\/seguro-hogar\/localidad$/);
  await expect(locality).toHaveValue('San José, Entre Ríos');

  // «Lanús» typed exactly is Lanús, Buenos Aires
  await locality.fill('');
  await locality.pressSequentially('Lanús');
  await expect(locality).toHaveValue('Lanús, Buenos Aires');
  await expect(page.getByText('Elegiste Lanús, Buenos Aires.')).toBeVisible();
  await continuar(page);
  await expect(page).toHaveURL(/\/seguro-hogar\/contacto$/);
  expect(await savedAnswers(page, 'localidad')).toEqual(LANUS_RESPUESTAS);
});

test('celular en un campo: 3541 12-3456 vale; un código de área que no existe o un número corto se rechazan en español', async ({
  page,
}, info) => {
  await hastaLocalidad(page);
  await page.getByLabel('Localidad').pressSequentially('Villa Carlos Paz');
  await expect(page.getByText('Elegiste Villa Carlos Paz, Córdoba.')).toBeVisible();
  await continuar(page);
  await expect(page).toHaveURL(/\/seguro-hogar\/contacto$/);
  await page.getByLabel('E-mail').fill('eva@example.com');
  const phone = page.getByLabel('Celular');
  await expect(page.getByLabel('Código de área')).toHaveCount(0);

  // too few digits: the form says what a number is, without asking the server
  await phone.fill('11 5555');
  await continuar(page);
  const short = 'Revisá el celular: código de área y número suman 10 cifras, por ejemplo 11 5555-1234 o 3541 12-3456.';
  await expect(page.getByRole('alert').filter({ hasText: 'Revisá los datos marcados' }).getByRole('link')).toHaveText([
    `Celular: ${short}`,
  ]);
  await expect(phone).toHaveAttribute('aria-invalid', 'true');

  // an area code ENACOM does not have: the server's check refuses it, on the phone field
  await phone.fill('999 555-5123');
  const checked = page.waitForRequest((r) => r.url().endsWith('/api/cotizacion/validar-prefijo?prefijo=999'));
  await continuar(page);
  await checked;
  await expect(page.locator('#contacto_phoneNumber__error')).toHaveText(
    'Error: Ese código de área no existe en la numeración argentina (ENACOM). Revisalo: va sin el 0, como 11, 351 o 3541.',
  );
  await expect(page).toHaveURL(/\/seguro-hogar\/contacto$/);
  await shot(page, info, `ocho-contacto-error-${size(info)}`);

  // a 4-digit area code (Villa Carlos Paz) written as people write a mobile: 0, the code, 15, the number
  await phone.fill('03541 15 12-3456');
  const sent = page.waitForRequest('**/api/cotizacion/validar-telefono');
  await continuar(page);
  expect((await sent).postDataJSON()).toEqual({ areaCod: '3541', phoneNumber: '123456' });
  await expect(page).toHaveURL(/\/seguro-hogar\/vigencia$/);
  expect(await savedAnswers(page, 'contacto')).toEqual({ email: 'eva@example.com', areaCod: '3541', phoneNumber: '123456' });

  // back on the step, the number reads as one
  await page.getByRole('button', { name: 'Volver' }).click();
  await expect(page).toHaveURL(/\/seguro-hogar\/contacto$/);
  await expect(phone).toHaveValue('3541 123456');
});
