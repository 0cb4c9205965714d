/**
 * The background proof of work (flow.json › proofOfWork): the calls that need it wait for the
 * solution, carry it at the pointer the flow names, spend it (a retry solves a new challenge), and a challenge that
 * cannot be had never loses what the visitor typed — through the engine's `prepareCall` extension point.
 */
import { allSettled, fork } from 'effector';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import miniJson from '../../../tests/fixtures/mini-flow.json';
import { compileFlowNode } from '../../../tools/check/conditions.ts';
import type { FlowDef } from '../../core/flow/types.ts';
import { createFlowEngine, type ApiRequest } from '../model';
import { createProofOfWork, type Challenge, type Solution } from './index.ts';

const mini = miniJson as unknown as FlowDef;
// the mini flow's `save` call carries a solution, as flow.json's cotizar does
const flow = compileFlowNode({
  ...mini,
  proofOfWork: { challenge: 'desafio', startAt: 'a', to: '/meta/antibot', for: ['save'] },
  calls: {
    ...mini.calls,
    desafio: { method: 'GET', path: '/desafio' },
    save: { ...mini.calls.save, body: { x: '/answers/a/x', antibot: '/meta/antibot' } },
  },
});
const NOW = Date.UTC(2026, 10, 25, 15, 0, 0);
const challenge = (n: number, expiresAt = NOW / 1000 + 1800): Challenge => ({ parameters: { n, expiresAt }, signature: `firma-${n}` });
const solution = (n: number): Solution => ({ counter: n, derivedKey: `clave-${n}` });

/** An engine whose `save` calls go through a proof of work that hands out challenges 1, 2, 3… */
function setup(opts: { expiresAt?: (n: number) => number; solve?: (c: Challenge) => Promise<Solution | null>; saveFails?: boolean } = {}) {
  let issued = 0;
  const solved: number[] = [];
  const pow = createProofOfWork({
    to: '/meta/antibot',
    now: () => NOW,
    fetchChallenge: async () => {
      issued++;
      return challenge(issued, opts.expiresAt?.(issued));
    },
    solve:
      opts.solve ??
      (async (c) => {
        solved.push(c.parameters.n as number);
        return solution(c.parameters.n as number);
      }),
  });
  const engine = createFlowEngine({
    flow,
    genericError: 'Error genérico',
    timeoutError: 'Demora',
    meta: { app: 'test' },
    prepareCall: async (name, ctx) => (name === 'save' ? pow.prepare(ctx) : ctx),
  });
  const bodies: unknown[] = [];
  const scope = fork({
    handlers: [
      [
        engine.requestFx,
        async (req: ApiRequest) => {
          if (req.path === '/save') {
            bodies.push(req.body);
            if (opts.saveFails) throw { message: 'No pudimos confirmar la verificación de seguridad de tu navegador.' };
            return { id: 7 };
          }
          return { valido: true };
        },
      ],
    ],
  });
  const submit = (stepId: string, formData: Record<string, unknown>) =>
    allSettled(engine.stepSubmitted, { scope, params: { stepId, formData } });
  return { pow, engine, scope, bodies, solved, submit, issued: () => issued };
}

beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => vi.restoreAllMocks());

describe('proof of work in the background', () => {
  it('the call carries the solution solved in advance, and the next one a new solution', async () => {
    const t = setup();
    t.pow.warm();
    t.pow.warm(); // warming twice solves once
    await t.submit('a', { x: 'hola' });
    await t.submit('b', { y: 1 });
    expect(t.bodies).toEqual([{ x: 'hola', antibot: { challenge: challenge(1), solution: solution(1) } }]);
    await t.submit('b', { y: 2 });
    expect(t.bodies[1]).toEqual({ x: 'hola', antibot: { challenge: challenge(2), solution: solution(2) } });
    expect(t.solved).toEqual([1, 2]);
    // warming is once per page: later steps do not solve challenges nobody will send
    t.pow.warm();
    expect(t.issued()).toBe(2);
    // the solution lives in the call's context only: never in the state (so never persisted)
    expect(JSON.stringify(t.scope.getState(t.engine.$state))).not.toContain('clave-');
  });

  it('a refused call keeps the answers and its retry solves a new challenge', async () => {
    const t = setup({ saveFails: true });
    t.pow.warm();
    await t.submit('b', { y: 1 });
    expect(t.scope.getState(t.engine.$state).answers.b).toEqual({ y: 1 });
    expect(t.scope.getState(t.engine.$errors).b).toEqual({
      fields: {},
      banner: 'No pudimos confirmar la verificación de seguridad de tu navegador.',
    });
    await t.submit('b', { y: 1 });
    expect(t.bodies.map((b) => (b as { antibot: { challenge: Challenge } }).antibot.challenge.signature)).toEqual(['firma-1', 'firma-2']);
  });

  it('a solution about to expire is not sent: a new challenge is solved first', async () => {
    const t = setup({ expiresAt: (n) => (n === 1 ? NOW / 1000 + 30 : NOW / 1000 + 1800) });
    t.pow.warm();
    await t.submit('b', { y: 1 });
    expect((t.bodies[0] as { antibot: { challenge: Challenge } }).antibot.challenge.signature).toBe('firma-2');
  });

  it('when no solution can be had, the call goes without one (the server says why) and the answers stay', async () => {
    const t = setup({ solve: async () => null });
    await t.submit('b', { y: 1 });
    expect(t.bodies).toEqual([{}]);
    expect(t.scope.getState(t.engine.$state).answers.b).toEqual({ y: 1 });
  });
});
