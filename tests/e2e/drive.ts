/**
 * Drives a journey through whatever flow the built app runs, step by step: reads the route, finds the step in the
 * compiled flow, answers it (the shipped steps' answers below, as a visitor would: by label), presses the step's
 * primary button, and stops on a result step. Used to buy through the worked examples of docs/flow-format.md,
 * whose order and steps differ from the shipped flow.
 */
import { expect, type Page } from '@playwright/test';
import { stepByPath } from '../../src/engine/core/guards.ts';
import type { Flow } from '../../src/engine/core/types.ts';
import { settled } from '../../src/testing/settle.ts';
import { ANA, fillPersonalData } from './journey';

function isoInDays(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return d.toISOString().slice(0, 10);
}

/** How a visitor answers each step (by step id); a step with no entry is only confirmed. */
export const ANSWERS: Record<string, (page: Page) => Promise<void>> = {
  propiedad: async (page) => {
    await page.getByLabel(/^Casa/).check();
    await page.getByLabel('No', { exact: true }).check();
  },
  permanencia: async (page) => {
    await page.getByLabel('Sí, es mi vivienda permanente').check();
    await page.getByLabel(/^Alquilo/).check(); // a tenant: takes the branch of agregar-rama.json
  },
  metros: (page) => page.getByLabel('Superficie cubierta').fill('80'),
  alarma: (page) => page.getByLabel('Sí', { exact: true }).check(),
  localidad: async (page) => {
    await page.getByLabel('Localidad').fill('Lanú');
    await page.getByRole('listbox').getByRole('option', { name: /^Lanús, Buenos Aires/ }).click();
  },
  contacto: async (page) => {
    await page.getByLabel('E-mail').fill('ana.perez@example.com');
    await page.getByLabel('Celular').fill('11 5555-1234');
  },
  vigencia: (page) => page.getByLabel('Inicio de la cobertura').fill(isoInDays(2)),
  cotizacion: async (page) => {
    await expect(page.locator('.plan').first()).toBeVisible();
    await page.locator('.plan--recommended .plan__head').click();
  },
  'datos-personales': (page) => fillPersonalData(page, ANA),
  direccion: async (page) => {
    await page.getByLabel('Calle').fill('Av. Hipólito Yrigoyen');
    await page.getByLabel('Número', { exact: true }).fill('4200');
    await page.getByLabel('Código postal').fill('1824');
    await page.getByLabel(/Leí y acepto/).check();
  },
  'metodo-de-pago': async (page) => {
    await page.getByLabel('Débito en cuenta (CBU)').check();
    await page.getByLabel('CBU', { exact: true }).fill('2850590909400904181356');
  },
};

/**
 * From the current page to a result step of `flow`.
 * @returns the ids of the steps visited, in order (the result step last)
 * @throws (test failure) when a route is not a step of `flow`, or a step does not move on within the timeout
 */
export async function driveToResult(page: Page, flow: Flow, opts: { onStep?: (id: string) => Promise<void> } = {}): Promise<string[]> {
  const visited: string[] = [];
  for (let i = 0; i < flow.steps.length * 2; i++) {
    await settled(page).catch(() => undefined);
    const path = decodeURIComponent(new URL(page.url()).pathname).replace(/^\//, '');
    const step = stepByPath(flow, path);
    expect(step, `la ruta /${path} no es un paso del flujo`).toBeDefined();
    visited.push(step!.id);
    await opts.onStep?.(step!.id);
    if (step!.kind === 'result') return visited;
    await ANSWERS[step!.id]?.(page);
    const before = page.url();
    await page.locator('main .button--primary').first().click();
    await expect(page).not.toHaveURL(before, { timeout: 30_000 });
  }
  throw new Error(`no se llegó a un resultado: ${visited.join(' → ')}`);
}
