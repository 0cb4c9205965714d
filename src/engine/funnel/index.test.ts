// @vitest-environment jsdom -- pagehide, visibility and sessionStorage as the browser has them
/** The funnel in the browser: batching, no personal data, never in the visitor's way — Effector fork. */
import { allSettled, createEvent, fork } from 'effector';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import miniJson from '../../../tests/fixtures/mini-flow.json';
import { ApiError, postKeepalive, postOnPageExit } from '../../api/client';
import { compileFlowNode } from '../../../tools/check/conditions.ts';
import type { FlowDef } from '../../core/flow/types.ts';
import { createFlowEngine, type ApiRequest } from '../model';
import { bindFunnel, createFunnel, JOURNEY_STORAGE_KEY, journeyId, type FunnelBatch } from './index';
import { sendWithKeepalive } from '../runtime';

// the mini flow plus a funnel block naming its call, as flow.json does
const flow = compileFlowNode({
  ...(miniJson as unknown as FlowDef),
  funnel: { call: 'embudo', batchMs: 2000 },
  calls: { ...(miniJson as unknown as FlowDef).calls, embudo: { method: 'POST', path: '/embudo', body: '/input', optional: true } },
});
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const T0 = Date.UTC(2026, 10, 20, 15, 0, 0);

/** Engine + funnel in a fork; flow calls answer `valido`, the funnel call does what `funnelReply` says. */
function setup(funnelReply: (req: ApiRequest) => Promise<unknown> = async () => ({ ok: true }), maxBatch = 50, valido = true) {
  const engine = createFlowEngine({
    flow,
    genericError: 'Error genérico',
    timeoutError: 'Demora',
    meta: { sessionKey: 'clave-de-sesion-1' },
  });
  let n = 0;
  const funnel = createFunnel({
    engine,
    call: 'embudo',
    maxBatch,
    journey: { initial: 'aaaaaaaa-0000-4000-8000-000000000001', renew: () => `aaaaaaaa-0000-4000-8000-00000000000${++n + 1}` },
    now: () => T0,
  });
  const sent: FunnelBatch[] = [];
  const navigations: string[] = [];
  const scope = fork({
    handlers: [
      [
        engine.requestFx,
        async (req: ApiRequest) => {
          if (req.path === '/embudo') {
            sent.push(req.body as FunnelBatch);
            return funnelReply(req);
          }
          return req.path === '/save' ? { id: 7 } : { valido, mensaje: 'Ese dato no es válido.' };
        },
      ],
      [engine.navigateFx, ({ stepId }: { stepId: string }) => void navigations.push(stepId)],
    ],
  });
  /** The visitor submits `stepId` and the router shows where the engine sent them. */
  const submit = async (stepId: string, formData: Record<string, unknown> = {}) => {
    const before = navigations.length;
    await allSettled(engine.stepSubmitted, { scope, params: { stepId, formData } });
    if (navigations.length > before)
      await allSettled(engine.routeEntered, { scope, params: { stepId: navigations[navigations.length - 1], pop: false } });
  };
  const show = (stepId: string) => allSettled(engine.routeEntered, { scope, params: { stepId, pop: false } });
  return { engine, funnel, scope, sent, navigations, submit, show };
}

let errorSpy: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  errorSpy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe('funnel events', () => {
  it('queues each step shown and submitted, and sends them in one batch when the timer fires', async () => {
    const t = setup();
    await t.show('start');
    await t.submit('start');
    await t.submit('a', { x: 'hola' });
    expect(t.sent).toEqual([]); // nothing leaves before the timer
    expect(t.scope.getState(t.funnel.$queue)).toHaveLength(5);
    await allSettled(t.funnel.flushed, { scope: t.scope });
    const en = new Date(T0).toISOString();
    const recorrido = 'aaaaaaaa-0000-4000-8000-000000000001';
    expect(t.sent).toEqual([
      {
        versionFlujo: 1,
        eventos: [
          { recorrido, paso: 'start', tipo: 'mostrado', en },
          { recorrido, paso: 'start', tipo: 'enviado', en },
          { recorrido, paso: 'a', tipo: 'mostrado', en },
          { recorrido, paso: 'a', tipo: 'enviado', en },
          { recorrido, paso: 'b', tipo: 'mostrado', en },
        ],
      },
    ]);
    expect(t.scope.getState(t.funnel.$queue)).toEqual([]);
    await allSettled(t.funnel.flushed, { scope: t.scope });
    expect(t.sent).toHaveLength(1); // an empty queue sends nothing
  });

  it('a submit the flow refuses (a failed check) is not "submitted"', async () => {
    const t = setup(undefined, 50, false);
    await t.show('start');
    await t.submit('start');
    await t.submit('a', { x: 'mal' });
    await allSettled(t.funnel.flushed, { scope: t.scope });
    expect(t.navigations).toEqual(['a']);
    expect(t.sent[0].eventos.map((e) => `${e.tipo} ${e.paso}`)).toEqual(['mostrado start', 'enviado start', 'mostrado a']);
  });

  it(`splits a long queue into batches of at most the wire's maximum`, async () => {
    const t = setup(undefined, 2);
    await t.show('start');
    await t.submit('start');
    await t.submit('a', { x: 'hola' });
    await allSettled(t.funnel.flushed, { scope: t.scope });
    expect(t.sent.map((b) => b.eventos.length)).toEqual([2, 2, 1]);
  });

  it('carries no personal data: nothing typed, not the session key, only step, kind, time and a random journey id', async () => {
    const t = setup();
    await t.show('start');
    await t.submit('start');
    await t.submit('a', { x: 'ana.perez@example.com' });
    await t.submit('b', { y: 30123456, secret: '4242424242424242' });
    await allSettled(t.funnel.flushed, { scope: t.scope });
    const text = JSON.stringify(t.sent);
    for (const typed of ['ana.perez@example.com', '30123456', '4242424242424242', 'clave-de-sesion-1']) expect(text).not.toContain(typed);
    for (const e of t.sent.flatMap((b) => b.eventos)) expect(Object.keys(e).sort()).toEqual(['en', 'paso', 'recorrido', 'tipo']);
  });

  it('a new journey id after the visitor starts over', async () => {
    const t = setup();
    await t.show('start');
    await allSettled(t.engine.restartClicked, { scope: t.scope });
    await t.show('start');
    await allSettled(t.funnel.flushed, { scope: t.scope });
    const ids = t.sent[0].eventos.map((e) => e.recorrido);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('a failing endpoint does not affect the journey: it goes on, no banner, only the console hears of it', async () => {
    const t = setup(async () => {
      throw new ApiError(503, 'SERVICIO_NO_DISPONIBLE', 'No disponible.');
    });
    await t.show('start');
    await allSettled(t.funnel.flushed, { scope: t.scope });
    await t.submit('start');
    await t.submit('a', { x: 'hola' });
    await allSettled(t.funnel.flushed, { scope: t.scope });
    expect(t.navigations).toEqual(['a', 'b']);
    expect(t.scope.getState(t.engine.$currentStep)).toBe('b');
    expect(Object.values(t.scope.getState(t.engine.$errors)).every((e) => e.banner === null)).toBe(true);
    expect(t.scope.getState(t.engine.$loadingMessage)).toBeNull();
    expect(errorSpy).toHaveBeenCalledWith('[embudo] No se pudieron enviar los eventos del embudo', expect.any(ApiError));
  });

  it('a funnel call that never answers does not hold the visitor: the next step opens meanwhile', async () => {
    let release!: () => void;
    const t = setup(() => new Promise((resolve) => (release = () => resolve({ ok: true }))));
    await t.show('start');
    const flushing = allSettled(t.funnel.flushed, { scope: t.scope }); // the send hangs
    // allSettled waits for every effect of the scope, the hanging send too: look from outside, without awaiting it
    const submitting = allSettled(t.engine.stepSubmitted, { scope: t.scope, params: { stepId: 'start', formData: {} } });
    await new Promise((r) => setTimeout(r, 50));
    expect(t.navigations).toEqual(['a']);
    expect(t.scope.getState(t.engine.$loadingMessage)).toBeNull();
    release();
    await submitting;
    await flushing;
  });

  it('the page going away sends what is queued through the exit transport', async () => {
    const t = setup();
    const exits: FunnelBatch[][] = [];
    const scope = fork({
      handlers: [
        [t.funnel.exitFx, async (b: FunnelBatch[]) => void exits.push(b)],
        [t.engine.navigateFx, () => undefined],
      ],
    });
    await allSettled(t.engine.routeEntered, { scope, params: { stepId: 'start', pop: false } });
    await allSettled(t.funnel.pageHidden, { scope });
    expect(exits).toHaveLength(1);
    expect(exits[0][0].eventos.map((e) => e.paso)).toEqual(['start']);
    expect(scope.getState(t.funnel.$queue)).toEqual([]);
  });
});

describe('bindFunnel', () => {
  it('flushes every batchMs and on pagehide / hidden document; unbinding stops it', async () => {
    vi.useFakeTimers();
    const funnel = { flushed: createEvent(), pageHidden: createEvent() };
    const flushed = vi.fn();
    const hidden = vi.fn();
    funnel.flushed.watch(flushed);
    funnel.pageHidden.watch(hidden);
    const stop = bindFunnel(window, funnel, 2000);
    await vi.advanceTimersByTimeAsync(4100);
    expect(flushed).toHaveBeenCalledTimes(2);
    window.dispatchEvent(new Event('pagehide'));
    expect(hidden).toHaveBeenCalledTimes(1);
    stop();
    await vi.advanceTimersByTimeAsync(4000);
    window.dispatchEvent(new Event('pagehide'));
    expect(flushed).toHaveBeenCalledTimes(2);
    expect(hidden).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
  });
});

describe('journeyId / postOnPageExit', () => {
  it('keeps one random journey id per tab (a reload continues it) and renews it on demand', () => {
    sessionStorage.clear();
    const a = journeyId(sessionStorage);
    expect(a).toMatch(UUID);
    expect(journeyId(sessionStorage)).toBe(a);
    expect(sessionStorage.getItem(JOURNEY_STORAGE_KEY)).toBe(a);
    const b = journeyId(sessionStorage, true);
    expect(b).not.toBe(a);
    expect(journeyId(sessionStorage)).toBe(b);
  });

  it('sends with keepalive and the CSRF token of the cookie; without a token nothing is sent', () => {
    const fetchSpy = vi.fn(async () => new Response('{}'));
    expect(postOnPageExit('/embudo/eventos', { versionFlujo: 2 }, { fetch: fetchSpy, cookies: () => 'a=1; XSRF-TOKEN=tok%3D1' })).toBe(
      true,
    );
    expect(fetchSpy).toHaveBeenCalledWith(
      '/api/embudo/eventos',
      expect.objectContaining({
        method: 'POST',
        keepalive: true,
        body: '{"versionFlujo":2}',
        headers: expect.objectContaining({ 'x-xsrf-token': 'tok=1' }),
      }),
    );
    expect(postOnPageExit('/embudo/eventos', {}, { fetch: fetchSpy, cookies: () => 'a=1' })).toBe(false);
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });

  it('a batch sent while the page lives goes with keepalive too, and says whether it arrived', async () => {
    const cookies = () => 'XSRF-TOKEN=tok';
    const reply = (status: number) => vi.fn(async () => new Response('{}', { status }));
    const ok = reply(200);
    await expect(postKeepalive('/embudo/eventos', { versionFlujo: 2 }, { fetch: ok, cookies })).resolves.toBeUndefined();
    expect(ok).toHaveBeenCalledWith('/api/embudo/eventos', expect.objectContaining({ keepalive: true }));
    await expect(postKeepalive('/embudo/eventos', {}, { fetch: reply(503), cookies })).rejects.toMatchObject({ status: 503 });
    const down = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(postKeepalive('/embudo/eventos', {}, { fetch: down, cookies })).rejects.toMatchObject({ status: 0, code: 'RED' });
    // no token yet (no POST made on this page): nothing sent, the caller goes through the flow's call instead
    expect(postKeepalive('/embudo/eventos', {}, { fetch: ok, cookies: () => '' })).toBeUndefined();
    expect(postKeepalive('/embudo/eventos', {}, { fetch: ok, cookies: () => 'XSRF-TOKEN=%E0%A4%A' })).toBeUndefined();
    // cookies that cannot be read (document.cookie throws in a sandboxed document): no token, nothing sent, no throw
    const sandboxed = () => {
      throw new DOMException('The document is sandboxed and lacks the allow-same-origin flag.', 'SecurityError');
    };
    expect(postKeepalive('/embudo/eventos', {}, { fetch: ok, cookies: sandboxed })).toBeUndefined();
    expect(ok).toHaveBeenCalledTimes(1);
  });
});

describe('the runtime sends the timer batches with keepalive once the page holds a token', () => {
  const engine = {
    flow: { calls: { embudo: { method: 'POST', path: '/embudo/eventos', body: '/input' } } },
    $context: { getState: () => ({}) },
  } as unknown as Parameters<typeof sendWithKeepalive>[1];
  const batch: FunnelBatch = { versionFlujo: 2, eventos: [] };
  afterEach(() => {
    vi.unstubAllGlobals();
    document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  });

  it('with the cookie token: keepalive, not the flow call (a batch on its way when the visitor leaves still arrives)', async () => {
    const fetchSpy = vi.fn(async () => new Response('{}'));
    vi.stubGlobal('fetch', fetchSpy);
    document.cookie = 'XSRF-TOKEN=tok';
    const viaCall = vi.fn(async () => undefined);
    await sendWithKeepalive('embudo', engine, viaCall)([batch, batch]);
    expect(viaCall).not.toHaveBeenCalled();
    expect(fetchSpy).toHaveBeenCalledTimes(2);
    expect(fetchSpy).toHaveBeenCalledWith('/api/embudo/eventos', expect.objectContaining({ keepalive: true, body: JSON.stringify(batch) }));
    // a refused batch is reported as the flow call would report it
    fetchSpy.mockResolvedValueOnce(new Response('{}', { status: 503 }));
    await expect(sendWithKeepalive('embudo', engine, viaCall)([batch])).rejects.toMatchObject({ status: 503 });
  });

  it('before any POST (no token yet): through the flow call, which fetches one', async () => {
    const fetchSpy = vi.fn(async () => new Response('{}'));
    vi.stubGlobal('fetch', fetchSpy);
    const viaCall = vi.fn(async () => undefined);
    await sendWithKeepalive('embudo', engine, viaCall)([batch]);
    expect(viaCall).toHaveBeenCalledWith([batch]);
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
