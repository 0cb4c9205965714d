/** POST /api/embudo/eventos (funnel for staff): what it stores, what it refuses, its limits, retention. */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depurar } from '../src/domain/maintenance/retention.ts';
import { MENSAJES } from '../src/errors.ts';
import { buildTestApp, expectError, expectSchema, getCsrf, post } from './helper.ts';
import embudoWire from '../../schemas/api/embudo.json' with { type: 'json' };

const URL = '/api/embudo/eventos';
const MAX = embudoWire.$defs.EventosBody.properties.eventos.maxItems;
const evento = (over: Record<string, unknown> = {}) => ({
  recorrido: randomUUID(),
  paso: 'propiedad',
  tipo: 'mostrado',
  en: '2026-11-20T15:00:00.000Z',
  ...over,
});

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => app.close());

describe('POST /api/embudo/eventos', () => {
  it('stores a batch as rows: journey, step, kind, browser time, flow version — and nothing else', async () => {
    const recorrido = randomUUID();
    const res = await post(app, URL, {
      versionFlujo: 2,
      eventos: [evento({ recorrido }), evento({ recorrido, tipo: 'enviado', en: '2026-11-20T15:00:04.000Z' })],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, registrados: 2 });
    expectSchema(res.json(), 'embudo', 'EventosRespuesta');
    const rows = await app.deps.db.query<Record<string, unknown>>(
      'SELECT recorrido::text, paso, tipo, ocurrido_en, version_flujo FROM embudo_eventos WHERE recorrido = $1 ORDER BY id',
      [recorrido],
    );
    expect(rows.map((r) => [r.paso, r.tipo, new Date(r.ocurrido_en as string).toISOString(), r.version_flujo])).toEqual([
      ['propiedad', 'mostrado', '2026-11-20T15:00:00.000Z', 2],
      ['propiedad', 'enviado', '2026-11-20T15:00:04.000Z', 2],
    ]);
  });

  it('stores the synthetic marker of a batch on every row (default false) and the chosen branch of an "enviado"', async () => {
    const real = randomUUID();
    const replay = randomUUID();
    expect(
      (
        await post(app, URL, {
          versionFlujo: 2,
          eventos: [evento({ recorrido: real, paso: 'metodo-de-pago', tipo: 'enviado', rama: 'CBU' })],
        })
      ).json(),
    ).toEqual({ ok: true, registrados: 1 });
    expect(
      (
        await post(app, URL, {
          versionFlujo: 2,
          sintetico: true,
          eventos: [evento({ recorrido: replay }), evento({ recorrido: replay, paso: 'metodo-de-pago', tipo: 'enviado', rama: 'TC' })],
        })
      ).json(),
    ).toEqual({ ok: true, registrados: 2 });
    const rows = await app.deps.db.query<{ r: string; paso: string; sintetico: boolean; rama: string | null }>(
      'SELECT recorrido::text AS r, paso, sintetico, rama FROM embudo_eventos WHERE recorrido IN ($1, $2) ORDER BY id',
      [real, replay],
    );
    expect(rows.map((x) => [x.r === real ? 'real' : 'replay', x.paso, x.sintetico, x.rama])).toEqual([
      ['real', 'metodo-de-pago', false, 'CBU'],
      ['replay', 'propiedad', true, null],
      ['replay', 'metodo-de-pago', true, 'TC'],
    ]);
  });

  it.each([
    ['a marker that is not a boolean', { versionFlujo: 2, sintetico: 'si', eventos: [evento()] }, '/sintetico'],
    [
      'a branch that is free text (e.g. something typed)',
      { versionFlujo: 2, eventos: [evento({ tipo: 'enviado', rama: 'ana@example.com' })] },
      '/eventos/0/rama',
    ],
    ['no events', { versionFlujo: 2, eventos: [] }, '/eventos'],
    [
      'a field the contract does not have (e.g. something typed)',
      { versionFlujo: 2, eventos: [evento({ email: 'ana@example.com' })] },
      '/eventos/0/email',
    ],
    ['an unknown kind', { versionFlujo: 2, eventos: [evento({ tipo: 'clic' })] }, '/eventos/0/tipo'],
    ['a journey id that is not a UUID', { versionFlujo: 2, eventos: [evento({ recorrido: '30123456' })] }, '/eventos/0/recorrido'],
    ['a step id that is not one', { versionFlujo: 2, eventos: [evento({ paso: '<script>' })] }, '/eventos/0/paso'],
    ['a time that is not a date', { versionFlujo: 2, eventos: [evento({ en: 'ayer' })] }, '/eventos/0/en'],
    ['no flow version', { eventos: [evento()] }, '/versionFlujo'],
    ['a field beside the events', { versionFlujo: 2, eventos: [evento()], dni: '30123456' }, '/dni'],
  ])('refuses %s with 400 in the one error shape', async (_, body, field) => {
    const res = await post(app, URL, body);
    expectError(res, 400, 'VALIDACION', MENSAJES.VALIDACION);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it(`takes at most ${MAX} events a batch (the browser splits its queue by the same number)`, async () => {
    const recorrido = randomUUID();
    const lleno = Array.from({ length: MAX }, () => evento({ recorrido }));
    expect((await post(app, URL, { versionFlujo: 2, eventos: lleno })).json()).toEqual({ ok: true, registrados: MAX });
    const res = await post(app, URL, { versionFlujo: 2, eventos: [...lleno, evento({ recorrido })] });
    expectError(res, 400, 'VALIDACION', MENSAJES.VALIDACION);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toEqual(['/eventos']);
    expect(
      (await app.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM embudo_eventos WHERE recorrido = $1', [recorrido]))[0].n,
    ).toBe(MAX);
  });

  it('refuses a POST without the CSRF token', async () => {
    const res = await app.inject({ method: 'POST', url: URL, payload: { versionFlujo: 2, eventos: [evento()] } });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('CSRF_INVALIDO');
  });

  it('limits batches per minute per address (shared counter in the database) with 429', async () => {
    const local = await buildTestApp({ embudoLotesPorMinuto: 3 });
    const csrf = await getCsrf(local);
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await post(local, URL, { versionFlujo: 2, eventos: [evento()] }, csrf)).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
    expectError(
      await post(local, URL, { versionFlujo: 2, eventos: [evento()] }, csrf),
      429,
      'DEMASIADAS_SOLICITUDES',
      MENSAJES.DEMASIADAS_SOLICITUDES,
    );
    await local.close();
  });

  it('retention deletes events older than the logs retention and keeps recent ones', async () => {
    const local = await buildTestApp();
    const viejo = randomUUID();
    const nuevo = randomUUID();
    await post(local, URL, { versionFlujo: 2, eventos: [evento({ recorrido: viejo }), evento({ recorrido: nuevo })] });
    await local.deps.db.query("UPDATE embudo_eventos SET recibido_en = now() - interval '91 days' WHERE recorrido = $1", [viejo]);
    expect(await depurar(local.deps.db, { logsDias: 90, cotizacionesDias: 30 })).toMatchObject({ embudo: 1 });
    expect((await local.deps.db.query<{ r: string }>('SELECT recorrido::text AS r FROM embudo_eventos')).map((x) => x.r)).toEqual([nuevo]);
    await local.close();
  });
});
