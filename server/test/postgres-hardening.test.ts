/**
 * Production hardening against the machine's real PostgreSQL (TEST_DATABASE_URL), each run in a fresh database `hard_pg_…`
 * that this file creates and drops (it only ever terminates that database's own connections):
 * - rate limits and the hourly quote quota are one limit across two instances;
 * - an emission accepted by an instance that goes away is issued by the other one, without a restart;
 * - concurrent purchases of one quote on two instances give one application and one policy;
 * - a server process survives pg_terminate_backend, answers 503 in the error shape while the database
 *   refuses connections, and recovers by itself (port 3317).
 * Without a reachable server the suite is skipped locally and fails in CI (like persistence-postgres).
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDb } from '../src/db/index.ts';
import { MENSAJE_CLAVE_EN_CURSO } from '../src/plugins/idempotency.ts';
import { MENSAJE_LIMITE_COTIZACIONES } from '../src/plugins/limits.ts';
import { MENSAJES } from '../src/errors.ts';
import { buildTestApp, cotizarBody, esperarEstado, expectError, getCsrf, post, prepararCompra, TARJETA_OK, type Csrf } from './helper.ts';
import { createTestDatabase, pgUnavailable, startServer, Visitante } from './processes.ts';
import { randomBytes } from 'node:crypto';

const unavailable = await pgUnavailable();
if (unavailable && process.env.CI) {
  describe('PostgreSQL real', () => {
    it('está disponible (CI)', () => {
      throw new Error(unavailable);
    });
  });
}

describe.skipIf(unavailable !== undefined)(`PostgreSQL real${unavailable ? ` — omitido: ${unavailable}` : ''}`, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const apps: FastifyInstance[] = [];
  const paymentKey = randomBytes(32);
  const instancia = async (opts: Parameters<typeof buildTestApp>[0] = {}) => {
    const app = await buildTestApp({ db: await createPostgresDb(database.url), paymentKey, ...opts });
    apps.push(app);
    return app;
  };
  beforeAll(async () => {
    database = await createTestDatabase('pg');
  });
  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    await database?.drop();
  });

  it('10. the request rate limit and the quote quota are shared by two instances', async () => {
    const a = await instancia({ rateLimitMax: 4, settings: { cotizacionesPorHoraPorIp: 2 } });
    const b = await instancia({ rateLimitMax: 4, settings: { cotizacionesPorHoraPorIp: 2 } });
    const remoteAddress = '198.51.100.10';
    const hit = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/api/chat/habilitar', remoteAddress });
    expect((await hit(a)).statusCode).toBe(200);
    expect((await hit(b)).statusCode).toBe(200);
    expect((await hit(a)).statusCode).toBe(200);
    expect((await hit(b)).statusCode).toBe(200);
    expectError(await hit(a), 429, 'DEMASIADAS_SOLICITUDES', 'Hiciste muchos pedidos seguidos. Esperá un minuto y volvé a intentar.');
    // Quotes (from 127.0.0.1, with room in the request limit): two on two instances, the third is over the hourly limit.
    const c = await instancia({ settings: { cotizacionesPorHoraPorIp: 2 } });
    const d = await instancia({ settings: { cotizacionesPorHoraPorIp: 2 } });
    expect((await post(c, '/api/cotizacion/cotizar', cotizarBody())).statusCode).toBe(200);
    expect((await post(d, '/api/cotizacion/cotizar', cotizarBody())).statusCode).toBe(200);
    expectError(await post(c, '/api/cotizacion/cotizar', cotizarBody()), 429, 'DEMASIADAS_SOLICITUDES', MENSAJE_LIMITE_COTIZACIONES);
    expect((await post(d, '/api/recaptcha/evaluar-ip', {})).json()).toEqual({ permitido: false, mensaje: MENSAJE_LIMITE_COTIZACIONES });
  });

  it('10b. cotizar counts the per-minute request limit in the one statement that stores its quote', async () => {
    const a = await instancia({ rateLimitMax: 3 });
    const b = await instancia({ rateLimitMax: 3 });
    const remoteAddress = '198.51.100.11';
    // the tokens asked from other addresses, as are the first and the last quote: this one's minute starts below
    const [csrfA, csrfB] = [await getCsrf(a, '198.51.100.12'), await getCsrf(b, '198.51.100.13')];
    const cotizar = (app: FastifyInstance, csrf: Csrf, body: Record<string, unknown>, desde = remoteAddress) =>
      app.inject({
        method: 'POST',
        url: '/api/cotizacion/cotizar',
        payload: body,
        headers: { 'x-xsrf-token': csrf.token, cookie: csrf.cookie },
        remoteAddress: desde,
      });
    const contar = async (clave: string) =>
      (await a.deps.db.query<{ n: number }>('SELECT n FROM limites WHERE clave = $1', [clave]))[0]?.n ?? 0;
    const guardadas = async () =>
      (await a.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM cotizaciones WHERE ip = $1', [remoteAddress]))[0].n;
    // What instance a sends the database about limits and quotes (not its job workers' polls) during one quote; its
    // tariff's texts were stored by its first quote.
    expect((await cotizar(a, csrfA, cotizarBody(), '198.51.100.12')).statusCode).toBe(200);
    const sentencias: string[] = [];
    const query = a.deps.db.query.bind(a.deps.db);
    a.deps.db.query = (sql, params) => {
      if (/\b(limites|cotizaciones|cotizacion_textos)\b/.test(sql)) sentencias.push(sql);
      return query(sql, params);
    };

    // 1st request of the minute (counted before the handler, on b), 2nd a stored quote: ONE statement to the database
    expect((await b.inject({ method: 'GET', url: '/api/chat/habilitar', remoteAddress })).statusCode).toBe(200);
    expect((await cotizar(a, csrfA, cotizarBody())).statusCode).toBe(200);
    expect(sentencias).toHaveLength(1);
    expect(sentencias[0]).toMatch(/INSERT INTO limites[\s\S]*INSERT INTO limites[\s\S]*INSERT INTO cotizaciones/);
    expect([await contar(`api|${remoteAddress}`), await contar(`cotizar|${remoteAddress}`), await guardadas()]).toEqual([2, 1, 1]);

    // 3rd: a field error ends before the statement and is counted as it is answered
    const malo = await cotizar(a, csrfA, cotizarBody({ codLocalidad: '999999' }));
    expect(malo.statusCode).toBe(400);
    expect(await contar(`api|${remoteAddress}`)).toBe(3);

    // 4th, on b: past the limit in its statement → the minute's 429, nothing stored and no hourly quote counted
    expectError(await cotizar(b, csrfB, cotizarBody()), 429, 'DEMASIADAS_SOLICITUDES', MENSAJES.DEMASIADAS_SOLICITUDES);
    expect([await contar(`api|${remoteAddress}`), await contar(`cotizar|${remoteAddress}`), await guardadas()]).toEqual([4, 1, 1]);
    // … and b, having seen it, refuses the next one at once; so does every other route of either instance
    expectError(await cotizar(b, csrfB, cotizarBody()), 429, 'DEMASIADAS_SOLICITUDES', MENSAJES.DEMASIADAS_SOLICITUDES);
    expect(await contar(`api|${remoteAddress}`)).toBe(4);
    expect((await a.inject({ method: 'GET', url: '/api/chat/habilitar', remoteAddress })).statusCode).toBe(429);
    // a had not seen it: its statement refuses the quote (nothing stored), and then a, too, refuses at once
    sentencias.length = 0;
    expectError(await cotizar(a, csrfA, cotizarBody()), 429, 'DEMASIADAS_SOLICITUDES', MENSAJES.DEMASIADAS_SOLICITUDES);
    expect(sentencias).toHaveLength(1);
    expectError(await cotizar(a, csrfA, cotizarBody()), 429, 'DEMASIADAS_SOLICITUDES', MENSAJES.DEMASIADAS_SOLICITUDES);
    expect(sentencias).toHaveLength(1);
    expect(await guardadas()).toBe(1);
    // another address still quotes
    expect((await cotizar(a, csrfA, cotizarBody(), '198.51.100.13')).statusCode).toBe(200);
  });

  it('a statement with parameters is prepared once per connection, and answers the same', async () => {
    const db = await createPostgresDb(database.url, undefined, { max: 1 }); // one connection: every query on it
    try {
      const sql = 'SELECT $1::int + 1 AS n';
      expect(await db.query(sql, [1])).toEqual([{ n: 2 }]);
      expect(await db.query(sql, [41])).toEqual([{ n: 42 }]);
      const fallida = db.transaction(async (tx) => {
        await tx.query(sql, [2]);
        throw new Error('revertida');
      });
      await expect(fallida).rejects.toThrow('revertida');
      expect(await db.query(sql, [5])).toEqual([{ n: 6 }]);
      const preparadas = 'SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1';
      expect(await db.query(preparadas, [sql])).toEqual([{ n: 1 }]);
    } finally {
      await db.close();
    }
  });

  it('a prepared statement whose table another instance migrated is prepared again, not failed for good', async () => {
    const db = await createPostgresDb(database.url, undefined, { max: 1 });
    try {
      await db.exec('CREATE TABLE migrada (a int); INSERT INTO migrada VALUES (1)');
      const sql = 'SELECT a FROM migrada WHERE a::text = $1';
      expect(await db.query(sql, ['1'])).toEqual([{ a: 1 }]);
      await db.exec('ALTER TABLE migrada ALTER COLUMN a TYPE text'); // the result's type changes under the statement
      expect(await db.query(sql, ['1'])).toEqual([{ a: '1' }]);
      // inside a transaction the failed statement has failed the transaction: that call fails, the next one answers
      await db.exec('ALTER TABLE migrada ALTER COLUMN a TYPE int USING a::int');
      await expect(db.transaction((tx) => tx.query(sql, ['1']))).rejects.toThrow('cached plan must not change result type');
      expect(await db.transaction((tx) => tx.query(sql, ['1']))).toEqual([{ a: 1 }]);
    } finally {
      await db.exec('DROP TABLE IF EXISTS migrada');
      await db.close();
    }
  });

  it('1. concurrent solicitar and emitir-async of one purchase on two instances: one application, one policy', async () => {
    const a = await instancia();
    const b = await instancia();
    const { csrf, refId, solicitar } = await prepararCompra(a, { methodPayment: 'TC', numberPaymentCard: TARJETA_OK });
    const enviar = (app: FastifyInstance) => post(app, '/api/emision/solicitar', solicitar, csrf, { 'idempotency-key': 'k-1' });
    const answers = await Promise.all([a, b, a, b, a, b].map(enviar));
    // A repeat waits for the first request with its key at most ESPERA_MS and then says so (409, "todavía se está
    // procesando"), and a database that cannot take one more connection in time answers 503: on a loaded machine either
    // may come (seen in CI). Both ask the visitor to try again — and a retry gets the one application like the others.
    const reintentable = (r: LightMyRequestResponse) =>
      (r.statusCode === 409 && r.json().message === MENSAJE_CLAVE_EN_CURSO) || r.statusCode === 503;
    expect(answers.filter((r) => r.statusCode !== 200 && !reintentable(r)).map((r) => `${r.statusCode} ${r.body}`)).toEqual([]);
    const primeras = answers.filter((r) => r.statusCode === 200);
    expect(primeras.length).toBeGreaterThan(0);
    const { numeroSolicitud } = primeras[0].json();
    const reintentos = await Promise.all(answers.filter(reintentable).map((_, i) => enviar([a, b][i % 2])));
    expect([...primeras, ...reintentos].map((r) => `${r.statusCode} ${r.json().numeroSolicitud}`)).toEqual(
      Array(6).fill(`200 ${numeroSolicitud}`),
    );
    await Promise.all([a, b, a, b].map((app) => post(app, '/api/emision/emitir-async', { numeroSolicitud }, csrf)));
    expect(await esperarEstado(b, numeroSolicitud, csrf)).toMatchObject({ estado: 'EMITIDA' });
    const [row] = await a.deps.db.query<{ s: number; p: number }>(
      'SELECT (SELECT count(*)::int FROM solicitudes WHERE ref_id = $1) AS s, (SELECT count(*)::int FROM polizas WHERE ref_id = $1) AS p',
      [refId],
    );
    expect(row).toEqual({ s: 1, p: 1 });
  });

  it('2. an emission accepted by an instance that then goes away is issued by the other one, without a restart', async () => {
    const a = await instancia({ emisionDelayMs: 60_000, emisionLeaseMs: 120_000, shutdownTimeoutMs: 0 });
    const b = await instancia({ emisionDelayMs: 20, emisionPollMs: 20 });
    const { csrf, solicitar } = await prepararCompra(a, { methodPayment: 'CBU', numberCBU: '2850590909400904181356' });
    const { numeroSolicitud } = (await post(a, '/api/emision/solicitar', solicitar, csrf)).json();
    expect((await post(a, '/api/emision/emitir-async', { numeroSolicitud }, csrf)).json()).toMatchObject({ estado: 'PENDIENTE' });
    await a.close();
    apps.splice(apps.indexOf(a), 1);
    expect(await esperarEstado(b, numeroSolicitud, csrf)).toMatchObject({ estado: 'EMITIDA' });
  });

  it('5. the process survives dropped connections, answers 503 while the database is away and recovers by itself', async () => {
    const server = await startServer(0, {
      DATABASE_URL: database.url,
      DB_CONNECT_TIMEOUT_MS: '1000',
      PAYMENT_KEY: paymentKey.toString('hex'),
      DATA_DIR: '/tmp/cotizador-hard-pg',
    });
    try {
      const v = new Visitante();
      const cotizar = () => v.post(server.url, '/api/cotizacion/cotizar', cotizarBody());
      expect((await cotizar()).status).toBe(200);
      const ready = () => fetch(`${server.url}/api/health/ready`).then((r) => r.status);
      const until = async (status: number) => {
        for (let i = 0; i < 100; i++) {
          if ((await ready()) === status) return status;
          await new Promise((r) => setTimeout(r, 100));
        }
        return ready();
      };

      expect(await database.terminate()).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 300));
      expect(server.proc.exitCode).toBeNull();
      expect(await until(200)).toBe(200);
      expect((await cotizar()).status).toBe(200);

      await database.allowConnections(false);
      await database.terminate();
      expect(await until(503)).toBe(503);
      const res = await fetch(`${server.url}/api/chat/habilitar`); // every /api request needs the shared rate-limit store
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        status: 503,
        code: 'SERVICIO_NO_DISPONIBLE',
        message: 'El servicio no está disponible en este momento. Probá de nuevo en unos minutos.',
      });
      expect(res.headers.get('retry-after')).toBe('5');
      expect((await fetch(`${server.url}/api/health/live`)).status).toBe(200);
      expect(server.proc.exitCode).toBeNull();

      await database.allowConnections(true);
      expect(await until(200)).toBe(200);
      expect((await cotizar()).status).toBe(200);
    } finally {
      await database.allowConnections(true).catch(() => undefined);
      expect(await server.stop()).toBe(0);
    }
  });
});
