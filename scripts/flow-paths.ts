/**
 * `npm run flow:paths [--root DIR]` — the distinct paths through the flow (src/testing/paths.ts) and the journey
 * fixtures (tests/fixtures/journeys) that cover each. Exit 1, naming them, when a path has no fixture. Then, for
 * information, the option values (schema enums, the tariff's plans and optional coverages) no fixture answers
 * (src/testing/exercised.ts).
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadJourney, type Journey } from '../src/testing/fixture.ts';
import { coverage } from '../src/testing/paths.ts';
import { unexercisedOptions } from '../src/testing/exercised.ts';
import { loadReplayProduct, tariffOptions } from './replay.ts';

/** The fixtures under `root`/tests/fixtures/journeys. */
export function loadJourneys(root: string): Journey[] {
  const dir = join(root, 'tests/fixtures/journeys');
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => loadJourney(join(dir, f)));
}

function main(): number {
  const at = process.argv.indexOf('--root');
  const root = resolve(at >= 0 ? process.argv[at + 1] : fileURLToPath(new URL('..', import.meta.url)));
  const product = loadReplayProduct(root);
  const { flow } = product;
  const journeys = loadJourneys(root);
  const rows = coverage(flow, journeys);
  for (const [i, { path, fixtures }] of rows.entries()) {
    console.log(`${fixtures.length ? '✓' : '✗'} ${String(i + 1).padStart(2)}. ${path.name}`);
    console.log(`      ${fixtures.length ? fixtures.join(', ') : 'SIN FIXTURE: grabá o escribí uno (tests/fixtures/journeys/)'}`);
  }
  const missing = rows.filter((r) => r.fixtures.length === 0);
  console.log(`\n${rows.length} caminos, ${rows.length - missing.length} con fixture${missing.length ? `, ${missing.length} sin fixture` : ''}`);
  const unused = unexercisedOptions(product, journeys, tariffOptions(join(root, 'server/tariffs/2026-11.json')));
  if (unused.length) {
    console.log('\nValores que ningún fixture elige (planes y coberturas opcionales: de la tarifa):');
    for (const u of unused) console.log(`  ${`${u.step} › ${u.field}`.padEnd(46)} ${u.missing.join(', ')}  (${u.total - u.missing.length}/${u.total} usados)`);
  } else console.log('\nTodos los valores de opciones los elige algún fixture.');
  return missing.length ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(main());
