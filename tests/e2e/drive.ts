/**
 * Drives a visitor through whatever flow the built app runs, from the landing to the policy, with the replays' journey
 * driver (tools/replay/driver.ts): a journey that only says where it starts and where it ends, every step between
 * answered by field name from {@link ANSWERS} (and a step schema's first example for a field they do not answer), as
 * a replay follows a reordered or split flow (tools/replay/follow.ts). Used to buy through the worked examples of
 * docs/flow-format.md, whose order and steps differ from the shipped flow.
 */
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { stepById } from '../../src/engine/core/guards.ts';
import type { Journey } from '../../src/recorder/journey.ts';
import { replayInBrowser } from '../../tools/replay/browser.ts';
import type { Product } from '../../tools/replay/driver.ts';
import { loadJourney } from '../../tools/replay/fixture.ts';

const COMPRA = loadJourney(join(import.meta.dirname, '../fixtures/journeys/compra-cbu-casa.json'));

/**
 * The answers by field name: the shipped CBU purchase's, as a tenant (agregar-rama.json's branch) with an alarm
 * (agregar-alarma.json's new step).
 */
export const ANSWERS: Record<string, unknown> = {
  ...Object.assign({}, ...COMPRA.steps.map((s) => s.answers ?? {})),
  titularidad: 'INQUILINO',
  tieneAlarma: 'S',
};

/**
 * From the flow's landing (`baseUrl` + `/`) to its `gracias` step with a policy number.
 * @returns the ids of the steps shown, in order (`gracias` last)
 * @throws (test failure) naming the step that did not move on or was not answered, with the page's text
 */
export async function driveToResult(page: Page, product: Product, baseUrl: string): Promise<string[]> {
  const { flow } = product;
  const journey: Journey = {
    name: 'hasta-la-poliza',
    proves: 'se compra de punta a punta por el flujo que sea',
    url: '/',
    steps: [
      { route: stepById(flow, flow.entry).path, answers: ANSWERS },
      { route: stepById(flow, 'gracias').path, expect: { policyNumber: true } },
    ],
  };
  const visited: string[] = [];
  const reports = await replayInBrowser(page, journey, product, { baseUrl, timeoutMs: 30_000, onShown: (id) => visited.push(id) });
  const failed = reports.find((r) => !r.ok);
  expect(failed, `${failed?.route}: ${failed?.error}\n${failed?.text ?? ''}\nrecorrido: ${visited.join(' → ')}`).toBeUndefined();
  expect(reports.map((r) => r.route)).toEqual(journey.steps.map((s) => s.route));
  return visited;
}
