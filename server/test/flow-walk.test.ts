/**
 * The flow walker (tools/check/walk.ts, run by `npm run flow:check`): on the shipped product it walks every path and
 * finds nothing; on a copy of the tree with one planted disagreement (a JSON edit a staffer could make) it names the
 * answer, the two files and pointers that disagree and what to change.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { stepAnswers } from '../../tools/check/answers.ts';
import { walkFlow, type WalkReport } from '../../tools/check/walk.ts';
import { createAjv } from '../src/plugins/schemas.ts';
import { loadProduct } from '../src/producto.ts';
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

describe('the answers generated from a step schema', () => {
  const ajv = createAjv({ coerceTypes: false, removeAdditional: false, useDefaults: false });
  const schema = (id: string) => JSON.parse(readFileSync(`schemas/${id}.schema.json`, 'utf8')) as Record<string, unknown>;
  const values = (id: string, field: string) =>
    stepAnswers(schema(id), ajv, { seed: 2026, today: '2026-11-25' }).values[field].map((v) => [v.value, v.why]);

  it('numeric bounds and the values just inside them, the example, one value drawn by fast-check', () => {
    expect(values('metros', 'metros').slice(0, 5)).toEqual([
      [20, 'mínimo'],
      [21, 'justo arriba del mínimo'],
      [999, 'justo debajo del máximo'],
      [1000, 'máximo'],
      [80, 'ejemplo'],
    ]);
    expect(values('metros', 'metros')[5][1]).toBe('generado (fast-check)');
    // seeded: the same seed draws the same value
    expect(values('metros', 'metros')[5][0]).toBe(values('metros', 'metros')[5][0]);
  });

  it('the date bounds of x-diasDesdeHoy and x-edad, and the day inside each', () => {
    expect(
      values('vigencia', 'initPolicyDate')
        .slice(0, 4)
        .map(([v]) => v),
    ).toEqual(['2026-11-26', '2026-11-27', '2026-12-24', '2026-12-25']);
    expect(values('datos-personales', 'birthDate').slice(0, 4)).toEqual([
      ['2008-11-25', 'cumple 18 años hoy (edad mínima)'],
      ['2008-11-24', '18 años y un día'],
      ['1927-11-25', 'cumple 99 años hoy'],
      ['1926-11-26', '99 años, el último día (edad máxima)'],
    ]);
  });

  it('each branch of a condition: rows cover every value, a hidden field is not sent', () => {
    const rows = stepAnswers(schema('propiedad'), ajv, { seed: 2026 }).rows.map((r) => r.answers);
    expect(rows).toEqual([
      { tipoVivienda: 'CASA', barrioCerrado: 'N' },
      { tipoVivienda: 'DEPARTAMENTO' },
      { tipoVivienda: 'PH' },
      { tipoVivienda: 'CASA', barrioCerrado: 'S' },
    ]);
    const pago = stepAnswers(schema('metodo-de-pago'), ajv, { seed: 2026 }).rows.map((r) => [
      r.answers.methodPayment,
      r.answers.numberPaymentCard ?? r.answers.numberCBU,
    ]);
    expect(pago).toEqual([
      ['TC', '4242 4242 4242 4242'],
      ['CBU', '2850590900000000000000'],
      ['TC', '4000 0000 0000 0002'],
      ['CBU', '2850590940090418135201'],
    ]);
  });
});

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
      'server/tariffs/2026-11.json': [{ op: 'remove', path: '/superficie/bandas/5' }],
    });
    const found = errors(report).filter((p) => p.file === 'schemas/metros.schema.json');
    expect(found.map((p) => p.pointer)).toEqual(['/properties/metros/maximum']);
    expect(found[0].message).toContain('paso «metros»: el paso acepta metros = 999 (justo debajo del máximo)');
    expect(found[0].message).toContain(
      '«cotizar» (POST /api/cotizacion/cotizar, al enviar el paso «vigencia») lo rechaza: «Ingresá un número entre 20 y 500.»',
    );
    expect(found[0].message).toContain(
      'No coinciden schemas/metros.schema.json#/properties/metros/maximum y server/tariffs/2026-11.json#/superficie',
    );
  });

  it('a factor missing for an enum value: TEMPORAL has no usoVivienda factor', async () => {
    const report = await walkEdited({ 'server/tariffs/2026-11.json': [{ op: 'remove', path: '/factores/1/valores/TEMPORAL' }] });
    const found = errors(report);
    expect(found.map((p) => `${p.file}#${p.pointer}`)).toEqual(['schemas/permanencia.schema.json#/properties/usoVivienda/enum/1']);
    expect(found[0].message).toContain('el paso acepta usoVivienda = "TEMPORAL" (valor de enum)');
    expect(found[0].message).toContain(
      'No coinciden schemas/permanencia.schema.json#/properties/usoVivienda/enum/1 y server/tariffs/2026-11.json#/factores/1/valores',
    );
    expect(found[0].message).toContain('agregá ese valor a la tarifa');
  });

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
    expect(errors(report)[0].message).toContain(
      'la llamada «cotizar» del paso «vigencia» lee /answers/metros/antiguedad, pero el paso «metros» no pide «antiguedad»',
    );
    expect(errors(report)[1].message).toContain(
      '«cotizar» (POST /api/cotizacion/cotizar, al enviar el paso «vigencia») exige «antiguedad»',
    );
    expect(errors(report)[1].message).toContain('que el paso «metros» no pide (schemas/metros.schema.json#/properties)');
  });

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
    expect(required).toBe(
      'paso «propiedad»: «barrioCerrado» es obligatorio pero una condición lo oculta en toda respuesta que lo necesita: ningún visitante puede completar el paso así. Sacalo de "required" de esa rama o mostralo (revisá if/then/else)',
    );
    expect(text).toBe(
      'el texto usa {{email}} y el paso «gracias» no le da valor: agregá "email" a result.values del paso en flow/flow.json o sacalo del texto',
    );
  });

  it('a later step refuses what an earlier one accepted and hands it over (defaults)', async () => {
    const report = await walkEdited({
      'schemas/direccion.schema.json': [{ op: 'replace', path: '/properties/idProvince/pattern', value: '^0[0-5]$' }],
    });
    const found = errors(report).find((p) => p.file === 'schemas/direccion.schema.json');
    expect(found?.pointer).toBe('/properties/idProvince/pattern');
    expect(found?.message).toBe(
      'paso «direccion»: recibe idProvince = "06" de /answers/localidad/idProvincia (flow/flow.json#/steps/10/defaults/idProvince), que el paso «localidad» (schemas/localidad.schema.json) acepta, y su esquema lo rechaza (pattern {"pattern":"^0[0-5]$"}): hacé que las dos reglas coincidan',
    );
  });
});
