/** The Effector model driven like the app drives it, with effects replaced (fork + allSettled). */
import { allSettled, fork } from 'effector';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import miniJson from '../fixtures/mini-flow.json';
import type { FlowDef } from '../../src/engine/core/index.ts';
import { createFlowEngine, emptyState, type ApiRequest } from '../../src/engine/model';

const flow = miniJson as unknown as FlowDef;
const on = (...names: string[]) => Object.fromEntries(flow.flags.map((f) => [f, names.includes(f)]));

function setup(reply: (req: ApiRequest) => unknown) {
  const engine = createFlowEngine({ flow, genericError: 'Error genérico', timeoutError: 'Demora' });
  const requests: ApiRequest[] = [];
  const navigations: { stepId: string; replace?: boolean }[] = [];
  const scope = fork({
    handlers: [
      [engine.requestFx, async (req: ApiRequest) => (requests.push(req), reply(req))],
      [engine.navigateFx, (n: { stepId: string; replace?: boolean }) => void navigations.push(n)],
      [engine.waitFx, async () => undefined],
    ],
  });
  return { engine, scope, requests, navigations };
}

describe('flow engine model', () => {
  beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => vi.restoreAllMocks());

  it('walks the fixture journey: checks, saves, polls, and lands on the result', async () => {
    let polls = 0;
    const { engine, scope, requests, navigations } = setup((req) => {
      if (req.path === '/check') return { valido: true };
      if (req.path === '/save') return { id: 7 };
      if (req.path === '/status/7') return ++polls < 2 ? { estado: 'PENDIENTE' } : { estado: 'OK' };
      throw new Error(req.path);
    });
    await allSettled(engine.stepSubmitted, { scope, params: { stepId: 'start', formData: {} } });
    expect(scope.getState(engine.$state).flags).toEqual(on('a'));
    await allSettled(engine.stepSubmitted, { scope, params: { stepId: 'a', formData: { x: 'hola' } } });
    expect(scope.getState(engine.$state).numberDetailStep).toBe(1.2);
    await allSettled(engine.stepSubmitted, { scope, params: { stepId: 'b', formData: { y: 1, secret: '4242' } } });
    expect(requests[1]).toEqual({ method: 'POST', path: '/save', body: { y: 1, secret: '4242', x: 'hola' } });
    // the secret is forgotten once the step is submitted
    expect(scope.getState(engine.$state).answers.b).toEqual({ y: 1 });
    await allSettled(engine.stepSubmitted, { scope, params: { stepId: 'c', formData: {} } });
    expect(polls).toBe(2);
    expect(navigations.map((n) => n.stepId)).toEqual(['a', 'b', 'c', 'done']);
    expect(scope.getState(engine.$state).flags).toEqual(on('done'));
  });

  it('a failed check shows the server message on the field and keeps what was typed', async () => {
    const { engine, scope, navigations } = setup(() => ({ valido: false, mensaje: 'Ese dato no es válido.' }));
    await allSettled(engine.stepSubmitted, { scope, params: { stepId: 'a', formData: { x: 'mal' } } });
    expect(scope.getState(engine.$errors).a).toEqual({ fields: { x: 'Ese dato no es válido.' }, banner: null });
    expect(scope.getState(engine.$state).answers.a).toEqual({ x: 'mal' });
    expect(navigations).toEqual([]);
  });

  it('a failed check that names no field shows its message above the form', async () => {
    const engine = createFlowEngine({
      flow: { ...flow, calls: { ...flow.calls, check: { ...flow.calls.check, check: { ok: '/valido', message: '/mensaje' } } } },
      genericError: 'Error genérico',
      timeoutError: 'Demora',
    });
    const scope = fork({ handlers: [[engine.requestFx, async () => ({ valido: false, mensaje: 'Probá más tarde.' })]] });
    await allSettled(engine.stepSubmitted, { scope, params: { stepId: 'a', formData: { x: '1' } } });
    expect(scope.getState(engine.$errors).a).toEqual({ fields: {}, banner: 'Probá más tarde.' });
  });

  it('a failed call shows a banner and stays; on a step with onError it goes to the error step', async () => {
    const { engine, scope, navigations } = setup(() => {
      throw { message: 'No pudimos conectarnos.' };
    });
    await allSettled(engine.stepSubmitted, { scope, params: { stepId: 'b', formData: { y: 2 } } });
    expect(scope.getState(engine.$errors).b.banner).toBe('No pudimos conectarnos.');
    expect(scope.getState(engine.$state).answers.b).toEqual({ y: 2 });
    await allSettled(engine.stepSubmitted, { scope, params: { stepId: 'c', formData: {} } });
    expect(navigations).toEqual([{ stepId: 'failed' }]);
    expect(scope.getState(engine.$state).flags).toEqual(on('failed'));
  });

  it('polling gives up after maxAttempts with the timeout message', async () => {
    const { engine, scope } = setup(() => ({ estado: 'PENDIENTE' }));
    await allSettled(engine.stepSubmitted, { scope, params: { stepId: 'c', formData: {} } });
    expect((scope.getState(engine.$state).data.error as { message: string }).message).toBe('Demora');
  });

  it('guards on entry: a cold guarded URL resets to step 1; a later one redirects to the current step', async () => {
    const { engine, scope, navigations } = setup(() => ({}));
    await allSettled(engine.routeEntered, { scope, params: { stepId: 'c', pop: false } });
    expect(navigations.pop()).toEqual({ stepId: 'start', replace: true });
    await allSettled(engine.stateRestored, { scope, params: { ...emptyState(flow), flags: on('b') } });
    await allSettled(engine.routeEntered, { scope, params: { stepId: 'c', pop: false } });
    expect(navigations.pop()).toEqual({ stepId: 'b', replace: true });
    await allSettled(engine.routeEntered, { scope, params: { stepId: 'b', pop: false } });
    expect(scope.getState(engine.$currentStep)).toBe('b');
  });

  it('browser back resets flags to the route reached and moves the counter −0.1', async () => {
    const { engine, scope } = setup(() => ({}));
    await allSettled(engine.stateRestored, { scope, params: { ...emptyState(flow), flags: on('b'), numberDetailStep: 1.2 } });
    await allSettled(engine.routeEntered, { scope, params: { stepId: 'a', pop: true } });
    expect(scope.getState(engine.$state).flags).toEqual(on('a'));
    expect(scope.getState(engine.$state).numberDetailStep).toBe(1.1);
    expect(scope.getState(engine.$currentStep)).toBe('a');
  });

  it('back button: target flag set, counter −0.1', async () => {
    const { engine, scope, navigations } = setup(() => ({}));
    await allSettled(engine.stateRestored, { scope, params: { ...emptyState(flow), flags: on('b'), numberDetailStep: 1.2 } });
    await allSettled(engine.backClicked, { scope, params: { stepId: 'b' } });
    expect(scope.getState(engine.$state).flags).toEqual(on('a'));
    expect(scope.getState(engine.$state).numberDetailStep).toBe(1.1);
    expect(navigations).toEqual([{ stepId: 'a' }]);
  });

  it('inactivity mid-journey clears the quote and flags and goes to step 1; on the result page nothing is cleared', async () => {
    const { engine, scope, navigations } = setup(() => ({}));
    await allSettled(engine.stateRestored, { scope, params: { flags: on('c'), answers: { a: { x: '1' } }, data: { saved: { id: 1 } }, numberDetailStep: 1.3 } });
    await allSettled(engine.sessionExpired, { scope });
    expect(scope.getState(engine.$state)).toEqual(emptyState(flow));
    expect(navigations).toEqual([{ stepId: 'start', replace: true }]);

    const done = { flags: on('done'), answers: { a: { x: '1' } }, data: { result: { estado: 'OK' } }, numberDetailStep: 1.3 };
    await allSettled(engine.stateRestored, { scope, params: done });
    await allSettled(engine.sessionExpired, { scope });
    expect(scope.getState(engine.$state)).toEqual(done);
  });

  it('a change to a field with onChange calls runs them and saves the reply (live re-pricing); other fields do not', async () => {
    let n = 0;
    const { engine, scope, requests } = setup(() => ({ id: ++n }));
    await allSettled(engine.fieldsChanged, { scope, params: { stepId: 'b', formData: { y: 1 } } });
    expect(requests).toHaveLength(1);
    expect(scope.getState(engine.$state).data.saved).toEqual({ id: 1 });
    expect(scope.getState(engine.$state).answers.b).toEqual({ y: 1 });
    await allSettled(engine.fieldsChanged, { scope, params: { stepId: 'b', formData: { y: 1, z: 'otro' } } });
    expect(requests).toHaveLength(1);
    expect(scope.getState(engine.$state).answers.b).toEqual({ y: 1, z: 'otro' });
    await allSettled(engine.fieldsChanged, { scope, params: { stepId: 'b', formData: { y: 2, z: 'otro' } } });
    expect(requests).toHaveLength(2);
    expect(scope.getState(engine.$state).data.saved).toEqual({ id: 2 });
  });

  it('only the latest live change is applied: a slow reply to an older selection never overwrites a newer one', async () => {
    const engine = createFlowEngine({ flow, genericError: 'Error genérico', timeoutError: 'Demora' });
    let releaseFirst!: () => void;
    const scope = fork({
      handlers: [
        [
          engine.requestFx,
          (req: ApiRequest) =>
            (req.body as { y: number }).y === 1
              ? new Promise((resolve) => (releaseFirst = () => resolve({ id: 'para y=1' })))
              : Promise.resolve({ id: 'para y=2' }),
        ],
      ],
    });
    const first = allSettled(engine.fieldsChanged, { scope, params: { stepId: 'b', formData: { y: 1 } } });
    const second = allSettled(engine.fieldsChanged, { scope, params: { stepId: 'b', formData: { y: 2 } } });
    await new Promise((r) => setTimeout(r, 10)); // the fast reply for y=2 lands first…
    releaseFirst(); // …then the slow one for y=1
    await Promise.all([first, second]);
    expect(scope.getState(engine.$state).answers.b).toEqual({ y: 2 });
    expect(scope.getState(engine.$state).data.saved).toEqual({ id: 'para y=2' });
  });

  it('a restored state from old storage is sanitised, not trusted', async () => {
    const { engine, scope } = setup(() => ({}));
    await allSettled(engine.stateRestored, { scope, params: { flags: { a: true, inventado: true }, answers: null } as never });
    expect(scope.getState(engine.$state).flags).toEqual(on('a'));
    expect(scope.getState(engine.$state).answers).toEqual({});
  });
});
