/** The Effector model driven like the app drives it, with effects replaced (fork + allSettled). */
import { allSettled, fork } from 'effector';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import miniJson from '../fixtures/mini-flow.json';
import { type FlowDef } from '../../src/engine/core/index.ts';
import { createFlowEngine, type ApiRequest } from '../../src/engine/model';
import { emptyState } from '../../src/engine/state';
import { compileFlowNode } from '../../tools/check/conditions.ts';

const flow = compileFlowNode(miniJson as unknown as FlowDef);
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

  it("the loader shows while a step's calls run, and never for a step without calls", async () => {
    let release!: (reply: unknown) => void;
    let called!: () => void;
    const requested = new Promise<void>((r) => (called = r));
    const { engine, scope, navigations } = setup(() => (called(), new Promise((r) => (release = r))));
    const shown: (string | null)[] = [];
    engine.$loadingMessage.updates.watch(() => shown.push(scope.getState(engine.$loadingMessage)));
    await allSettled(engine.stepSubmitted, { scope, params: { stepId: 'start', formData: {} } });
    expect(navigations.map((n) => n.stepId)).toEqual(['a']);
    expect(shown).toEqual([]);
    const submitting = allSettled(engine.stepSubmitted, { scope, params: { stepId: 'a', formData: { x: 'hola' } } });
    await requested;
    expect(scope.getState(engine.$loadingMessage)).toBe('default');
    release({ valido: true });
    await submitting;
    expect(scope.getState(engine.$loadingMessage)).toBeNull();
    expect(navigations.map((n) => n.stepId)).toEqual(['a', 'b']);
  });

  it('a failed check shows the server message on the field and keeps what was typed', async () => {
    const { engine, scope, navigations } = setup(() => ({ valido: false, mensaje: 'Ese dato no es válido.' }));
    await allSettled(engine.stepSubmitted, { scope, params: { stepId: 'a', formData: { x: 'mal' } } });
    expect(scope.getState(engine.$errors).a).toEqual({ fields: { x: 'Ese dato no es válido.' }, banner: null });
    expect(scope.getState(engine.$state).answers.a).toEqual({ x: 'mal' });
    expect(navigations).toEqual([]);
  });

  it('a failed check shows its message on the field the reply names (fieldFrom), else on the declared one', async () => {
    const engine = createFlowEngine({
      flow: {
        ...flow,
        calls: {
          ...flow.calls,
          check: { ...flow.calls.check, check: { ok: '/valido', message: '/mensaje', field: 'x', fieldFrom: '/campo' } },
        },
      },
      genericError: 'Error genérico',
      timeoutError: 'Demora',
    });
    const named = fork({
      handlers: [[engine.requestFx, async () => ({ valido: false, mensaje: 'La tarjeta está vencida.', campo: 'vencimiento' })]],
    });
    await allSettled(engine.stepSubmitted, { scope: named, params: { stepId: 'a', formData: { x: '1' } } });
    expect(named.getState(engine.$errors).a).toEqual({ fields: { vencimiento: 'La tarjeta está vencida.' }, banner: null });
    const unnamed = fork({ handlers: [[engine.requestFx, async () => ({ valido: false, mensaje: 'No.' })]] });
    await allSettled(engine.stepSubmitted, { scope: unnamed, params: { stepId: 'a', formData: { x: '1' } } });
    expect(unnamed.getState(engine.$errors).a).toEqual({ fields: { x: 'No.' }, banner: null });
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

  it('a 400 whose errors name a wire field shows each message on the form field that fed it; others go to the banner', async () => {
    const { engine, scope, navigations } = setup((req) => {
      const fields =
        req.path === '/save'
          ? [{ field: '/y', message: 'Revisá este dato.' }]
          : [
              { field: '/x', message: 'No es válido.' },
              { field: '/otro', message: 'Algo más.' },
            ];
      throw { message: 'Revisá los datos ingresados.', errors: fields };
    });
    await allSettled(engine.stepSubmitted, { scope, params: { stepId: 'b', formData: { y: 3 } } });
    expect(scope.getState(engine.$errors).b).toEqual({ fields: { y: 'Revisá este dato.' }, banner: null });
    expect(scope.getState(engine.$state).answers.b).toEqual({ y: 3 });
    await allSettled(engine.stepSubmitted, { scope, params: { stepId: 'a', formData: { x: 'mal' } } });
    expect(scope.getState(engine.$errors).a).toEqual({ fields: {}, banner: 'Revisá los datos ingresados.' });
    expect(navigations).toEqual([]);
  });

  it('a call marked idempotent carries the same key for the same request, and another key for another request', async () => {
    const def = miniJson as unknown as FlowDef;
    const idem = compileFlowNode({ ...def, calls: { ...def.calls, save: { ...def.calls.save, idempotent: true } } });
    const engine = createFlowEngine({ flow: idem, genericError: 'x', timeoutError: 'y' });
    const requests: ApiRequest[] = [];
    const scope = fork({
      handlers: [
        [engine.requestFx, async (req: ApiRequest) => (requests.push(req), { id: 1 })],
        [engine.navigateFx, () => undefined],
      ],
    });
    for (const y of [1, 1, 2]) await allSettled(engine.stepSubmitted, { scope, params: { stepId: 'b', formData: { y } } });
    const keys = requests.map((r) => r.idempotencyKey);
    expect(keys[0]).toMatch(/^[0-9a-f]{16}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
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
    await allSettled(engine.stateRestored, {
      scope,
      params: { flags: on('c'), answers: { a: { x: '1' } }, data: { saved: { id: 1 } }, numberDetailStep: 1.3 },
    });
    await allSettled(engine.sessionExpired, { scope });
    expect(scope.getState(engine.$state)).toEqual(emptyState(flow));
    expect(navigations).toEqual([{ stepId: 'start', replace: true }]);

    const done = { flags: on('done'), answers: { a: { x: '1' } }, data: { result: { estado: 'OK' } }, numberDetailStep: 1.3 };
    await allSettled(engine.stateRestored, { scope, params: done });
    await allSettled(engine.sessionExpired, { scope });
    expect(scope.getState(engine.$state)).toEqual({ ...done, version: flow.version });
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

  it('browser back and forward follow the graph order, not the order of the steps in the file', async () => {
    // the same journey with "b" written before "a" in the file: a → b is still forward, b → a still back
    const def = miniJson as unknown as FlowDef;
    const shuffled = compileFlowNode({ ...def, steps: [def.steps[0], def.steps[2], def.steps[1], ...def.steps.slice(3)] });
    const engine = createFlowEngine({ flow: shuffled, genericError: 'x', timeoutError: 'y' });
    const scope = fork();
    await allSettled(engine.stateRestored, { scope, params: { ...emptyState(shuffled), flags: { b: true }, numberDetailStep: 1.2 } });
    await allSettled(engine.routeEntered, { scope, params: { stepId: 'a', pop: true } });
    expect(scope.getState(engine.$state).numberDetailStep).toBe(1.1);
    await allSettled(engine.routeEntered, { scope, params: { stepId: 'b', pop: true } });
    expect(scope.getState(engine.$state).numberDetailStep).toBe(1.2);
    expect(scope.getState(engine.$state).flags.b).toBe(true);
  });

  it('a journey saved by an older flow version is brought forward by the declared migrations', async () => {
    const v3 = compileFlowNode({ ...(miniJson as unknown as FlowDef), version: 3 });
    const migrations = [
      { from: 1, to: 2, operations: [{ op: 'move' as const, from: '/answers/a/viejo', to: '/answers/a/x' }] },
      {
        from: 2,
        to: 3,
        operations: [
          { op: 'drop' as const, path: '/answers/quitado' },
          { op: 'mapFlag' as const, from: 'borrado', to: 'b' },
        ],
      },
    ];
    const engine = createFlowEngine({ flow: v3, genericError: 'x', timeoutError: 'y', migrations });
    const scope = fork();
    const saved = { flags: { borrado: true }, answers: { a: { viejo: 'hola' }, quitado: { z: 1 } }, data: {}, numberDetailStep: 1.2 };
    await allSettled(engine.stateRestored, { scope, params: saved });
    expect(scope.getState(engine.$state)).toEqual({
      flags: { ...Object.fromEntries(v3.flags.map((f) => [f, false])), b: true },
      answers: { a: { x: 'hola' } },
      data: {},
      numberDetailStep: 1.2,
      version: 3,
    });
    expect(scope.getState(engine.$notice)).toBeNull();
  });

  it('without a migration, an older saved journey restarts at step 1 with a notice — never a crash', async () => {
    const v2 = compileFlowNode({ ...(miniJson as unknown as FlowDef), version: 2 });
    const engine = createFlowEngine({ flow: v2, genericError: 'x', timeoutError: 'y', migrations: [] });
    const scope = fork();
    await allSettled(engine.stateRestored, {
      scope,
      params: { flags: { c: true }, answers: { a: { x: 1 } }, data: {}, numberDetailStep: 1.3 },
    });
    expect(scope.getState(engine.$state)).toEqual(emptyState(v2));
    expect(scope.getState(engine.$notice)).toBe('flujoActualizado');
    await allSettled(engine.stepSubmitted, { scope, params: { stepId: 'start', formData: {} } });
    expect(scope.getState(engine.$notice)).toBeNull();
  });

  it('a restored state from old storage is sanitised, not trusted', async () => {
    const { engine, scope } = setup(() => ({}));
    await allSettled(engine.stateRestored, { scope, params: { flags: { a: true, inventado: true }, answers: null } as never });
    expect(scope.getState(engine.$state).flags).toEqual(on('a'));
    expect(scope.getState(engine.$state).answers).toEqual({});
  });
});
