/**
 * Every path through the shipped flow has a journey fixture (a new branch without one fails the suite, naming the
 * path), and the path rules: branches, conditional-call variants, detours.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadJourneys } from '../../scripts/flow-paths.ts';
import { loadReplayProduct } from '../../scripts/replay.ts';
import { compileFlowNode } from '../../tools/check/conditions.ts';
import type { FlowDef } from '../../src/core/flow/types.ts';
import { coverage, covers, enumeratePaths } from '../../tools/replay/paths.ts';
import { editedCopy } from '../support/edited-tree.ts';

const { flow } = loadReplayProduct('.');
const journeys = loadJourneys('.');

describe('flow:paths', () => {
  it('every path through the shipped flow has a fixture', () => {
    const missing = coverage(flow, journeys)
      .filter((r) => r.fixtures.length === 0)
      .map((r) => r.path.name);
    expect(missing, 'caminos sin fixture (npm run flow:paths)').toEqual([]);
  });

  it('paths are the branches times the variants of conditional calls', () => {
    const paths = enumeratePaths(flow);
    const results = new Set(paths.map((p) => p.steps.at(-1)));
    expect([...results].sort()).toEqual(
      flow.steps
        .filter((s) => s.kind === 'result')
        .map((s) => s.id)
        .sort(),
    );
    // one step with two exclusive call conditions (card / CBU) and one with a single one (campaign or not)
    expect(paths.length).toBe(results.size * 2 * 2);
  });

  it('a new branch is a new path that no fixture covers until someone records one', () => {
    const example = JSON.parse(readFileSync('tests/fixtures/flow-edits/agregar-rama.json', 'utf8'));
    const edited = compileFlowNode(JSON.parse(readFileSync(`${editedCopy(example.edits)}/flow/flow.json`, 'utf8')) as FlowDef);
    const missing = coverage(edited, journeys)
      .filter((r) => r.fixtures.length === 0)
      .map((r) => r.path.name);
    expect(missing.length).toBeGreaterThan(0);
    expect(missing.every((name) => name.includes('aviso-inquilino'))).toBe(true);
  });

  it('a variant is judged on the last visit of its step: a rejected card retried with a CBU covers the CBU path', () => {
    const retried = journeys.find((j) => j.name === 'emision-rechazada-otro-medio')!;
    const byLabel = (result: string, variant: string) =>
      enumeratePaths(flow).find(
        (p) => p.steps.at(-1) === result && p.name.includes(`metodo-de-pago: ${variant}`) && p.name.includes('no hayCampania'),
      )!;
    expect(covers(flow, byLabel('gracias', 'pagoConCbu'), retried)).toBe(true);
    expect(covers(flow, byLabel('gracias', 'pagoConTarjeta'), retried)).toBe(false);
    expect(covers(flow, byLabel('error', 'pagoConTarjeta'), retried)).toBe(true);
  });
});
