/**
 * Every journey fixture (tests/fixtures/journeys/*.json) replayed in Chromium against the built app and the real
 * API — the same replay `npm run replay` runs (tools/replay/browser.ts). One test per fixture.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type BrowserContext } from '@playwright/test';
import { loadReplayProduct } from '../../scripts/replay.ts';
import { replayInBrowser } from '../../tools/replay/browser.ts';
import { loadJourney } from '../../tools/replay/fixture.ts';
import { startOwnApi } from '../support/own-api.ts';
import { builtTree } from '../support/edited-tree.ts';
import { UNA_PANTALLA } from './journey';

const dir = 'tests/fixtures/journeys';
const product = loadReplayProduct('.');
const CONTEXT = { locale: 'es-AR', timezoneId: 'America/Argentina/Buenos_Aires' } as const;

/**
 * One browser context for the fixtures a worker replays (a context costs ~0.1 s idle, over 1 s on a loaded machine),
 * each fixture in a page of its own (its own sessionStorage, routes and init scripts). Between fixtures the context's
 * cookies go and each fixture's first document starts with an empty localStorage, so no fixture sees another's session
 * or saved answers; the HTTP cache stays, as a returning visitor's would.
 */
const replay = test.extend<object, { replayContext: BrowserContext }>({
  replayContext: [
    async ({ browser }, use) => {
      const context = await browser.newContext(CONTEXT);
      await use(context);
      await context.close();
    },
    { scope: 'worker' },
  ],
});

for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const journey = loadJourney(join(dir, file));
  // Playwright's fake clock belongs to the whole context and cannot be taken off: a fixture that moves time
  // (a `wait` action) gets a context of its own
  const movesTime = journey.steps.some((s) => s.actions?.some((a) => typeof a === 'object' && 'wait' in a));
  replay(`fixture ${journey.name}`, UNA_PANTALLA, async ({ browser, replayContext, baseURL }, info) => {
    const viewport = journey.viewport ?? { width: 390, height: 844 };
    const own = movesTime ? await browser.newContext({ ...CONTEXT, viewport }) : undefined;
    const context = own ?? replayContext;
    await context.clearCookies();
    const page = await context.newPage();
    try {
      await page.setViewportSize(viewport);
      // before replayInBrowser's init scripts (which seed the fixture's own localStorage), on the first document only
      await page.addInitScript(() => {
        try {
          if (sessionStorage.getItem('__fixture_limpia')) return;
          sessionStorage.setItem('__fixture_limpia', '1');
          localStorage.clear();
        } catch {
          // a document without storage (about:blank): nothing of the app runs there
        }
      });
      const reports = await replayInBrowser(page, journey, product, { baseUrl: baseURL as string });
      const failed = reports.find((r) => !r.ok);
      if (failed) await page.screenshot({ path: info.outputPath(`${journey.name}-paso-${failed.index}.png`), fullPage: true });
      expect(failed, failed ? `paso ${failed.index} (${failed.route}): ${failed.error}\n${failed.text ?? ''}` : '').toBeUndefined();
      expect(reports).toHaveLength(journey.steps.length);
    } finally {
      await page.close();
      await own?.close();
    }
  });
}

test('una fixture sigue reproduciéndose cuando cambian las etiquetas de los campos en es.json', UNA_PANTALLA, async ({ browser }) => {
  test.setTimeout(480_000); // a Vite build of the edited tree: seconds idle, minutes under load
  // a staffer relabels fields and options, JSON only
  const tree = await builtTree({
    'src/i18n/es.json': [
      { op: 'replace', path: '/metros/fields/metros/label', value: 'Metros cuadrados cubiertos' },
      { op: 'replace', path: '/propiedad/fields/tipoVivienda/options/DEPARTAMENTO', value: 'Depto.' },
      { op: 'replace', path: '/contacto/fields/email/label', value: 'Correo electrónico' },
    ],
  });
  // the app the fixture replays on shows the new labels, not the old ones
  const bundle = readdirSync(join(tree, 'dist/assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(join(tree, 'dist/assets', f), 'utf8'))
    .join('\n');
  expect(bundle).toContain('Metros cuadrados cubiertos');
  expect(bundle).not.toContain('Superficie cubierta');
  const data = mkdtempSync(join(tmpdir(), 'cotizador-etiquetas-datos-'));
  const server = await startOwnApi(data, {}, join(tree, 'dist'));
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
    rmSync(data, { recursive: true, force: true });
  }
});
