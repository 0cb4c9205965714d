/**
 * The anti-bot check when it is ON: cotizar refuses a quote without a solved ALTCHA challenge from
 * GET /api/antibot/desafio, accepts a solved one once, refuses a replay, an expired one and a tampered one — always in
 * the stable error shape with the Spanish message. Also: the challenge key is the same on every instance (derived from
 * the link key), the settings (config.ts), and the reCAPTCHA Enterprise adapter against a local stand-in server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.ts';
import { createPostgresDb } from '../src/db/index.ts';
import { createTestDatabase, pgUnavailable } from './processes.ts';
import { buildTestApp, cotizarBody, expectError, expectSchema, get, post } from './helper.ts';

const MENSAJE = 'No pudimos confirmar la verificación de seguridad de tu navegador. Tus respuestas están guardadas: volvé a intentar.';

/** A challenge from `app`, solved as a browser would (altcha-lib), ready for cotizar's `antibot`. */
async function resuelto(app: FastifyInstance) {
  const res = await get(app, '/api/antibot/desafio');
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  const challenge = res.json();
  expectSchema(challenge, 'antibot', 'Desafio');
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('no se resolvió el desafío');
  return { challenge, solution };
}

describe('anti-bot ON: cotizar wants a solved proof of work', () => {
  const linkKey = randomBytes(32);
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ linkKey, antibot: { activo: true, dificultad: 2000 } });
  });
  afterAll(() => app.close());

  it('refuses a quote without a solution: 400 with the Spanish message, nothing quoted', async () => {
    const res = await post(app, '/api/cotizacion/cotizar', cotizarBody());
    expectError(res, 400, 'VALIDACION', MENSAJE);
    expect(res.json().errors).toEqual([{ field: '/antibot', message: MENSAJE }]);
    const [{ n }] = await app.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM cotizaciones');
    expect(n).toBe(0);
  });

  it('accepts a solved challenge once; the same solution again is refused', async () => {
    const antibot = await resuelto(app);
    const ok = await post(app, '/api/cotizacion/cotizar', cotizarBody({ antibot }));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().planes.length).toBeGreaterThan(0);
    // the solution is not stored with the quote
    const [row] = await app.deps.db.query<{ datos: Record<string, unknown> }>('SELECT datos FROM cotizaciones WHERE ref_id = $1', [
      ok.json().refId,
    ]);
    expect(row.datos).not.toHaveProperty('antibot');

    const again = await post(app, '/api/cotizacion/cotizar', cotizarBody({ antibot }));
    expectError(again, 400, 'VALIDACION', MENSAJE);
  });

  it('refuses a wrong key, a tampered challenge and a malformed payload', async () => {
    const { challenge, solution } = await resuelto(app);
    const otraClave = solution.derivedKey.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const wrong = await post(
      app,
      '/api/cotizacion/cotizar',
      cotizarBody({ antibot: { challenge, solution: { ...solution, derivedKey: otraClave } } }),
    );
    expectError(wrong, 400, 'VALIDACION', MENSAJE);
    const easier = { ...challenge, parameters: { ...challenge.parameters, keyPrefix: '0' } };
    const tampered = await post(app, '/api/cotizacion/cotizar', cotizarBody({ antibot: { challenge: easier, solution } }));
    expectError(tampered, 400, 'VALIDACION', MENSAJE);
    const malformed = await post(app, '/api/cotizacion/cotizar', cotizarBody({ antibot: { challenge: 'x', solution: 1 } }));
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('VALIDACION');
    // the untouched solution still works (the refusals spent nothing)
    expect((await post(app, '/api/cotizacion/cotizar', cotizarBody({ antibot: { challenge, solution } }))).statusCode).toBe(200);
  });

  it('a challenge from another instance with the same link key is accepted (one key for every instance)', async () => {
    const other = await buildTestApp({ linkKey, antibot: { activo: true, dificultad: 2000 } });
    const stranger = await buildTestApp({ antibot: { activo: true, dificultad: 2000 } });
    try {
      const antibot = await resuelto(other);
      expectError(await post(stranger, '/api/cotizacion/cotizar', cotizarBody({ antibot })), 400, 'VALIDACION', MENSAJE);
      expect((await post(app, '/api/cotizacion/cotizar', cotizarBody({ antibot }))).statusCode).toBe(200);
    } finally {
      await other.close();
      await stranger.close();
    }
  });
});

const sinPg = await pgUnavailable();
describe.skipIf(sinPg !== undefined)(`anti-bot ON: two instances over one PostgreSQL${sinPg ? ` (${sinPg})` : ''}`, () => {
  it('a solution spent on one instance is refused on the other (migration 017 on PostgreSQL)', async () => {
    const base = await createTestDatabase('antibot', 'w1');
    const linkKey = randomBytes(32);
    const a = await buildTestApp({ db: await createPostgresDb(base.url), linkKey, antibot: { activo: true, dificultad: 2000 } });
    const b = await buildTestApp({ db: await createPostgresDb(base.url), linkKey, antibot: { activo: true, dificultad: 2000 } });
    try {
      const antibot = await resuelto(a);
      const [enA, enB] = await Promise.all([
        post(a, '/api/cotizacion/cotizar', cotizarBody({ antibot })),
        post(b, '/api/cotizacion/cotizar', cotizarBody({ antibot })),
      ]);
      // sent to both at once: exactly one quotes, the other is refused
      expect([enA.statusCode, enB.statusCode].sort()).toEqual([200, 400]);
      expect([enA, enB].find((r) => r.statusCode === 400)!.json().message).toBe(MENSAJE);
    } finally {
      await a.close();
      await b.close();
      await base.drop();
    }
  });
});

describe('anti-bot ON: an expired challenge', () => {
  it('is refused even when correctly solved', async () => {
    // a lifetime in the past: the challenge is born expired (no waiting)
    const app = await buildTestApp({ antibot: { activo: true, dificultad: 2000, vidaSeg: -60 } });
    try {
      const antibot = await resuelto(app);
      expectError(await post(app, '/api/cotizacion/cotizar', cotizarBody({ antibot })), 400, 'VALIDACION', MENSAJE);
    } finally {
      await app.close();
    }
  });
});

describe('anti-bot OFF (the default of build(), for tests and tools)', () => {
  it('quotes without a solution', async () => {
    const app = await buildTestApp();
    try {
      expect((await post(app, '/api/cotizacion/cotizar', cotizarBody())).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('settings (config.ts)', () => {
  it('ANTIBOT is on by default; off on request; anything else refused', () => {
    expect(readConfig({}).antibot).toMatchObject({ activo: true, dificultad: 50_000, vidaSeg: 1800, recaptcha: undefined });
    expect(readConfig({ ANTIBOT: 'off' }).antibot.activo).toBe(false);
    expect(() => readConfig({ ANTIBOT: 'si' })).toThrow('ANTIBOT tiene que ser on u off (vale "si").');
    expect(() => readConfig({ ANTIBOT_KEY: 'corta' })).toThrow('ANTIBOT_KEY tiene que tener al menos 32 caracteres');
  });
  it('reCAPTCHA needs its three settings together', () => {
    expect(() => readConfig({ RECAPTCHA_PROJECT: 'p' })).toThrow('falta RECAPTCHA_KEY, RECAPTCHA_API_KEY.');
    expect(readConfig({ RECAPTCHA_PROJECT: 'p', RECAPTCHA_KEY: 'k', RECAPTCHA_API_KEY: 'a' }).antibot.recaptcha).toEqual({
      proyecto: 'p',
      siteKey: 'k',
      apiKey: 'a',
      url: 'https://recaptchaenterprise.googleapis.com',
      umbral: 0.5,
    });
  });
});

describe('reCAPTCHA Enterprise adapter (POST /api/recaptcha/evaluate) against a local stand-in', () => {
  let port = 0; // the stand-in's: a port the system picks, so files running side by side never collide
  const seen: { url: string; body: unknown }[] = [];
  // token → assessment the stand-in answers (Google's shape: tokenProperties, riskAnalysis)
  const respuestas: Record<string, unknown> = {
    'token-bueno': { tokenProperties: { valid: true, action: 'cotizar' }, riskAnalysis: { score: 0.9 } },
    'token-invalido': { tokenProperties: { valid: false, invalidReason: 'MALFORMED' }, riskAnalysis: { score: 0 } },
    'token-robot': { tokenProperties: { valid: true, action: 'cotizar' }, riskAnalysis: { score: 0.1 } },
  };
  let standIn: Server;
  let app: FastifyInstance;
  beforeAll(async () => {
    standIn = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = JSON.parse(raw) as { event: { token: string } };
        seen.push({ url: req.url ?? '', body });
        const r = respuestas[body.event.token];
        res.writeHead(r ? 200 : 500, { 'content-type': 'application/json' }).end(JSON.stringify(r ?? { error: 'x' }));
      });
    });
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    port = (standIn.address() as AddressInfo).port;
    app = await buildTestApp({
      antibot: {
        recaptcha: { proyecto: 'mi-proyecto', siteKey: 'clave-sitio', apiKey: 'clave-api', url: `http://127.0.0.1:${port}`, umbral: 0.5 },
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await new Promise((resolve) => standIn.close(resolve));
  });

  it('a valid token with a good score passes, and the assessment was asked as Google documents it', async () => {
    const res = await post(app, '/api/recaptcha/evaluate', { token: 'token-bueno', action: 'cotizar' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, score: 0.9, action: 'cotizar' });
    expect(seen.at(-1)).toEqual({
      url: '/v1/projects/mi-proyecto/assessments?key=clave-api',
      body: { event: { token: 'token-bueno', siteKey: 'clave-sitio', expectedAction: 'cotizar' } },
    });
  });

  it('an invalid token fails with score 0', async () => {
    const res = await post(app, '/api/recaptcha/evaluate', { token: 'token-invalido', action: 'cotizar' });
    expect(res.json()).toEqual({ success: false, score: 0, action: 'cotizar' });
  });

  it('a low score fails', async () => {
    const res = await post(app, '/api/recaptcha/evaluate', { token: 'token-robot', action: 'cotizar' });
    expect(res.json()).toEqual({ success: false, score: 0.1, action: 'cotizar' });
  });

  it('an action other than the expected one fails', async () => {
    const res = await post(app, '/api/recaptcha/evaluate', { token: 'token-bueno', action: 'emitir' });
    expect(res.json()).toEqual({ success: false, score: 0.9, action: 'cotizar' });
  });

  it('the API failing is a 503 in the stable shape, not a pass', async () => {
    const res = await post(app, '/api/recaptcha/evaluate', { token: 'otro', action: 'cotizar' });
    expectError(res, 503, 'SERVICIO_NO_DISPONIBLE', 'El servicio no está disponible en este momento. Probá de nuevo en unos minutos.');
  });
});
