/**
 * Development pages off the network: `npm start` listens on loopback only, the development pages
 * (/api/dev/*: every e-mail with its policy PDF, any policy's state and tracking codes — what the botón de baja asks
 * for) exist only on a server explicitly in development, and even there answer only clients on this machine.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.ts';
import { buildTestApp } from './helper.ts';
import { startServer } from './processes.ts';

/** The local IPv4 addresses (dotted) listening on `port`, from the kernel's socket table (no traffic sent). */
function direccionesEscuchando(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length > 3 && f[3] === '0A' && f[1].endsWith(`:${hexPort}`))
    .map((f) =>
      f[1]
        .split(':')[0]
        .match(/../g)!
        .reverse()
        .map((h) => parseInt(h, 16))
        .join('.'),
    );
}

describe('development pages off the network', () => {
  it('npm start (no HOST, no NODE_ENV) listens on 127.0.0.1 only and has no development pages', async () => {
    const server = await startServer(0, { HOST: '', NODE_ENV: '' });
    try {
      const port = Number(new URL(server.url).port);
      expect(direccionesEscuchando(port)).toEqual(['127.0.0.1']);
      expect((await fetch(`${server.url}/api/dev/correo`)).status).toBe(404);
      expect((await fetch(`${server.url}/api/dev/poliza/HOG-2026-000001`)).status).toBe(404);
      expect((await (await fetch(`${server.url}/api/grabador`)).json()).habilitado).toBe(false);
    } finally {
      await server.stop();
    }
  });

  it('config: loopback by default, HOST overrides; development and the recorder switch only when said explicitly', () => {
    expect(readConfig({}).host).toBe('127.0.0.1');
    expect(readConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(readConfig({}).desarrollo).toBe(false);
    expect(readConfig({ NODE_ENV: 'production' }).desarrollo).toBe(false);
    expect(readConfig({ NODE_ENV: 'development' }).desarrollo).toBe(true);
    expect(readConfig({ GRABADOR: '1' }).grabador).toBe(false);
    expect(readConfig({ GRABADOR: '1', NODE_ENV: 'production' }).grabador).toBe(false);
    expect(readConfig({ GRABADOR: '1', NODE_ENV: 'development' }).grabador).toBe(true);
  });

  it('a production app has no development route (404 in the stable error shape)', async () => {
    const app = await buildTestApp();
    try {
      for (const url of [
        '/api/dev/correo',
        '/api/dev/poliza/HOG-2026-000001',
        '/api/dev/correo/00000000-0000-0000-0000-000000000000/adjunto/0',
      ]) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(404);
        expect(res.json(), url).toMatchObject({ status: 404, code: 'NO_ENCONTRADO' });
      }
    } finally {
      await app.close();
    }
  });

  it('in development they answer loopback clients only: another address or a forwarded request gets 404', async () => {
    const app = await buildTestApp({ devPages: true });
    try {
      expect((await app.inject({ method: 'GET', url: '/api/dev/correo' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/dev/correo', remoteAddress: '::1' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/dev/correo', remoteAddress: '192.168.1.20' })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: '/api/dev/correo', remoteAddress: '::ffff:10.0.0.5' })).statusCode).toBe(404);
      // A reverse proxy on the same host connects from loopback for everybody: its forwarding header closes the page.
      expect((await app.inject({ method: 'GET', url: '/api/dev/correo', headers: { 'x-forwarded-for': '203.0.113.9' } })).statusCode).toBe(
        404,
      );
      expect((await app.inject({ method: 'GET', url: '/api/dev/correo', headers: { forwarded: 'for=203.0.113.9' } })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: '/api/dev/poliza/HOG-2026-000001', remoteAddress: '192.168.1.20' })).statusCode).toBe(
        404,
      );
    } finally {
      await app.close();
    }
  });

  it('no 5xx on any development route, whatever the path parameters', async () => {
    const app = await buildTestApp({ devPages: true });
    try {
      for (const url of [
        '/api/dev/poliza/%00',
        '/api/dev/poliza/HOG-2026-000001',
        '/api/dev/poliza/%F0%9F%92%A5',
        '/api/dev/correo/%00/adjunto/0',
        '/api/dev/correo/nope/adjunto/0',
        '/api/dev/correo/00000000-0000-0000-0000-000000000000/adjunto/-1',
        '/api/dev/correo/00000000-0000-0000-0000-000000000000/adjunto/99999999999999999999',
      ]) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(404);
      }
    } finally {
      await app.close();
    }
  });
});
