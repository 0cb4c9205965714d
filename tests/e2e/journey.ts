/**
 * Steps of the visitor's journey, shared by the e2e specs. Each step is checked (axe, no sideways scroll) and saves a
 * screenshot (tests/e2e/screenshots/<project>/<nn>-<step>.png, git-ignored) before moving on, once per run ({@link shot}).
 */
import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import { expect, type Page, type TestInfo } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { settled, trackRequests } from '../../tools/replay/settle.ts';

/**
 * Checks the page (no horizontal scroll, axe) and saves its screenshot. A journey run with the testers' recorder on
 * (`?grabar`, kept across steps) saves under `<project>/grabador/`, so the recorder's bar never stands in for what a
 * visitor sees in the per-step screenshots.
 *
 * Many journeys go through the same steps (every purchase answers the house questions, and so on): each screenshot
 * name is one step state, and its axe scan and screenshot are done once per run and project, by the first test that
 * reaches it ({@link firstToReach}); a test reaching it later still waits for the page to settle and checks that it
 * does not scroll sideways. The saved screenshots are the same set as when every test wrote its own (the last one
 * written used to win).
 */
export async function shot(page: Page, info: TestInfo, name: string) {
  await settled(page).catch(() => undefined);
  await expectNoHorizontalScroll(page);
  const dir = new URL(page.url()).searchParams.has('grabar') ? `${info.project.name}/grabador` : info.project.name;
  if (!firstToReach(`${dir}/${name}`)) return;
  await expectAccessible(page);
  await page.screenshot({ path: `tests/e2e/screenshots/${dir}/${name}.png`, fullPage: true });
}

/**
 * True for the first caller in this test run to ask for `key` (a screenshot's `<folder>/<name>`), across the worker
 * processes: it creates `$E2E_DATA_DIR/capturas/<key>` exclusively (the shared server's data folder, new for each
 * run: playwright.config.ts). True always when `E2E_DATA_DIR` is unset (a spec run outside the config).
 */
function firstToReach(key: string): boolean {
  const base = process.env.E2E_DATA_DIR;
  if (!base) return true;
  const file = join(base, 'capturas', key);
  mkdirSync(dirname(file), { recursive: true });
  try {
    writeFileSync(file, '', { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/**
 * The details of a test that checks nothing a viewport changes (guards, failures, the flow tools, fixtures that declare
 * their own viewport): playwright.config.ts runs the tests tagged with it on the phone only (the desktop project's
 * `grepInvert`), where they are neither started nor listed as skipped.
 */
export const UNA_PANTALLA = { tag: '@una-pantalla' };

export const continuar = (page: Page) => page.getByRole('button', { name: 'Continuar', exact: true }).click();

/** Today in Argentina + `days`, as the date fields show it: dd/mm/aaaa. */
export function arInDays(days: number): string {
  const [y, m, d] = new Date().toLocaleDateString('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).split('-').map(Number);
  const t = new Date(Date.UTC(y!, m! - 1, d! + days));
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(t.getUTCDate())}/${p(t.getUTCMonth() + 1)}/${t.getUTCFullYear()}`;
}

/** The e-mail typed on contacto unless a test gives its own (tests/e2e/correo.ts › buzon, for a test that reads its mail). */
export const ANA_EMAIL = 'ana.perez@example.com';

/**
 * From the landing to the quote screen; returns with the plans visible.
 * @param telefono the mobile typed on contacto: area code without 0 and number without 15, 10 digits together
 * @param email the e-mail typed on contacto, where the quote and the policy are sent
 */
export async function quoteAHome(
  page: Page,
  info: TestInfo,
  query = '',
  telefono = { areaCod: '11', numero: '55551234' },
  email = ANA_EMAIL,
) {
  await answerHouseQuestions(page, info, query, telefono, email);
  await page.getByRole('button', { name: 'Ver mi cotización' }).click();

  await expect(page).toHaveURL(/\/seguro-hogar\/cotizacion/);
  await expect(page.locator('.plan')).toHaveCount(3);
  await expect(page.locator('.plan__amount').first()).toHaveText(/^\$\u00a0[\d.]+,\d{2}$/);
}

/** From the landing page through the house questions to a filled-in «vigencia» step, not yet submitted (`telefono`, `email` as in quoteAHome). */
export async function answerHouseQuestions(
  page: Page,
  info: TestInfo,
  query = '',
  telefono = { areaCod: '11', numero: '55551234' },
  email = ANA_EMAIL,
) {
  trackRequests(page);
  await page.goto(`/${query}`);
  await expect(page).toHaveURL(new RegExp(`/seguro-hogar${query.replace('?', '\\?')}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Asegurá tu hogar en minutos');
  await shot(page, info, '01-inicio');
  await page.getByRole('button', { name: 'Cotizar ahora' }).click();

  await expect(page).toHaveURL(/\/seguro-hogar\/propiedad/);
  await page.getByLabel(/^Casa/).check();
  await page.getByLabel('No', { exact: true }).check();
  await shot(page, info, '02-propiedad');
  await continuar(page);

  await expect(page).toHaveURL(/\/seguro-hogar\/permanencia/);
  await page.getByLabel('Sí, es mi vivienda permanente').check();
  await page.getByLabel('Soy propietario/a').check();
  await shot(page, info, '03-permanencia');
  await continuar(page);

  await expect(page).toHaveURL(/\/seguro-hogar\/metros/);
  await page.getByLabel('Superficie cubierta').fill('80');
  await shot(page, info, '04-metros');
  await continuar(page);

  await expect(page).toHaveURL(/\/seguro-hogar\/localidad/);
  await page.getByLabel('Localidad').fill('Lanú');
  await page
    .getByRole('listbox')
    .getByRole('option', { name: /^Lanús, Buenos Aires/ })
    .click();
  await shot(page, info, '05-localidad');
  await continuar(page);

  await expect(page).toHaveURL(/\/seguro-hogar\/contacto/);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Celular').fill(`${telefono.areaCod} ${telefono.numero}`);
  await shot(page, info, '06-contacto');
  await continuar(page);

  await expect(page).toHaveURL(/\/seguro-hogar\/vigencia/);
  // the start comes chosen (tomorrow): nothing to answer here
  await expect(page.getByLabel('Inicio de la cobertura')).toHaveValue(arInDays(1));
  await shot(page, info, '07-vigencia');
}

export interface Person {
  firstName: string;
  lastName: string;
  dni: string;
  sexo: 'Femenino' | 'Masculino' | 'X';
  birthDate: string;
  actividad: string;
}

export const ANA: Person = {
  firstName: 'Ana',
  lastName: 'Pérez',
  dni: '30123456',
  sexo: 'Femenino',
  birthDate: '1985-05-10',
  actividad: 'Docente',
};

/** Fills the personal-data step (answers "No" to both sworn-statement questions). */
export async function fillPersonalData(page: Page, p: Person) {
  await page.getByLabel('Nombre', { exact: true }).fill(p.firstName);
  await page.getByLabel('Apellido').fill(p.lastName);
  await page.getByLabel('Número de documento').fill(p.dni);
  await page.getByLabel(p.sexo, { exact: true }).check();
  await page.getByLabel('Fecha de nacimiento').fill(p.birthDate);
  await page.getByLabel('Profesión u ocupación').fill(p.actividad);
  await page.locator('[data-field="ppe"]').getByLabel('No').check();
  await page.locator('[data-field="lyt"]').getByLabel('No').check();
  await page.getByLabel(/trate mis datos personales/).check();
}

/** From the quote to the payment step, choosing a plan and one optional coverage. */
export async function choosePlanAndPersonalData(page: Page, info: TestInfo) {
  await shot(page, info, '08-cotizacion');
  await page.locator('.plan--recommended .plan__head').click();
  await continuar(page);

  await expect(page).toHaveURL(/\/seguro-hogar\/adicionales/);
  const premio = page.getByTestId('premio-cuota');
  const before = await premio.textContent();
  await page.locator('.toggle__name').first().click();
  await expect(page.getByRole('switch').first()).toBeChecked();
  await expect(premio).not.toHaveText(before ?? '');
  await shot(page, info, '09-adicionales');
  await continuar(page);

  await expect(page).toHaveURL(/\/seguro-hogar\/datos-personales(\?|$)/);
  await fillPersonalData(page, ANA);
  await shot(page, info, '10-datos-personales');
  await continuar(page);

  await expect(page).toHaveURL(/\/seguro-hogar\/datos-personales\/direccion/);
  await expect(page.getByLabel('Localidad')).toHaveValue('Lanús');
  await page.getByLabel('Calle').fill('Av. Hipólito Yrigoyen');
  await page.getByLabel('Número', { exact: true }).fill('4200');
  await page.getByLabel('Código postal').fill('1824');
  await page.getByLabel(/Leí y acepto/).check();
  await shot(page, info, '11-direccion');
  await continuar(page);

  await expect(page).toHaveURL(/\/seguro-hogar\/confirmar-datos-personales/);
  await expect(page.getByText('Ana Pérez')).toBeVisible();
  await shot(page, info, '12-confirmar-datos-personales');
  await page.getByRole('button', { name: 'Confirmar datos' }).click();
  await expect(page).toHaveURL(/\/seguro-hogar\/metodo-de-pago/);
}

export async function payWithCard(page: Page, info: TestInfo, number = '4242 4242 4242 4242') {
  await page.getByLabel('Tarjeta de crédito').check();
  await page.getByLabel('Nombre como figura en la tarjeta').fill('ANA PEREZ');
  await page.getByLabel('Número de tarjeta').fill(number);
  await page.getByLabel('Vencimiento').fill('1230');
  await shot(page, info, '13-metodo-de-pago');
  await continuar(page);
  await expect(page).toHaveURL(/\/seguro-hogar\/confirmacion/);
}

export async function payWithCbu(page: Page, info: TestInfo, cbu = '2850590909400904181356') {
  await page.getByLabel('Débito en cuenta (CBU)').check();
  await page.getByLabel('CBU', { exact: true }).fill(cbu);
  await shot(page, info, '13-metodo-de-pago-cbu');
  await continuar(page);
  await expect(page).toHaveURL(/\/seguro-hogar\/confirmacion/);
}

/** Everything the app keeps in localStorage, as one string. */
export async function storageDump(page: Page): Promise<string> {
  return page.evaluate(() => JSON.stringify({ ...window.localStorage }));
}

/** Fails when the page scrolls sideways (content wider than the viewport). */
export async function expectNoHorizontalScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, 'la página no debe desplazarse en horizontal').toBeLessThanOrEqual(client);
}

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * axe-core (WCAG 2.1 A/AA rules) finds no serious or critical violation on the page as it is now. axe is injected once
 * per document and run there (`axe.run`, the same rules and tags): @axe-core/playwright's `analyze()` injected it again
 * on every call and finished each run in a new blank page (~1 s a screenshot here, ~0.2 s this way). A page with frames
 * still goes through `analyze()`, which injects axe into each frame.
 */
export async function expectAccessible(page: Page) {
  let violations: { id: string; help: string; impact?: string | null; nodes: { target: unknown[] }[] }[];
  if (page.frames().length > 1) {
    ({ violations } = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze());
  } else {
    if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
    violations = await page.evaluate(
      (tags) =>
        (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: { type: 'tag', values: tags } }).then((r) => r.violations),
      AXE_TAGS,
    );
  }
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.help} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    );
  expect(serious, 'violaciones de accesibilidad').toEqual([]);
}
