/**
 * The flow walker (src/check/walk.ts, run by `npm run flow:check`): on the shipped product it walks every path and
 * finds nothing; on a copy of the tree with one planted disagreement (a JSON edit a staffer could make) it names the
 * answer, the two files and pointers that disagree and what to change.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { walkFlow, type WalkReport } from '../../src/check/walk.ts';
import { loadProduct } from '../../scripts/flow-check.ts';
import { walkProduct } from '../../scripts/flow-walk.ts';
import { loadReplayProduct } from '../../scripts/replay.ts';
import { editedCopy, type FlowEditExample } from '../../tests/support/edited-tree.ts';

const copies: string[] = [];
afterAll(() => copies.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Walks a copy of the tree with `edits`, the first group of paths only (every generated value is sent in it). */
async function walkEdited(edits: FlowEditExample['edits']): Promise<WalkReport> {
  const root = editedCopy(edits);
  copies.push(root);
  return walkFlow({ root, product: loadReplayProduct(root), texts: loadProduct(root).texts, seed: 2026, groups: 1 });
}

const errors = (r: WalkReport) => r.problems.filter((p) => (p.severity ?? 'error') === 'error');

describe('the flow walker', () => {
  it('walks every path of the shipped flow with every generated answer and finds nothing', async () => {
    const report = await walkProduct('.', { quiet: true, seed: 2026 });
    expect(report.problems).toEqual([]);
    expect(report.paths.map((p) => p.reached)).toEqual(Array(8).fill(true));
    // 4 groups of paths (campaign or not × card or CBU; the result is the server's) × the most rows of a step on them
    expect(report.journeys).toBe(24);
    expect(report.drafts.size).toBe(8);
  }, 180_000);

  it('a tariff band removed: 1000 m² is accepted by the step and refused by the tariff', async () => {
    const report = await walkEdited({
      'server/tariffs/2026-11.json': [
        { op: 'remove', path: '/superficie/bandas/5' },
        { op: 'replace', path: '/superficie/max', value: 500 },
      ],
    });
    const found = errors(report).filter((p) => p.file === 'schemas/metros.schema.json');
    expect(found.map((p) => p.pointer)).toEqual(['/properties/metros/maximum']);
    expect(found[0].message).toContain('paso «metros»: el paso acepta metros = 999 (justo debajo del máximo)');
    expect(found[0].message).toContain('«cotizar» (POST /api/cotizacion/cotizar, al enviar el paso «vigencia») lo rechaza: «Ingresá un número entre 20 y 500.»');
    expect(found[0].message).toContain('No coinciden schemas/metros.schema.json#/properties/metros/maximum y server/tariffs/2026-11.json#/superficie');
  }, 120_000);

  it('a factor missing for an enum value: TEMPORAL has no usoVivienda factor', async () => {
    const report = await walkEdited({ 'server/tariffs/2026-11.json': [{ op: 'remove', path: '/factores/1/valores/TEMPORAL' }] });
    const found = errors(report);
    expect(found.map((p) => `${p.file}#${p.pointer}`)).toEqual(['schemas/permanencia.schema.json#/properties/usoVivienda/enum/1']);
    expect(found[0].message).toContain('el paso acepta usoVivienda = "TEMPORAL" (valor de enum)');
    expect(found[0].message).toContain('No coinciden schemas/permanencia.schema.json#/properties/usoVivienda/enum/1 y server/tariffs/2026-11.json#/factores/1/valores');
    expect(found[0].message).toContain('agregá ese valor a la tarifa');
  }, 120_000);

  it('a later call requires a field the flow does not ask: named in the request schema and in the flow', async () => {
    const report = await walkEdited({
      'schemas/api/cotizacion.json': [
        { op: 'add', path: '/$defs/CotizarBody/required/-', value: 'antiguedad' },
        { op: 'add', path: '/$defs/CotizarBody/properties/antiguedad', value: { type: 'integer', minimum: 0 } },
      ],
      'flow/flow.json': [{ op: 'add', path: '/calls/cotizar/body/antiguedad', value: '/answers/metros/antiguedad' }],
    });
    expect(errors(report).map((p) => `${p.file ?? 'flow/flow.json'}#${p.pointer}`)).toEqual([
      'flow/flow.json#/calls/cotizar/body/antiguedad',
      'schemas/api/cotizacion.json#/$defs/CotizarBody/required',
    ]);
    expect(errors(report)[0].message).toContain('la llamada «cotizar» del paso «vigencia» lee /answers/metros/antiguedad, pero el paso «metros» no pide «antiguedad»');
    expect(errors(report)[1].message).toContain('«cotizar» (POST /api/cotizacion/cotizar, al enviar el paso «vigencia») exige «antiguedad»');
    expect(errors(report)[1].message).toContain('que el paso «metros» no pide (schemas/metros.schema.json#/properties)');
  }, 120_000);

  it('a required field hidden for every answer, a call reading a step not yet visited, a text placeholder with no value', async () => {
    const report = await walkEdited({
      // Casa: barrioCerrado required and hidden at once
      'schemas/propiedad.schema.json': [{ op: 'add', path: '/then/properties', value: { barrioCerrado: false } }],
      // contacto's info call sends the plan, chosen three steps later
      'flow/flow.json': [
        { op: 'add', path: '/calls/info/body/plan', value: '/answers/cotizacion/codPlan' },
        { op: 'remove', path: '/steps/14/result/values' },
      ],
    });
    expect(errors(report).map((p) => `${p.file ?? 'flow/flow.json'}#${p.pointer}`)).toEqual([
      'flow/flow.json#/calls/info/body/plan',
      'schemas/propiedad.schema.json#/required',
      'src/i18n/es.json#/gracias/bajada',
    ]);
    const [call, required, text] = errors(report).map((p) => p.message);
    expect(call).toContain('la llamada «info» del paso «contacto» lee /answers/cotizacion/codPlan, pero en el camino inicio → propiedad');
    expect(call).toContain('el paso «cotizacion» todavía no se visitó');
    expect(required).toBe('paso «propiedad»: «barrioCerrado» es obligatorio pero una condición lo oculta en toda respuesta que lo necesita: ningún visitante puede completar el paso así. Sacalo de "required" de esa rama o mostralo (revisá if/then/else)');
    expect(text).toBe('el texto usa {{email}} y el paso «gracias» no le da valor: agregá "email" a result.values del paso en flow/flow.json o sacalo del texto');
  }, 120_000);
});
