/**
 * Every journey fixture (tests/fixtures/journeys/*.json) replayed in Chromium against the built app and the real
 * API — the same replay `npm run replay` runs (tools/replay/browser.ts). One test per fixture.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { loadReplayProduct } from '../../scripts/replay.ts';
import { replayInBrowser } from '../../tools/replay/browser.ts';
import { loadJourney } from '../../tools/replay/fixture.ts';
import { startServer } from '../../server/test/processes.ts';
import { buildTree, writeEditedTree } from '../support/edited-tree.ts';

const dir = 'tests/fixtures/journeys';
const product = loadReplayProduct('.');

for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
  const journey = loadJourney(join(dir, file));
  test(`fixture ${journey.name}`, async ({ browser, baseURL }, info) => {
    test.skip(info.project.name !== 'mobile', 'cada fixture declara su viewport: se reproduce una vez');
    const context = await browser.newContext({ viewport: journey.viewport ?? { width: 390, height: 844 }, locale: 'es-AR', timezoneId: 'America/Argentina/Buenos_Aires' });
    const page = await context.newPage();
    const reports = await replayInBrowser(page, journey, product, { baseUrl: baseURL as string });
    const failed = reports.find((r) => !r.ok);
    if (failed) await page.screenshot({ path: info.outputPath(`${journey.name}-paso-${failed.index}.png`), fullPage: true });
    await context.close();
    expect(failed, failed ? `paso ${failed.index} (${failed.route}): ${failed.error}\n${failed.text ?? ''}` : '').toBeUndefined();
    expect(reports).toHaveLength(journey.steps.length);
  });
}

test('una fixture sigue reproduciéndose cuando cambian las etiquetas de los campos en es.json', async ({ browser }, info) => {
  test.skip(info.project.name !== 'mobile', 'una vez alcanza');
  test.setTimeout(180_000);
  // a staffer relabels fields and options, JSON only
  const tree = `/tmp/cotizador-etiquetas-${process.pid}`;
  writeEditedTree(
    {
      edits: {
        'src/i18n/es.json': [
          { op: 'replace', path: '/metros/fields/metros/label', value: 'Metros cuadrados cubiertos' },
          { op: 'replace', path: '/propiedad/fields/tipoVivienda/options/DEPARTAMENTO', value: 'Depto.' },
          { op: 'replace', path: '/contacto/fields/email/label', value: 'Correo electrónico' },
        ],
      },
    },
    tree,
  );
  buildTree(tree);
  // the app the fixture replays on shows the new labels, not the old ones
  const bundle = readdirSync(join(tree, 'dist/assets')).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(tree, 'dist/assets', f), 'utf8')).join('\n');
  expect(bundle).toContain('Metros cuadrados cubiertos');
  expect(bundle).not.toContain('Superficie cubierta');
  const server = await startServer(0, { STATIC_DIR: join(tree, 'dist'), DATA_DIR: join(tree, 'data'), EMISSION_DELAY_MS: '200', NODE_ENV: 'test', RATE_LIMIT_MAX: '100000', COTIZACIONES_POR_HORA: '100000' });
  try {
    const journey = loadJourney(join(dir, 'compra-cbu-departamento.json'));
    const context = await browser.newContext({ viewport: journey.viewport, locale: 'es-AR', timezoneId: 'America/Argentina/Buenos_Aires' });
    const page = await context.newPage();
    const reports = await replayInBrowser(page, journey, loadReplayProduct(tree), { baseUrl: server.url });
    await context.close();
    const failed = reports.find((r) => !r.ok);
    expect(failed, failed ? `paso ${failed.index} (${failed.route}): ${failed.error}` : '').toBeUndefined();
    expect(reports).toHaveLength(journey.steps.length);
  } finally {
    await server.stop();
  }
});
