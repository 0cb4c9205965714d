/**
 * Every journey fixture replayed headless through the engine's Effector model against the real API in-process
 * (tools/replay/headless.ts) — the fast replay that runs on every change; the browser replay runs the same files in
 * Chromium (tests/e2e/journeys.spec.ts).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJourneys } from '../../scripts/flow-paths.ts';
import { loadReplayProduct } from '../../scripts/replay.ts';
import { loadProduct } from '../../scripts/flow-check.ts';
import { visitor } from '../../tools/replay/inject.ts';
import { replayHeadless } from '../../tools/replay/headless.ts';
import { funnelReport, type StoredEvent } from '../../tools/funnel/report.ts';
import { buildTestApp } from './helper.ts';

describe('journey fixtures, headless', () => {
  const product = loadReplayProduct('.');
  const texts = loadProduct('.').texts;
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ rateLimitMax: 1_000_000 } as never);
  });
  afterAll(async () => app?.close());

  it.each(loadJourneys('.').map((j) => [j.name, j] as const))('%s', async (_, journey) => {
    const reports = await replayHeadless(journey, product, { request: visitor(app), texts });
    const failed = reports.find((r) => !r.ok);
    expect(failed, failed ? `paso ${failed.index} (${failed.route}): ${failed.error} ${failed.text ?? ''}` : '').toBeUndefined();
    expect(reports).toHaveLength(journey.steps.length);
  });
});

describe('the staff funnel, on a database filled by replaying fixtures', () => {
  it('marks every replayed journey synthetic; included, counts visitors, completed, dropped and moves exactly as they went', async () => {
    const product = loadReplayProduct('.');
    const app = await buildTestApp({ rateLimitMax: 1_000_000 } as never);
    try {
      const byName = new Map(loadJourneys('.').map((j) => [j.name, j]));
      // bought; left on propiedad; idle on permanencia, then a new journey that starts again and is left on propiedad;
      // rejected, retried with another payment method, bought
      for (const name of ['compra-cbu-casa', 'chat-habilitado', 'inactividad', 'emision-rechazada-otro-medio']) {
        const reports = await replayHeadless(byName.get(name)!, product, { request: visitor(app), texts: loadProduct('.').texts });
        expect(
          reports.every((r) => r.ok),
          name,
        ).toBe(true);
      }
      const events = await app.deps.db.query<StoredEvent>('SELECT recorrido, paso, tipo, rama, sintetico FROM embudo_eventos ORDER BY id');
      // a replay's journeys are marked synthetic: the staff report leaves every one out unless asked
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((e) => e.sintetico)).toBe(true);
      expect(funnelReport(product.flow, events)).toMatchObject({ recorridos: 0, sinteticosExcluidos: 5 });
      const report = funnelReport(product.flow, events, { incluirSinteticos: true });
      const row = (paso: string) => report.pasos.find((p) => p.paso === paso)!;
      const counts = (paso: string) => [row(paso).mostrados, row(paso).completados, row(paso).abandonos];
      expect(report.recorridos).toBe(5);
      expect(counts('inicio')).toEqual([5, 5, 0]);
      expect(counts('propiedad')).toEqual([5, 3, 2]);
      expect(counts('permanencia')).toEqual([3, 2, 1]);
      for (const paso of [
        'metros',
        'localidad',
        'contacto',
        'vigencia',
        'cotizacion',
        'adicionales',
        'datos-personales',
        'direccion',
        'confirmar-datos-personales',
        'metodo-de-pago',
        'confirmacion',
      ]) {
        expect(counts(paso), paso).toEqual([2, 2, 0]);
      }
      expect(counts('gracias')).toEqual([2, null, null]); // result steps: nothing to complete or drop
      expect(counts('error')).toEqual([1, null, null]);
      // the way out of the payment step splits by the method chosen: CBU in both journeys, then a card on the retry;
      // the rejection is the flow's "si no" branch (the emission answered, no policy), the retry the error's action
      const out = (desde: string) =>
        report.aristas.filter((a) => a.desde === desde).map((a) => [a.hasta, a.tipo, a.rama ?? '', a.recorridos]);
      expect(out('metodo-de-pago')).toEqual([
        ['confirmacion', 'siguiente', 'CBU', 2],
        ['confirmacion', 'siguiente', 'TC', 1],
      ]);
      expect(out('confirmacion')).toEqual([
        ['gracias', 'siguiente', '', 2],
        ['error', 'siguiente', '', 1],
      ]);
      expect(out('error')).toEqual([['metodo-de-pago', 'accion', '', 1]]);
      expect(row('permanencia').tasaAbandono).toBeCloseTo(1 / 3);
    } finally {
      await app.close();
    }
  });
});
