/**
 * The flow's conditions are JSON Schema over the context: the build's precompiled tests (what the browser runs)
 * and ajv at run time (what the checker and scripts run) agree with what a staffer wrote, on the shipped flow.
 */
import { describe, expect, it } from 'vitest';
import flowJson from '../../flow/flow.json';
import { compileConditions } from '../../tools/check/conditions.ts';
import { conditionSchema, type FlowDef } from '../../src/engine/core/index.ts';
import { conditionTests } from '../../src/form/validators/index.ts';

const def = flowJson as unknown as FlowDef;

describe('flow conditions (JSON Schema)', () => {
  const browser = conditionTests();
  const node = compileConditions(def.conditions);

  it('the precompiled tests cover exactly the declared conditions', () => {
    expect(Object.keys(browser).sort()).toEqual(Object.keys(def.conditions).sort());
  });

  it.each([
    ['pagoConTarjeta', { answers: { 'metodo-de-pago': { methodPayment: 'TC' } } }, true],
    ['pagoConTarjeta', { answers: { 'metodo-de-pago': { methodPayment: 'CBU' } } }, false],
    ['pagoConTarjeta', { answers: {} }, false],
    ['hayCampania', { campaign: { utm_source: 'google' } }, true],
    ['hayCampania', { campaign: {} }, false],
    ['hayCampania', {}, false],
    ['emisionTerminada', { response: { estado: 'RECHAZADA' } }, true],
    ['emisionTerminada', { response: { estado: 'PENDIENTE' } }, false],
    ['zonaDistinta', { data: { zona: { mismaZona: false } } }, true],
    ['zonaDistinta', { data: { zona: { mismaZona: true } } }, false],
  ])('%s on %j → %s, in the browser and in Node', (name, ctx, expected) => {
    expect(browser[name](ctx)).toBe(expected);
    expect(node[name](ctx)).toBe(expected);
  });

  it('false means absent and true present; several pointers must all hold', () => {
    const [test] = Object.values(compileConditions({ c: { '/data/a': true, '/data/b': false, '/flags/x': { const: true } } }));
    expect(test({ data: { a: 1 }, flags: { x: true } })).toBe(true);
    expect(test({ data: { a: 1, b: 2 }, flags: { x: true } })).toBe(false);
    expect(test({ data: {}, flags: { x: true } })).toBe(false);
    expect(test({ data: { a: 1 }, flags: { x: false } })).toBe(false);
    expect(() => conditionSchema({ 'sin-barra': true })).toThrow(/puntero inválido/);
  });
});
