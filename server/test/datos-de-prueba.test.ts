/**
 * The test data docs/testers.md › Test data gives testers, held to what the API does with it: each card and CBU is
 * accepted or refused on the payment step (POST /api/pagos/validar-medio-pago, the check the step's submit makes) with
 * the message the table quotes, or accepted there and refused by the payment entity at emission; the locality lookup
 * answers the row the docs quote; each example locality prices in the zone the docs name. A changed rule turns this
 * red, so the testers' table cannot drift from the code.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveZone } from '../src/domain/rating/engine.ts';
import { esMedioPagoRechazado } from '../src/domain/emision/service.ts';
import { validarVencimiento } from '../src/domain/validation/tarjeta.ts';
import { LANUS } from '../../tests/support/localidades.ts';
import { buildTestApp, get, post } from './helper.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

/** What the payment step's check answers for a card or a CBU, and whether emission then refuses it. */
async function pago(methodPayment: 'TC' | 'CBU', numero: string): Promise<{ paso: string; emision?: 'emitida' | 'rechazada' }> {
  const body = methodPayment === 'TC' ? { methodPayment, numberPaymentCard: numero } : { methodPayment, numberCBU: numero };
  const res = await post(app, '/api/pagos/validar-medio-pago', body);
  expect(res.statusCode).toBe(200);
  const r = res.json() as { valido: boolean; mensaje?: string };
  if (!r.valido) return { paso: r.mensaje! };
  return { paso: 'aceptado', emision: esMedioPagoRechazado(methodPayment, numero.replace(/\s/g, '')) ? 'rechazada' : 'emitida' };
}

describe('docs/testers.md › Test data', () => {
  it.each([
    ['4242 4242 4242 4242', { paso: 'aceptado', emision: 'emitida' }],
    ['4111 1111 1111 1111', { paso: 'aceptado', emision: 'emitida' }],
    ['5555 5555 5555 4444', { paso: 'aceptado', emision: 'emitida' }],
    ['3782 822463 10005', { paso: 'aceptado', emision: 'emitida' }],
    ['4000 0000 0000 0002', { paso: 'aceptado', emision: 'rechazada' }],
    ['4242 4242 4242 4241', { paso: 'El número de tarjeta no es válido. Revisalo.' }],
    ['6011 1111 1111 1117', { paso: 'Aceptamos Visa, Mastercard, American Express, Cabal y Naranja.' }],
    ['4242 4242 4242', { paso: 'Ingresá el número de tarjeta completo.' }],
  ])('card %s', async (numero, esperado) => {
    expect(await pago('TC', numero)).toEqual(esperado);
  });

  it('a card expired last month is refused; one valid to the end of this month is not', () => {
    expect(validarVencimiento('01/20', '2026-11-25')).toEqual({ valido: false, mensaje: 'La tarjeta está vencida.' });
    expect(validarVencimiento('11/26', '2026-11-30')).toEqual({ valido: true });
  });

  it.each([
    ['2850590909400904181356', { paso: 'aceptado', emision: 'emitida' }],
    ['2850590940090418135201', { paso: 'aceptado', emision: 'emitida' }],
    ['2850590900000000000000', { paso: 'aceptado', emision: 'rechazada' }],
    ['2850590909400904181357', { paso: 'El CBU no es válido. Revisá los números.' }],
    ['0000003100000000000017', { paso: 'Ingresá un CBU bancario: los CVU de billeteras virtuales no admiten débito automático.' }],
    ['9990001800000000000017', { paso: 'El CBU no corresponde a un banco habilitado.' }],
  ])('CBU %s', async (numero, esperado) => {
    expect(await pago('CBU', numero)).toEqual(esperado);
  });

  it('the locality lookup answers the fields a fixture copies, and the example localities price in the zones named', async () => {
    const res = await get(app, '/api/listas/localidades?provincia=06&q=lanus');
    expect(res.json()).toEqual([{ ...LANUS, lat: null, lon: null }]);
    const zona = (codLocalidad: string) => resolveZone(app.deps.tariff, app.deps.lists.localidadesPorId.get(codLocalidad)!);
    expect(['06434010', '06441030', '14091250'].map(zona)).toEqual(['Z1', 'Z2', 'Z3']);
  });
});
