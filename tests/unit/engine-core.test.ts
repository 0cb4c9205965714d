/** Pure flow logic against the real flow file and a fixture flow (SPEC §2, §4, §9). */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import realFlowJson from '../../flow/flow.json';
import flowSchema from '../../flow/flow.schema.json';
import miniJson from '../fixtures/mini-flow.json';
import {
  checkFlow,
  counterBack,
  counterForward,
  flagsForRoute,
  flagsOnEntry,
  getAt,
  initialFlags,
  journey,
  resolveBinding,
  resolveGuard,
  setAt,
  setGuard,
  stepByPath,
  type FlowDef,
} from '../../src/engine/core/index.ts';
import { flowErrors } from '../../src/form/validators/compile.ts';

const flow = realFlowJson as unknown as FlowDef;
const mini = miniJson as unknown as FlowDef;
const only = (f: string) => setGuard(flow, { [f]: true });

describe('the flow file', () => {
  it('is valid against its schema and its references hold', () => {
    expect(flowErrors(flow, flowSchema)).toEqual([]);
  });

  it('has the 16 routes of SPEC §2', () => {
    expect(flow.steps.map((s) => s.path)).toEqual([
      'seguro-hogar', 'seguro-hogar/propiedad', 'seguro-hogar/permanencia', 'seguro-hogar/metros', 'seguro-hogar/localidad',
      'seguro-hogar/contacto', 'seguro-hogar/vigencia', 'seguro-hogar/cotizacion', 'seguro-hogar/adicionales',
      'seguro-hogar/datos-personales', 'seguro-hogar/datos-personales/direccion', 'seguro-hogar/confirmar-datos-personales',
      'seguro-hogar/metodo-de-pago', 'seguro-hogar/confirmacion', 'seguro-hogar/gracias-seguro-habilitado', 'seguro-hogar/error',
    ]);
  });

  it('never persists the card number or the CBU', () => {
    expect(flow.persist?.exclude).toEqual(expect.arrayContaining(['/answers/metodo-de-pago/numberPaymentCard', '/answers/metodo-de-pago/numberCBU']));
  });

  it('names where a broken edit is, with the pointer and what to change', () => {
    const broken = structuredClone(realFlowJson) as unknown as FlowDef;
    broken.steps[2].next = 'no-existe';
    (broken.steps[5].onSubmit as string[]).push('llamadaInventada');
    expect(flowErrors(broken, flowSchema)).toEqual([
      'flow/flow.json#/steps/2/next: el paso "no-existe" no existe en "steps"',
      'flow/flow.json#/steps/5/onSubmit/3: la llamada "llamadaInventada" no está declarada en "calls"',
    ]);
    const badShape = { ...realFlowJson, steps: [{ id: 'x' }] };
    expect(flowErrors(badShape, flowSchema)[0]).toMatch(/^flow\/flow\.json#\/steps\/0: must have required property/);
  });

  it('a journey through the fixture follows next and conditions', () => {
    const ctx = { flags: {}, answers: {}, data: { result: { estado: 'OK' } }, numberDetailStep: 1.1 };
    expect(journey(mini, ctx)).toEqual(['start', 'a', 'b', 'c', 'done']);
    expect(journey(mini, { ...ctx, data: { result: { estado: 'KO' } } })).toEqual(['start', 'a', 'b', 'c', 'failed']);
  });

  it('the real flow reaches the thank-you page only when the policy was issued', () => {
    const base = { flags: {}, answers: {}, numberDetailStep: 1.1 };
    expect(journey(flow, { ...base, data: { emision: { estado: 'EMITIDA' } } }).slice(-2)).toEqual(['confirmacion', 'gracias']);
    expect(journey(flow, { ...base, data: { emision: { estado: 'RECHAZADA' } } }).slice(-2)).toEqual(['confirmacion', 'error']);
  });

  it('every form step has a schema file', () => {
    for (const s of flow.steps.filter((x) => x.kind === 'form')) {
      expect(() => readFileSync(`schemas/${s.id}.schema.json`)).not.toThrow();
    }
  });
});

describe('guards (SPEC §4)', () => {
  it('lets a route in when its flag is set, and step 1 always', () => {
    expect(resolveGuard(flow, only('step2'), 'cotizacion')).toEqual({ kind: 'allow' });
    expect(resolveGuard(flow, only('step5'), 'inicio')).toEqual({ kind: 'allow' });
  });

  it('redirects to the route of the first set flag in the spec order', () => {
    expect(resolveGuard(flow, only('contact'), 'metodo-de-pago')).toEqual({ kind: 'redirect', to: 'contacto' });
    const two = setGuard(flow, { step3: true, permanence: true });
    expect(resolveGuard(flow, two, 'confirmacion')).toEqual({ kind: 'redirect', to: 'permanencia' });
    expect(resolveGuard(flow, only('moduleError'), 'gracias')).toEqual({ kind: 'redirect', to: 'error' });
  });

  it('clears every flag and goes to step 1 when none is set', () => {
    const result = resolveGuard(flow, initialFlags(flow), 'cotizacion');
    expect(result).toMatchObject({ kind: 'reset', to: 'inicio' });
    expect(Object.entries((result as { flags: Record<string, boolean> }).flags).filter(([, v]) => v)).toEqual([['houseDetail', true]]);
  });

  it('setting a guard leaves only the given flags and makes houseDetail false unless given', () => {
    const flags = setGuard(flow, { step4: true });
    expect(Object.keys(flags).filter((k) => flags[k])).toEqual(['step4']);
    expect(setGuard(flow, { houseDetail: true, property: true }).houseDetail).toBe(true);
  });

  it('visiting step 1 clears the flags unless success or error', () => {
    expect(flagsOnEntry(flow, only('step3'))).toEqual(initialFlags(flow));
    expect(flagsOnEntry(flow, only('success'))).toEqual(only('success'));
    expect(flagsOnEntry(flow, only('moduleError'))).toEqual(only('moduleError'));
  });

  it('browser history resets the flags to the route reached', () => {
    expect(flagsForRoute(flow, 'metros')).toEqual(only('area'));
    expect(flagsForRoute(flow, 'inicio')).toEqual(initialFlags(flow));
  });

  it('finds steps by URL path', () => {
    expect(stepByPath(flow, '/seguro-hogar/datos-personales/direccion/')?.id).toBe('direccion');
    expect(stepByPath(flow, '/otra')).toBeUndefined();
  });
});

describe('detail counter (SPEC §3, §9)', () => {
  it('goes −0.1 per back with 2 decimals and never below 1.1', () => {
    expect(counterBack(flow, 1.6)).toBe(1.5);
    expect(counterBack(flow, 1.3)).toBe(1.2);
    expect(counterBack(flow, 1.1)).toBe(1.1);
    expect(counterForward(flow, 1.1)).toBe(1.2);
    expect(counterForward(flow, 1.2)).toBe(1.3);
  });
});

describe('pointers and bindings', () => {
  it('reads and writes without mutating', () => {
    const doc = { a: { b: 1 } };
    const next = setAt(doc, '/a/c/d', 2);
    expect(doc).toEqual({ a: { b: 1 } });
    expect(getAt(next, '/a/c/d')).toBe(2);
    expect(getAt(setAt(next, '/a/b', undefined), '/a')).toEqual({ c: { d: 2 } });
  });

  it('resolves pointers, constants, merges and joins', () => {
    const ctx = { answers: { p: { first: 'Ana', last: 'Pérez', doc: '30123456' } }, data: { q: { refId: 'r1' } } };
    expect(resolveBinding({ name: { join: ['/answers/p/first', '/answers/p/last'] }, app: { const: 'x' }, missing: '/nada' }, ctx)).toEqual({ name: 'Ana Pérez', app: 'x' });
    expect(resolveBinding({ merge: ['/answers/p', { refId: '/data/q/refId' }] }, ctx)).toEqual({ first: 'Ana', last: 'Pérez', doc: '30123456', refId: 'r1' });
  });

  it('the fixture flow passes its own checks', () => {
    expect(checkFlow(mini)).toEqual([]);
  });
});
