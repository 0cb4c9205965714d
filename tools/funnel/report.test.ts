/** The funnel report's counts on the mini flow (start → a → b → c → done | failed): pure, exact. */
import { describe, expect, it } from 'vitest';
import miniJson from '../../tests/fixtures/mini-flow.json';
import { compileFlowNode } from '../check/conditions.ts';
import type { FlowDef } from '../../src/core/flow/types.ts';
import { funnelReport, formatFunnel, type StoredEvent } from './report';

const flow = compileFlowNode({ ...(miniJson as unknown as FlowDef), funnel: { call: 'embudo', batchMs: 2000, splitBy: { a: 'x' } } });
const at = (s: number) => new Date(Date.UTC(2026, 10, 20, 15, 0, s)).toISOString();
/** Events of one journey, one second apart: "m:a" shown, "e:a" submitted, "e:a:TC" submitted choosing TC. */
const journey = (id: string, steps: string[], extra: Partial<StoredEvent> = {}): StoredEvent[] =>
  steps.map((s, i) => {
    const [t, paso, rama] = s.split(':');
    return { recorrido: id, paso, tipo: t === 'm' ? 'mostrado' : 'enviado', en: at(i), ...(rama ? { rama } : {}), ...extra };
  });

describe('funnelReport', () => {
  it('puts batches that arrived out of order back by browser time', () => {
    const events = journey('j1', ['m:start', 'e:start', 'm:a', 'e:a:TC', 'm:b']);
    const r = funnelReport(flow, [...events.slice(3), ...events.slice(0, 3)]);
    expect(r.pasos.map((p) => [p.paso, p.mostrados, p.completados, p.abandonos])).toEqual([
      ['start', 1, 1, 0],
      ['a', 1, 1, 0],
      ['b', 1, 0, 1],
      ['c', 0, 0, 0],
      ['done', 0, null, null],
      ['failed', 0, null, null],
    ]);
    expect(r.aristas.map((a) => `${a.desde}>${a.hasta} ${a.tipo} ${a.rama ?? ''}`.trim())).toEqual([
      'start>a siguiente',
      'a>b siguiente TC',
    ]);
  });

  it('a submit without moving on is not "completed"; going back is a back loop, and the drop is where the journey ended', () => {
    const r = funnelReport(flow, journey('j1', ['m:start', 'e:start', 'm:a', 'e:a:CBU', 'm:b', 'e:b', 'm:a']));
    const row = Object.fromEntries(r.pasos.map((p) => [p.paso, [p.mostrados, p.completados, p.abandonos]]));
    expect(row).toMatchObject({ a: [1, 1, 1], b: [1, 0, 0] }); // b submitted, then back to a: neither completed nor dropped
    expect(r.aristas.find((x) => x.tipo === 'atras')).toEqual({ desde: 'b', hasta: 'a', tipo: 'atras', recorridos: 1, proporcion: 1 });
  });

  it('leaves synthetic journeys out, with the steps of older flows they carried', () => {
    const events = [...journey('real', ['m:start']), ...journey('replay', ['m:start', 'm:paso-viejo'], { sintetico: true })];
    expect(funnelReport(flow, events)).toMatchObject({ recorridos: 1, sinteticosExcluidos: 1, otrosPasos: {} });
    expect(funnelReport(flow, events, { incluirSinteticos: true })).toMatchObject({
      recorridos: 2,
      sinteticosExcluidos: 0,
      otrosPasos: { 'paso-viejo': 1 },
    });
  });

  it('prints the step table and the moves, result steps with dashes', () => {
    const text = formatFunnel(
      funnelReport(flow, [...journey('j1', ['m:start', 'e:start', 'm:a']), ...journey('j2', ['m:x'], { sintetico: true })]),
      '2026-11-01',
    );
    expect(text.split('\n')[0]).toBe(
      'Embudo de pasos desde 2026-11-01: 1 recorridos (1 sintéticos excluidos: reproducciones, vista previa, pruebas)',
    );
    expect(text).toContain('\nstart            1            1          0             0,0 %\n');
    expect(text).toContain('\ndone             0            —          —                 —\n');
    expect(text).toContain('\nstart  a      siguió           1     100,0 %');
  });
});
