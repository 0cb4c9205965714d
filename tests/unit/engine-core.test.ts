/**
 * Pure flow logic. Engine rules are checked on the fixture flow (tests/fixtures/mini-flow.json); the shipped
 * flow is checked against the SPEC contract it must honour (flow/contract.json), read from the files — no route,
 * index or label of the shipped flow is written here.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import realFlowJson from '../../flow/flow.json';
import contract from '../../flow/contract.json';
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
  sourceOf,
  stepByPath,
  type FlowDef,
} from '../../src/engine/core/index.ts';
import { checkProduct } from '../../tools/check/project.ts';
import { loadProduct } from '../../scripts/flow-check.ts';
import { compileFlowNode } from '../../tools/check/conditions.ts';

const realDef = realFlowJson as unknown as FlowDef;
const real = compileFlowNode(realDef);
const miniDef = miniJson as unknown as FlowDef;
const mini = compileFlowNode(miniDef);
const only = (f: string) => setGuard(mini, { [f]: true });
const ctx = { flags: {}, answers: {}, numberDetailStep: 1.1 };

describe('the shipped flow', () => {
  it('is valid against its schema, its references hold, and it derives the SPEC contract (no error, no warning)', () => {
    expect(checkProduct(loadProduct('.')).problems).toEqual([]);
  });

  it('derives exactly the routes, flags and guard order of the SPEC contract', () => {
    expect(real.steps.map((s) => s.path)).toEqual(contract.routes);
    expect(real.flags).toEqual(contract.flags);
    expect(real.guardOrder).toEqual(contract.guardOrder);
  });

  it('never persists the card number or the CBU', () => {
    expect(realDef.persist?.exclude).toEqual(
      expect.arrayContaining(['/answers/metodo-de-pago/numberPaymentCard', '/answers/metodo-de-pago/numberCBU']),
    );
  });

  it('every form step has a schema file', () => {
    for (const s of real.steps.filter((x) => x.kind === 'form')) expect(existsSync(`schemas/${s.id}.schema.json`), s.id).toBe(true);
  });

  it('reaches a result step both when the last call succeeds and when it fails', () => {
    const results = real.steps.filter((s) => s.kind === 'result').map((s) => s.id);
    const branching = real.steps.filter((s) => Array.isArray(s.next));
    expect(branching.length).toBeGreaterThan(0);
    for (const s of branching) {
      const ends = (s.next as { to: string }[]).map((b) => b.to);
      expect(ends.every((id) => results.includes(id))).toBe(true);
    }
  });
});

describe('derived from the graph, not declared twice', () => {
  it('a step id names its route and flag; the guard order, stages and back follow the order of next', () => {
    expect(mini.steps.map((s) => [s.id, s.path, s.flag])).toEqual([
      ['start', 'inicio', 'start'],
      ['a', 'inicio/a', 'a'],
      ['b', 'inicio/b', 'b'],
      ['c', 'inicio/c', 'c'],
      ['done', 'inicio/listo', 'done'],
      ['failed', 'inicio/error', 'failed'],
    ]);
    expect(mini.guardOrder).toEqual(['a', 'b', 'c', 'done', 'failed']);
    expect(mini.initialFlags).toEqual({ start: true });
    expect(mini.terminalFlags).toEqual(['done', 'failed']);
    expect(mini.steps.map((s) => s.back)).toEqual([undefined, 'start', 'a', 'b', undefined, undefined]);
    expect(mini.steps.filter((s) => s.detail).map((s) => s.id)).toEqual(['a', 'b']);
    expect(mini.stages).toEqual(['s']);
  });

  it('reordering by next alone reorders everything derived (the file order does not matter)', () => {
    const def = structuredClone(miniDef);
    const step = (id: string) => def.steps.find((s) => s.id === id) as FlowDef['steps'][number];
    step('start').next = 'b';
    step('b').next = 'a';
    step('b').stage = 's';
    delete step('a').stage;
    step('a').next = 'c';
    const flow = compileFlowNode(def);
    expect(flow.guardOrder).toEqual(['b', 'a', 'c', 'done', 'failed']);
    expect(flow.steps.find((s) => s.id === 'a')?.back).toBe('b');
    expect(flow.steps.find((s) => s.id === 'b')?.back).toBe('start');
    expect(checkFlow(def)).toEqual([]);
  });
});

describe('guards (SPEC §4)', () => {
  it('lets a route in when its flag is set, and the entry always', () => {
    expect(resolveGuard(mini, only('b'), 'b')).toEqual({ kind: 'allow' });
    expect(resolveGuard(mini, only('c'), 'start')).toEqual({ kind: 'allow' });
  });

  it('redirects to the route of the first set flag in the guard order', () => {
    expect(resolveGuard(mini, only('a'), 'c')).toEqual({ kind: 'redirect', to: 'a' });
    expect(resolveGuard(mini, setGuard(mini, { c: true, a: true }), 'done')).toEqual({ kind: 'redirect', to: 'a' });
    expect(resolveGuard(mini, only('failed'), 'done')).toEqual({ kind: 'redirect', to: 'failed' });
  });

  it('clears every flag and goes to the entry when none is set', () => {
    const result = resolveGuard(mini, initialFlags(mini), 'c');
    expect(result).toMatchObject({ kind: 'reset', to: 'start' });
    expect(Object.entries((result as { flags: Record<string, boolean> }).flags).filter(([, v]) => v)).toEqual([['start', true]]);
  });

  it('setting a guard leaves only the given flags and makes the entry flag false unless given', () => {
    const flags = setGuard(mini, { b: true });
    expect(Object.keys(flags).filter((k) => flags[k])).toEqual(['b']);
    expect(setGuard(mini, { start: true, a: true }).start).toBe(true);
  });

  it('visiting the entry clears the flags unless a result flag is set', () => {
    expect(flagsOnEntry(mini, only('b'))).toEqual(initialFlags(mini));
    expect(flagsOnEntry(mini, only('done'))).toEqual(only('done'));
    expect(flagsOnEntry(mini, only('failed'))).toEqual(only('failed'));
  });

  it('browser history resets the flags to the route reached', () => {
    expect(flagsForRoute(mini, 'b')).toEqual(only('b'));
    expect(flagsForRoute(mini, 'start')).toEqual(initialFlags(mini));
  });

  it('finds steps by URL path', () => {
    expect(stepByPath(mini, '/inicio/listo/')?.id).toBe('done');
    expect(stepByPath(mini, '/otra')).toBeUndefined();
  });

  it('a journey follows next and conditions', () => {
    expect(journey(mini, { ...ctx, data: { result: { estado: 'OK' } } })).toEqual(['start', 'a', 'b', 'c', 'done']);
    expect(journey(mini, { ...ctx, data: { result: { estado: 'KO' } } })).toEqual(['start', 'a', 'b', 'c', 'failed']);
  });
});

describe('detail counter (SPEC §3, §9)', () => {
  it('goes −0.1 per back with 2 decimals and never below 1.1', () => {
    expect(counterBack(mini, 1.6)).toBe(1.5);
    expect(counterBack(mini, 1.3)).toBe(1.2);
    expect(counterBack(mini, 1.1)).toBe(1.1);
    expect(counterForward(mini, 1.1)).toBe(1.2);
    expect(counterForward(mini, 1.2)).toBe(1.3);
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
    const c = { answers: { p: { first: 'Ana', last: 'Pérez', doc: '30123456' } }, data: { q: { refId: 'r1' } } };
    expect(resolveBinding({ name: { join: ['/answers/p/first', '/answers/p/last'] }, app: { const: 'x' }, missing: '/nada' }, c)).toEqual({
      name: 'Ana Pérez',
      app: 'x',
    });
    expect(resolveBinding({ merge: ['/answers/p', { refId: '/data/q/refId' }] }, c)).toEqual({
      first: 'Ana',
      last: 'Pérez',
      doc: '30123456',
      refId: 'r1',
    });
  });

  it('traces a wire field back to the answer that fed it, through objects and merges', () => {
    const body = { refId: '/data/q/refId', persona: { merge: ['/answers/p', { email: '/answers/c/email' }] }, fijo: { const: 1 } };
    expect(sourceOf(body, '/persona/numberDoc')).toBe('/answers/p/numberDoc');
    expect(sourceOf(body, '/persona/email')).toBe('/answers/c/email');
    expect(sourceOf(body, '/refId')).toBe('/data/q/refId');
    expect(sourceOf(body, '/fijo')).toBeUndefined();
    expect(sourceOf(body, '/nada')).toBeUndefined();
  });

  it('the fixture flow passes its own checks', () => {
    expect(checkFlow(miniDef)).toEqual([]);
  });
});
