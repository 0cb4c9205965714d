/**
 * `npm run flow:paths [--root DIR] [--write]` — the distinct paths through the flow (tools/replay/paths.ts) and the
 * journey fixtures (tests/fixtures/journeys) that cover each. Exit 1, naming them, when a path has no fixture.
 * `--write` first drafts a fixture for each path no fixture covers, from the flow walker's generated answers
 * (tools/check/walk.ts), as tests/fixtures/journeys/camino-….json with a `proves` for the tester to fill in.
 * Then, for information, the option values (schema enums, the tariff's plans and optional coverages) no fixture
 * answers (tools/replay/exercised.ts).
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadJourney, type Journey } from '../tools/replay/fixture.ts';
import { coverage, type FlowPath } from '../tools/replay/paths.ts';
import { unexercisedOptions } from '../tools/replay/exercised.ts';
import { loadReplayProduct, tariffOptions } from './replay.ts';
import { usarPlantillaDeHerramientas } from '../tools/plantilla.ts';

/** The fixtures under `root`/tests/fixtures/journeys. */
export function loadJourneys(root: string): Journey[] {
  const dir = join(root, 'tests/fixtures/journeys');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => loadJourney(join(dir, f)));
}

/** What a drafted fixture says it proves until a tester writes it (flow:paths flags every fixture that still says so). */
export const PROVES_DRAFT = 'POR COMPLETAR (borrador de flow:paths --write):';

/** A file name for the draft of `path`: `camino-<result>-<variants>`. */
function draftName(path: FlowPath): string {
  const parts = [path.steps.at(-1) ?? '', ...path.variants.map((v) => `${v.holds ? '' : 'no-'}${v.when}`)];
  return `camino-${parts.join('-')}`.replace(/[^\w-]+/g, '-').toLowerCase();
}

/**
 * Drafts a fixture for every path of the flow under `root` that no fixture covers (see the module doc).
 * @returns the files written (repo-relative)
 */
export async function writeDrafts(root: string): Promise<string[]> {
  const { flow } = loadReplayProduct(root);
  const missing = coverage(flow, loadJourneys(root)).filter((r) => r.fixtures.length === 0);
  if (missing.length === 0) return [];
  const { walkProduct } = await import('./flow-walk.ts');
  const report = await walkProduct(root);
  const written: string[] = [];
  for (const { path } of missing) {
    const draft = report.drafts.get(path.name);
    if (!draft) continue;
    let name = draftName(path);
    for (let n = 2; existsSync(join(root, 'tests/fixtures/journeys', `${name}.json`)); n++) name = `${draftName(path)}-${n}`;
    const file = `tests/fixtures/journeys/${name}.json`;
    const fixture = {
      $schema: '../../../flow/journey.schema.json',
      name,
      proves: `${PROVES_DRAFT} qué muestra el camino ${path.name}`,
      url: draft.url,
      steps: draft.steps,
    };
    writeFileSync(join(root, file), JSON.stringify(fixture, null, 2) + '\n');
    written.push(file);
  }
  return written;
}

async function main(): Promise<number> {
  usarPlantillaDeHerramientas();
  const at = process.argv.indexOf('--root');
  const root = resolve(at >= 0 ? process.argv[at + 1] : fileURLToPath(new URL('..', import.meta.url)));
  const product = loadReplayProduct(root);
  const { flow } = product;
  if (process.argv.includes('--write')) {
    for (const file of await writeDrafts(root)) console.log(`borrador: ${file} — completá "proves" con lo que muestra`);
  }
  const journeys = loadJourneys(root);
  for (const j of journeys.filter((x) => x.proves.startsWith(PROVES_DRAFT)))
    console.log(`aviso: ${j.name} es un borrador: completá "proves"`);
  const rows = coverage(flow, journeys);
  for (const [i, { path, fixtures }] of rows.entries()) {
    console.log(`${fixtures.length ? '✓' : '✗'} ${String(i + 1).padStart(2)}. ${path.name}`);
    console.log(`      ${fixtures.length ? fixtures.join(', ') : 'SIN FIXTURE: grabá o escribí uno (tests/fixtures/journeys/)'}`);
  }
  const missing = rows.filter((r) => r.fixtures.length === 0);
  console.log(
    `\n${rows.length} caminos, ${rows.length - missing.length} con fixture${missing.length ? `, ${missing.length} sin fixture` : ''}`,
  );
  const unused = unexercisedOptions(product, journeys, tariffOptions(join(root, 'server/tariffs/2026-11.json')));
  if (unused.length) {
    console.log('\nValores que ningún fixture elige (planes y coberturas opcionales: de la tarifa):');
    for (const u of unused)
      console.log(`  ${`${u.step} › ${u.field}`.padEnd(46)} ${u.missing.join(', ')}  (${u.total - u.missing.length}/${u.total} usados)`);
  } else console.log('\nTodos los valores de opciones los elige algún fixture.');
  return missing.length ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main().then((code) => process.exit(code));
