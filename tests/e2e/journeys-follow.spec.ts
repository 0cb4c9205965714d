/**
 * The browser replay follows the flow (tools/replay/follow.ts): on a build of the tree with two steps reordered (metros
 * before permanencia, tests/fixtures/flow-edits/reordenar.json), an unedited fixture — including one whose Back
 * detour was written for the old order — replays in Chromium, answering the steps where the flow now shows them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { loadReplayProduct } from '../../scripts/replay.ts';
import { replayInBrowser } from '../../tools/replay/browser.ts';
import { loadJourney } from '../../tools/replay/fixture.ts';
import { startOwnApi } from '../support/own-api.ts';
import { builtTree, type FlowEditExample } from '../support/edited-tree.ts';
import { UNA_PANTALLA } from './journey';

test('una fixture sin editar se reproduce en Chromium con los pasos reordenados', UNA_PANTALLA, async ({ browser }) => {
  test.setTimeout(300_000);
  const example = JSON.parse(readFileSync('tests/fixtures/flow-edits/reordenar.json', 'utf8')) as FlowEditExample;
  // the same build as flow-edits.spec.ts's reordenar example (built once per run)
  const tree = await builtTree(example.edits);
  const data = mkdtempSync(join(tmpdir(), 'cotizador-reordenado-datos-'));
  const server = await startOwnApi(data, {}, join(tree, 'dist'));
  try {
    for (const name of ['compra-cbu-casa', 'atras-del-navegador']) {
      const journey = loadJourney(join('tests/fixtures/journeys', `${name}.json`));
      const context = await browser.newContext({
        viewport: journey.viewport,
        locale: 'es-AR',
        timezoneId: 'America/Argentina/Buenos_Aires',
      });
      const page = await context.newPage();
      const reports = await replayInBrowser(page, journey, loadReplayProduct(tree), { baseUrl: server.url });
      await context.close();
      const failed = reports.find((r) => !r.ok);
      expect(failed, failed ? `${name} paso ${failed.index} (${failed.route}): ${failed.error}` : '').toBeUndefined();
      expect(reports.map((r) => r.route.replace('seguro-hogar/', '')).slice(1, 4), name).toEqual(['propiedad', 'metros', 'permanencia']);
      expect(reports, name).toHaveLength(journey.steps.length);
    }
  } finally {
    await server.stop();
    rmSync(data, { recursive: true, force: true });
  }
});
