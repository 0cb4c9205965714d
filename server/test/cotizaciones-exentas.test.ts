/**
 * COTIZACIONES_EXENTAS names client addresses (testers' machines) that quote without the hourly limit; every
 * other address keeps it, and a forwarded header cannot claim an exempt address unless a trusted proxy sent it.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.ts';
import { exentaDeCotizaciones, parseCotizacionesExentas } from '../src/plugins/exentas.ts';
import { buildTestApp, cotizarBody } from './helper.ts';

async function cotizarDesde(app: FastifyInstance, remoteAddress: string, headers: Record<string, string> = {}): Promise<number> {
  const set = await app.inject({ method: 'GET', url: '/api/set-csrf', remoteAddress, headers });
  const cookie = set.cookies
    .filter((c) => c.name !== 'XSRF-TOKEN')
    .map((c) => `${c.name}=${c.value}`)
    .join('; ');
  const res = await app.inject({
    method: 'POST',
    url: '/api/cotizacion/cotizar',
    payload: cotizarBody(),
    remoteAddress,
    headers: { ...headers, 'x-xsrf-token': set.json().csrfToken, cookie },
  });
  return res.statusCode;
}

describe('COTIZACIONES_EXENTAS', () => {
  const apps: FastifyInstance[] = [];
  afterAll(async () => Promise.all(apps.map((a) => a.close())));

  it('is read from the environment: addresses and subnets, IPv4 and IPv6; anything else refused by name', () => {
    expect(readConfig({}).cotizacionesExentas).toEqual([]);
    expect(readConfig({ COTIZACIONES_EXENTAS: '127.0.0.1, 10.0.0.5,10.1.0.0/16,::1' }).cotizacionesExentas).toEqual([
      '127.0.0.1',
      '10.0.0.5',
      '10.1.0.0/16',
      '::1',
    ]);
    expect(() => parseCotizacionesExentas('127.0.0.1,qa-testers')).toThrow(
      'COTIZACIONES_EXENTAS: «qa-testers» no es una dirección IP ni una subred',
    );
    expect(() => parseCotizacionesExentas('10.0.0.0/33')).toThrow('«10.0.0.0/33»');
    const exenta = exentaDeCotizaciones(['10.0.0.5', '10.1.0.0/16']);
    expect(['10.0.0.5', '::ffff:10.0.0.5', '10.1.200.3', '10.0.0.6', '203.0.113.9'].map(exenta)).toEqual([true, true, true, false, false]);
  });

  it('an exempt address quotes past the hourly limit; another address is stopped at it, even claiming an exempt one in X-Forwarded-For', async () => {
    const app = await buildTestApp({ settings: { cotizacionesPorHoraPorIp: 2 }, cotizacionesExentas: ['10.0.0.5'] });
    apps.push(app);
    const exenta = [];
    for (let i = 0; i < 4; i++) exenta.push(await cotizarDesde(app, '10.0.0.5'));
    expect(exenta).toEqual([200, 200, 200, 200]);
    const otra = [];
    for (let i = 0; i < 3; i++) otra.push(await cotizarDesde(app, '203.0.113.9', { 'x-forwarded-for': '10.0.0.5' }));
    expect(otra).toEqual([200, 200, 429]);
  });

  it('behind a trusted proxy, the address the proxy reports is the one matched', async () => {
    const app = await buildTestApp({
      settings: { cotizacionesPorHoraPorIp: 1 },
      cotizacionesExentas: ['10.0.0.5'],
      trustProxy: ['127.0.0.1'],
    });
    apps.push(app);
    const viaProxy = [];
    for (let i = 0; i < 3; i++) viaProxy.push(await cotizarDesde(app, '127.0.0.1', { 'x-forwarded-for': '10.0.0.5' }));
    expect(viaProxy).toEqual([200, 200, 200]);
    expect([
      await cotizarDesde(app, '127.0.0.1', { 'x-forwarded-for': '198.51.100.7' }),
      await cotizarDesde(app, '127.0.0.1', { 'x-forwarded-for': '198.51.100.7' }),
    ]).toEqual([200, 429]);
  });
});
