/**
 * The worked examples of docs/flow-format.md, bought through in Chromium: each example's JSON edits are applied to a
 * copy of the source tree (tests/support/edited-tree.ts), the copy is built as the product is (flow check,
 * validators, Vite; once per run, journeys-follow reuses the reordered one), served by the real API on a throw-away embedded database, and a visitor goes from the landing
 * to the thank-you page along the edited flow — no .ts/.tsx file changes for any of them.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { loadReplayProduct } from '../../scripts/replay.ts';
import type { ServerProcess } from '../../server/test/processes.ts';
import { startOwnApi } from '../support/own-api.ts';
import { builtTree, readExample, REPO } from '../support/edited-tree.ts';
import { driveToResult } from './drive';
import { trackRequests } from '../../tools/replay/settle.ts';
import { callMatches } from '../../tools/replay/fixture.ts';
import { UNA_PANTALLA } from './journey';

const dir = join(REPO, 'tests/fixtures/flow-edits');
const examples = readdirSync(dir).filter((f) => f.endsWith('.json'));

for (const name of examples) {
  test(`ejemplo ${name}: se compra de punta a punta con el flujo editado`, UNA_PANTALLA, async ({ page }, info) => {
    test.setTimeout(480_000); // a Vite build of the edited tree (once per run), seconds idle, minutes under load
    const example = readExample(join(dir, name));
    const tree = await builtTree(example.edits);
    const data = mkdtempSync(join(tmpdir(), 'cotizador-flow-edit-datos-'));
    const product = loadReplayProduct(tree);
    const { flow } = product;

    let server: ServerProcess | undefined;
    try {
      server = await startOwnApi(
        data,
        { SCHEMAS_DIR: join(tree, 'schemas'), TARIFF_FILE: join(tree, 'server/tariffs/2026-11.json') },
        join(tree, 'dist'),
      );
      trackRequests(page);
      await page.goto(`${server.url}/`);
      await expect(page).toHaveURL(new RegExp(`/${flow.basePath}$`));
      const made: { method: string; path: string; body?: unknown }[] = [];
      page.on('request', (r) => {
        const url = new URL(r.url());
        if (url.pathname.startsWith('/api/'))
          made.push({ method: r.method(), path: url.pathname.slice(4), body: r.postData() ? r.postDataJSON() : undefined });
      });
      const visited = await driveToResult(page, product, server.url);
      // the calls the example says its edit makes reach the API (e.g. the alarm's answer in the quote request)
      for (const want of example.llamadas ?? [])
        expect(
          made.some((m) => callMatches(want, m)),
          JSON.stringify(want),
        ).toBe(true);
      // the steps the example says its edit makes a visitor go through (when it says; every example buys a policy)
      if (example.recorrido) expect(visited, 'el recorrido que el ejemplo promete').toEqual(example.recorrido);
      await expect(page.getByTestId('poliza')).toHaveText(/^HOG-\d{4}-\d{6}$/, { timeout: 30_000 });
      await page.screenshot({ path: `tests/e2e/screenshots/flow-edits/${name.replace('.json', '')}.png`, fullPage: true });
      info.annotations.push({ type: 'recorrido', description: visited.join(' → ') });
    } finally {
      await server?.stop();
      rmSync(data, { recursive: true, force: true });
    }
  });
}
