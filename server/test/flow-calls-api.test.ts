/**
 * flow:check's contract check (scripts/check-calls.ts): every call of the flow, resolved on sample answers, against
 * the API's own request schemas — a misspelt field, a route the API does not have, or a forgotten wire edit is named
 * with the flow's pointer.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkCallsAgainstApi } from '../../scripts/check-calls.ts';
import { loadProduct } from '../src/producto.ts';
import type { FlowDef } from '../../src/core/flow/types.ts';
import { editedCopy } from '../../tests/support/edited-tree.ts';

const check = async (root: string) => {
  const p = loadProduct(root);
  return (await checkCallsAgainstApi(root, p.flow as FlowDef, p.schemas)).map((x) => x.pointer);
};

// each check builds the API in memory (a few seconds on this 2-core machine)
const SLOW = 60_000;

describe('the flow calls fit the API', () => {
  it(
    'the shipped flow and every worked example: no problem',
    async () => {
      expect(await check('.')).toEqual([]);
      const alarma = JSON.parse(readFileSync('tests/fixtures/flow-edits/agregar-alarma.json', 'utf8'));
      expect(await check(editedCopy(alarma.edits))).toEqual([]);
    },
    SLOW,
  );

  it(
    'a misspelt body field and a route the API does not have',
    async () => {
      const root = editedCopy({
        'flow/flow.json': [
          { op: 'add', path: '/calls/cotizar/body/metross', value: '/answers/metros/metros' },
          { op: 'replace', path: '/calls/recotizarAdicionales/path', value: '/cotizacion/datos-presupuestos' },
        ],
      });
      expect(await check(root)).toEqual(['/calls/cotizar/body/metross', '/calls/recotizarAdicionales/path']);
    },
    SLOW,
  );

  it(
    'a new question sent to the quote without the wire edit is refused by the API',
    async () => {
      const alarma = JSON.parse(readFileSync('tests/fixtures/flow-edits/agregar-alarma.json', 'utf8'));
      const { 'schemas/api/cotizacion.json': _wire, ...rest } = alarma.edits;
      expect(await check(editedCopy(rest))).toEqual(['/calls/cotizar/body/tieneAlarma']);
    },
    SLOW,
  );
});
