/**
 * A structural edit of the flow keeps the fixture replays green with one command: after steps are
 * reordered, or a step is split in two, as JSON edits to a copy of the tree, `npm run flow:paths -- --write` alone
 * covers every path again with drafted fixtures, and every fixture — the 20 unedited ones (the replay answers
 * whatever step the flow shows from the fixture's answers, tools/replay/follow.ts) and the drafts — replays headless.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiVisitor } from '../../tools/check/walk.ts';
import { coverage } from '../../tools/replay/paths.ts';
import { replayHeadless } from '../../tools/replay/headless.ts';
import { loadJourneys } from '../../scripts/flow-paths.ts';
import { loadProduct } from '../src/producto.ts';
import { loadReplayProduct } from '../../scripts/replay.ts';
import { editedCopy, REPO, type FlowEditExample } from '../../tests/support/edited-tree.ts';
import { buildTestApp } from './helper.ts';
import { NODE_DE_PRUEBA } from './processes.ts';

const copies: string[] = [];
afterAll(() => copies.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A copy of the tree with `edits` and the repository's fixtures. */
function treeWith(edits: FlowEditExample['edits']): string {
  const root = editedCopy(edits);
  copies.push(root);
  cpSync(join(REPO, 'tests/fixtures/journeys'), join(root, 'tests/fixtures/journeys'), { recursive: true });
  return root;
}

/** Every fixture of `root` replayed headless against the API built over `root`'s schemas and tariff: name → failure or ''. */
async function replayAll(root: string): Promise<Record<string, string>> {
  const product = loadReplayProduct(root);
  const texts = loadProduct(root).texts;
  const app = await buildTestApp({
    schemasDir: join(root, 'schemas'),
    tariffFile: join(root, 'server/tariffs/2026-11.json'),
    rateLimitMax: 1_000_000,
    embudoLotesPorMinuto: 1_000_000,
    settings: { cotizacionesPorHoraPorIp: 1_000_000 },
  } as never);
  try {
    const out: Record<string, string> = {};
    for (const journey of loadJourneys(root)) {
      const reports = await replayHeadless(journey, product, { request: apiVisitor(app), texts });
      const failed = reports.find((r) => !r.ok);
      out[journey.name] = failed
        ? `paso ${failed.index} (${failed.route}): ${failed.error}`
        : reports.length === journey.steps.length
          ? ''
          : `${reports.length} de ${journey.steps.length} pasos`;
    }
    return out;
  } finally {
    await app.close();
  }
}

const green = (results: Record<string, string>) => Object.fromEntries(Object.keys(results).map((k) => [k, '']));

/** `npm run flow:paths -- --write` on `root`: its output. */
function writeDrafts(root: string): string {
  const run = spawnSync(process.execPath, [...NODE_DE_PRUEBA, join(REPO, 'scripts/flow-paths.ts'), '--root', root, '--write'], {
    cwd: REPO,
    encoding: 'utf8',
  });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  return run.stdout;
}

describe('a structural edit needs no fixture edit', () => {
  it('steps reordered (metros before permanencia): fixtures replay, and flow:paths --write covers every path again', async () => {
    const example = JSON.parse(readFileSync(join(REPO, 'tests/fixtures/flow-edits/reordenar.json'), 'utf8')) as FlowEditExample;
    const root = treeWith(example.edits);
    const flow = loadReplayProduct(root).flow;
    expect(coverage(flow, loadJourneys(root)).filter((r) => r.fixtures.length === 0)).toHaveLength(8);

    const out = writeDrafts(root);
    expect(out.match(/^borrador: /gm)).toHaveLength(8);
    expect(out).toContain('8 caminos, 8 con fixture');
    const drafted = loadJourneys(root).filter((j) => j.name.startsWith('camino-'));
    expect(drafted.map((j) => j.steps.map((s) => s.route.replace('seguro-hogar/', '')).slice(1, 5))).toEqual(
      Array(8).fill(['propiedad', 'metros', 'permanencia', 'localidad']),
    );
    expect(drafted.every((j) => j.proves.startsWith('POR COMPLETAR'))).toBe(true);
    const after = await replayAll(root);
    expect(Object.keys(after)).toHaveLength(28);
    expect(after).toEqual(green(after));
  }, 300_000);

  it('a step split in two (titularidad asked on its own step): fixtures replay, and flow:paths --write covers every path again', async () => {
    const root = treeWith({
      'schemas/titularidad.schema.json': [
        { op: 'add', path: '/$id', value: 'titularidad.schema.json' },
        { op: 'add', path: '/type', value: 'object' },
        { op: 'add', path: '/required', value: ['titularidad'] },
        { op: 'add', path: '/properties', value: { titularidad: { type: 'string', enum: ['PROPIETARIO', 'INQUILINO'] } } },
        { op: 'add', path: '/examples', value: [{ titularidad: 'PROPIETARIO' }] },
      ],
      'schemas/titularidad.ui.json': [{ op: 'add', path: '/titularidad', value: { 'ui:widget': 'ChoiceCardsWidget' } }],
      'schemas/permanencia.schema.json': [
        { op: 'remove', path: '/properties/titularidad' },
        { op: 'replace', path: '/required', value: ['usoVivienda'] },
        { op: 'replace', path: '/examples', value: [{ usoVivienda: 'PERMANENTE' }] },
      ],
      'schemas/permanencia.ui.json': [{ op: 'remove', path: '/titularidad' }],
      'schemas/api/cotizacion.json': [
        { op: 'replace', path: '/$defs/CotizarBody/properties/titularidad/$ref', value: 'titularidad.schema.json#/properties/titularidad' },
      ],
      // a saved journey of the previous version keeps its answer: it moves with the field
      'flow/migrations/3.json': [
        { op: 'add', path: '/from', value: 2 },
        { op: 'add', path: '/to', value: 3 },
        {
          op: 'add',
          path: '/operations',
          value: [{ op: 'move', from: '/answers/permanencia/titularidad', to: '/answers/titularidad/titularidad' }],
        },
      ],
      'flow/flow.json': [
        { op: 'replace', path: '/version', value: 3 },
        { op: 'replace', path: '/steps/2/next', value: 'titularidad' },
        { op: 'add', path: '/steps/3', value: { id: 'titularidad', flag: 'tenure', next: 'metros' } },
        { op: 'replace', path: '/calls/cotizar/body/titularidad', value: '/answers/titularidad/titularidad' },
      ],
    });
    const out = writeDrafts(root);
    expect(out.match(/^borrador: /gm)).toHaveLength(8);
    expect(out).toContain('8 caminos, 8 con fixture');
    const drafted = loadJourneys(root).find((j) => j.name.startsWith('camino-'))!;
    expect(drafted.steps.slice(2, 4)).toEqual([
      { route: 'seguro-hogar/permanencia', answers: { usoVivienda: 'PERMANENTE' } },
      { route: 'seguro-hogar/titularidad', answers: { titularidad: 'PROPIETARIO' } },
    ]);
    const after = await replayAll(root);
    expect(Object.keys(after)).toHaveLength(28);
    expect(after).toEqual(green(after));
  }, 300_000);
});
