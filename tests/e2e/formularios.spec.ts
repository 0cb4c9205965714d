/**
 * Forms as a careful visitor meets them, on a phone (390×844) and a desktop (1280×800): the locality combobox (its list never
 * covers the primary button, a name typed exactly is taken, "Buscando…" ends, the error goes on a valid pick), dates
 * typed día/mes/año in a Spanish- and an English-language browser, and the error summary that names and links each
 * field. Screenshots: tests/e2e/screenshots/<project>/formularios-*.png; axe runs on each of them (shot()).
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { continuar, fillPersonalData, ANA, shot } from './journey';
import { trackRequests } from '../../tools/replay/settle.ts';

/** The answers the app keeps for step `step` (its saved journey in localStorage). */
async function savedAnswers(page: Page, step: string): Promise<Record<string, unknown>> {
  const saved = await page.evaluate(() => localStorage.getItem('cotizador-hogar:estado:v1'));
  return (JSON.parse(saved ?? '{}') as { answers?: Record<string, Record<string, unknown>> }).answers?.[step] ?? {};
}

/** "DDMMYYYY" of today in Argentina + `days` (what a visitor types for that date). */
function digitsInDays(days: number): { digits: string; iso: string } {
  const [y, m, d] = new Date().toLocaleDateString('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).split('-').map(Number);
  const t = new Date(Date.UTC(y!, m! - 1, d! + days));
  const p = (n: number) => String(n).padStart(2, '0');
  return { digits: `${p(t.getUTCDate())}${p(t.getUTCMonth() + 1)}${t.getUTCFullYear()}`, iso: t.toISOString().slice(0, 10) };
}

/** Landing → the locality step. */
async function toLocalidad(page: Page) {
  trackRequests(page);
  await page.goto('/');
  await page.getByRole('button', { name: 'Cotizar ahora' }).click();
  await expect(page).toHaveURL(/\/seguro-hogar\/propiedad$/);
  // the progress counts screens of the stage, and says so
  await expect(page.locator('.progress__label')).toHaveText('Paso 1 de 5 · Tu hogar — pantalla 1 de 6');
  await page.getByLabel(/^Casa/).check();
  await page.getByLabel('No', { exact: true }).check();
  await continuar(page);
  await expect(page).toHaveURL(/\/seguro-hogar\/permanencia$/);
  await expect(page.locator('.progress__label')).toHaveText('Paso 1 de 5 · Tu hogar — pantalla 2 de 6');
  await page.getByLabel('Sí, es mi vivienda permanente').check();
  await page.getByLabel('Soy propietario/a').check();
  await continuar(page);
  await expect(page).toHaveURL(/\/seguro-hogar\/metros$/);
  await page.getByLabel('Superficie cubierta').fill('80');
  await continuar(page);
  await expect(page).toHaveURL(/\/seguro-hogar\/localidad$/);
}

/** The locality step → the quote, the start date typed as digits. */
async function toCotizacion(page: Page, info: TestInfo) {
  await page.getByLabel('Localidad').pressSequentially('Lanús');
  await expect(page.getByText('Elegiste Lanús, Buenos Aires.')).toBeVisible();
  await continuar(page);
  await expect(page).toHaveURL(/\/seguro-hogar\/contacto$/);
  await page.getByLabel('E-mail').fill('ana.perez@example.com');
  await page.getByLabel('Celular').fill('11 5555-1234');
  await continuar(page);
  await expect(page).toHaveURL(/\/seguro-hogar\/vigencia$/);
  const start = digitsInDays(2);
  const field = page.getByLabel('Inicio de la cobertura');
  // tomorrow comes chosen; another day is typed over it
  await field.clear();
  await field.pressSequentially(start.digits);
  await expect(field).toHaveValue(`${start.digits.slice(0, 2)}/${start.digits.slice(2, 4)}/${start.digits.slice(4)}`);
  await shot(page, info, `formularios-vigencia-${info.project.name === 'desktop' ? 'escritorio' : 'telefono'}`);
  await page.getByRole('button', { name: 'Ver mi cotización' }).click();
  await expect(page).toHaveURL(/\/seguro-hogar\/cotizacion$/);
  return start;
}

test('localidad: la lista no tapa «Continuar», el nombre exacto vale, «Buscando…» termina, el error se va al elegir', async ({
  page,
}, info) => {
  await toLocalidad(page);
  const locality = page.getByRole('combobox', { name: 'Localidad' });
  const button = page.getByRole('button', { name: 'Continuar', exact: true });

  // submitting without a locality: the summary takes the focus, names the field and links to it
  await button.click();
  const summary = page.getByRole('alert').filter({ hasText: 'Revisá los datos marcados' });
  await expect(summary).toBeFocused();
  await expect(summary.getByRole('link')).toHaveText(['Localidad: Escribí tu localidad y elegila de la lista.']);
  await summary.getByRole('link', { name: 'Localidad: Escribí tu localidad y elegila de la lista.' }).click();
  await expect(locality).toBeFocused();

  // the list of suggestions is in the page's flow: it pushes «Continuar» down, never covers it
  await locality.pressSequentially('La');
  const list = page.getByRole('listbox', { name: 'Localidad' });
  await expect(list.getByRole('option').first()).toBeVisible();
  await expect(page.getByText('Buscando…')).toHaveCount(0);
  const [l, b] = [await list.boundingBox(), await button.boundingBox()];
  expect(l && b).toBeTruthy();
  const overlap = l!.x < b!.x + b!.width && b!.x < l!.x + l!.width && l!.y < b!.y + b!.height && b!.y < l!.y + l!.height;
  expect(overlap, `lista ${JSON.stringify(l)} sobre el botón ${JSON.stringify(b)}`).toBe(false);
  expect(b!.y).toBeGreaterThanOrEqual(l!.y + l!.height);
  await shot(page, info, `formularios-localidad-lista-${info.project.name === 'desktop' ? 'escritorio' : 'telefono'}`);

  // «Lanús» typed exactly is Lanús, Buenos Aires: the error and its summary line go, the focus stays in the field
  await locality.pressSequentially('nús');
  await expect(page.getByText('Elegiste Lanús, Buenos Aires.')).toBeVisible();
  await expect(locality).toHaveValue('Lanús, Buenos Aires');
  await expect(locality).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Escribí tu localidad y elegila de la lista.')).toHaveCount(0);
  await expect(summary).toHaveCount(0);
  await expect(locality).toBeFocused();
  await shot(page, info, `formularios-localidad-elegida-${info.project.name === 'desktop' ? 'escritorio' : 'telefono'}`);
  await button.click();
  await expect(page).toHaveURL(/\/seguro-hogar\/contacto$/);
  expect(await savedAnswers(page, 'localidad')).toMatchObject({
    idProvincia: '06',
    provincia: 'Buenos Aires',
    codLocalidad: '06434010',
    localidad: 'Lanús',
  });
});

for (const locale of ['es-AR', 'en-US']) {
  test.describe(`navegador en ${locale}`, () => {
    test.use({ locale });

    test(`12041985 es el 12 de abril de 1985; el resumen de errores nombra y enlaza cada dato (${locale})`, async ({ page }, info) => {
      await toLocalidad(page);
      const start = await toCotizacion(page, info);
      expect(await savedAnswers(page, 'vigencia')).toEqual({ initPolicyDate: start.iso });
      await page.locator('.plan--recommended .plan__head').click();
      await continuar(page);
      await expect(page).toHaveURL(/\/seguro-hogar\/adicionales$/);
      await continuar(page);
      await expect(page).toHaveURL(/\/seguro-hogar\/datos-personales$/);

      // an empty submit: the summary takes the focus and names every field, in the page's order, each a link
      await continuar(page);
      const summary = page.getByRole('alert').filter({ hasText: 'Revisá los datos marcados' });
      await expect(summary).toBeFocused();
      await expect(summary.getByRole('link')).toHaveText([
        'Nombre: Este dato es obligatorio.',
        'Apellido: Este dato es obligatorio.',
        'Número de documento: Este dato es obligatorio.',
        'Sexo según tu DNI: Este dato es obligatorio.',
        'Fecha de nacimiento: Este dato es obligatorio.',
        'Profesión u ocupación: Este dato es obligatorio.',
        '¿Sos persona expuesta políticamente?: Este dato es obligatorio.',
        '¿Sos sujeto obligado ante la UIF?: Este dato es obligatorio.',
        /^Acepto que .* \(Ley 25\.326\): Para continuar tenés que aceptar el tratamiento de tus datos personales\.$/,
      ]);
      await shot(page, info, `formularios-resumen-de-errores-${locale}`);
      await summary.getByRole('link', { name: 'Fecha de nacimiento: Este dato es obligatorio.' }).click();
      const birth = page.getByLabel('Fecha de nacimiento');
      await expect(birth).toBeFocused();
      await expect(
        page.getByText('Para contratar tenés que tener entre 18 y 99 años. Escribí día, mes y año; por ejemplo, 27/03/1985.'),
      ).toBeVisible();

      // 12041985 typed is 12 April 1985, in either language; its error goes, the focus stays
      await birth.pressSequentially('12041985');
      await expect(birth).toHaveValue('12/04/1985');
      await expect(birth).toBeFocused();
      await expect(summary.getByRole('link', { name: /^Fecha de nacimiento/ })).toHaveCount(0);
      await fillPersonalData(page, { ...ANA, birthDate: '12/04/1985' });
      await expect(birth).toHaveValue('12/04/1985');
      await shot(page, info, `formularios-datos-personales-${locale}`);
      await continuar(page);
      await expect(page).toHaveURL(/\/seguro-hogar\/datos-personales\/direccion$/);
      expect(await savedAnswers(page, 'datos-personales')).toMatchObject({ birthDate: '1985-04-12' });
    });
  });
}
