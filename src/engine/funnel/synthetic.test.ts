/**
 * The funnel's synthetic marker and branch value: a journey the staff preview, the recorder, a replay
 * or a test drives sends its batches with `sintetico: true`; a step named in funnel.splitBy carries the chosen value.
 */
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import miniJson from '../../../tests/fixtures/mini-flow.json';
import { compileFlowNode } from '../../../tools/check/conditions.ts';
import type { FlowDef } from '../../core/flow/types.ts';
import { createFlowEngine, type ApiRequest } from '../model';
import { createFunnel, isSyntheticBrowser, markSynthetic, SYNTHETIC_STORAGE_KEY, type FunnelBatch } from './index';

const flow = compileFlowNode({
  ...(miniJson as unknown as FlowDef),
  funnel: { call: 'embudo', batchMs: 2000, splitBy: { a: 'x' } },
  calls: { ...(miniJson as unknown as FlowDef).calls, embudo: { method: 'POST', path: '/embudo', body: '/input', optional: true } },
});
const T0 = Date.UTC(2026, 10, 20, 15, 0, 0);
const recorrido = 'aaaaaaaa-0000-4000-8000-000000000001';

function setup(synthetic?: () => boolean) {
  const engine = createFlowEngine({ flow, genericError: 'Error genérico', timeoutError: 'Demora', meta: {} });
  const funnel = createFunnel({
    engine,
    call: 'embudo',
    maxBatch: 50,
    journey: { initial: recorrido, renew: () => recorrido },
    synthetic,
    now: () => T0,
  });
  const sent: FunnelBatch[] = [];
  const navigations: string[] = [];
  const scope = fork({
    handlers: [
      [
        engine.requestFx,
        async (req: ApiRequest) =>
          req.path === '/embudo' ? (sent.push(req.body as FunnelBatch), { ok: true }) : req.path === '/save' ? { id: 7 } : { valido: true },
      ],
      [engine.navigateFx, ({ stepId }: { stepId: string }) => void navigations.push(stepId)],
    ],
  });
  const show = (stepId: string) => allSettled(engine.routeEntered, { scope, params: { stepId, pop: false } });
  /** The visitor submits `stepId` and the router shows where the engine sent them. */
  const submit = async (stepId: string, formData: Record<string, unknown> = {}) => {
    const before = navigations.length;
    await allSettled(engine.stepSubmitted, { scope, params: { stepId, formData } });
    if (navigations.length > before) await show(navigations[navigations.length - 1]);
  };
  const flush = () => allSettled(funnel.flushed, { scope });
  /** Shown the landing, submitted it, now on step a; nothing sent yet. */
  const toA = async () => {
    await show('start');
    await submit('start');
    await flush();
    sent.length = 0;
  };
  return { sent, submit, show, flush, toA };
}

/** sessionStorage stand-in. */
function memory(): Storage {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
    clear: () => m.clear(),
    key: () => null,
    get length() {
      return m.size;
    },
  };
}

describe('synthetic journeys', () => {
  it('a real visitor\'s batch has no marker; the branch value of a splitBy step rides on its "enviado"', async () => {
    const t = setup();
    await t.toA();
    await t.submit('a', { x: 'TC' });
    await t.flush();
    const en = new Date(T0).toISOString();
    expect(t.sent).toEqual([
      {
        versionFlujo: 1,
        eventos: [
          { recorrido, paso: 'a', tipo: 'enviado', en, rama: 'TC' },
          { recorrido, paso: 'b', tipo: 'mostrado', en },
        ],
      },
    ]);
  });

  it('free text in a splitBy field is never sent (only short codes)', async () => {
    const t = setup();
    await t.toA();
    await t.submit('a', { x: 'ana.perez@example.com' });
    await t.flush();
    expect(t.sent[0].eventos.find((e) => e.tipo === 'enviado')).toEqual({
      recorrido,
      paso: 'a',
      tipo: 'enviado',
      en: new Date(T0).toISOString(),
    });
  });

  it('once the tab is marked, every batch of the journey carries sintetico: true (events queued before it too)', async () => {
    let marked = false;
    const t = setup(() => marked);
    await t.show('start');
    await t.flush();
    expect(t.sent).toHaveLength(1);
    expect(t.sent[0].sintetico).toBeUndefined();
    await t.submit('start');
    marked = true;
    await t.submit('a', { x: 'CBU' });
    await t.flush();
    expect(t.sent[1]).toMatchObject({
      sintetico: true,
      eventos: [
        { paso: 'start', tipo: 'enviado' },
        { paso: 'a', tipo: 'mostrado' },
        { paso: 'a', tipo: 'enviado', rama: 'CBU' },
        { paso: 'b', tipo: 'mostrado' },
      ],
    });
    marked = false; // a marked tab stays marked
    await t.submit('b');
    await t.flush();
    expect(t.sent[2]).toMatchObject({
      sintetico: true,
      eventos: [
        { paso: 'b', tipo: 'enviado' },
        { paso: 'c', tipo: 'mostrado' },
      ],
    });
  });

  it('isSyntheticBrowser: navigator.webdriver or the session mark set by markSynthetic; nothing else', () => {
    const s = memory();
    expect(isSyntheticBrowser({ webdriver: false }, s)).toBe(false);
    expect(isSyntheticBrowser({ webdriver: true }, s)).toBe(true);
    s.setItem(SYNTHETIC_STORAGE_KEY, 'no');
    expect(isSyntheticBrowser({}, s)).toBe(false);
    markSynthetic(s);
    expect(s.getItem(SYNTHETIC_STORAGE_KEY)).toBe('1');
    expect(isSyntheticBrowser({}, s)).toBe(true);
    expect(isSyntheticBrowser(undefined, undefined)).toBe(false);
  });
});
