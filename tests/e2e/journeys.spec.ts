/**
 * Every journey fixture (tests/fixtures/journeys/*.json) replayed in Chromium against the built app and the real
 * API — the same replay `npm run replay` runs (src/testing/browser.ts). One test per fixture.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { loadReplayProduct } from '../../scripts/replay.ts';
import { replayInBrowser } from '../../src/testing/browser.ts';
import { loadJourney } from '../../src/testing/fixture.ts';

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
