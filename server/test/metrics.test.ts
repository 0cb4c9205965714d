/**
 * Prometheus metrics. A whole purchase (cotizar → … → emisión) and a withdrawal are driven through
 * the API while the metrics are scraped as Prometheus would — through GET /api/metrics with the bearer token and
 * through the metrics-only port — and the counters move by exactly what happened; the request histogram has the
 * cotizar route pattern with status 200; the outbox depth, the age of its oldest message and the dead letters read
 * what the `correos` table holds; the endpoint is a 404 without the token; a database that does not answer never
 * hangs a scrape. PostgreSQL (database `h3_metricas_…`, created and dropped here): the pool gauges read the `pg` pool.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.ts';
import { createPostgresDb, type Db } from '../src/db/index.ts';
import { migrate } from '../src/db/migrate.ts';
import { createMetrics } from '../src/domain/metrics/index.ts';
import { buildTestApp, cotizarBody, expectError, getCsrf, post, recorrerJourney, TARJETA_OK } from './helper.ts';
import { PG_URL, pgUnavailable } from './processes.ts';

const TOKEN = randomBytes(24).toString('hex');

/** One sample of the Prometheus text format: metric name, labels, value. */
interface Muestra {
  nombre: string;
  labels: Record<string, string>;
  valor: number;
}

/** Parses the Prometheus text exposition format (the subset prom-client writes). */
function muestras(texto: string): Muestra[] {
  return texto
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(l);
      if (!m) throw new Error(`línea inválida: ${l}`);
      const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
      return { nombre: m[1], labels, valor: Number(m[3]) };
    });
}

/** The value of the one sample named `nombre` whose labels include `labels` (0 when there is none). */
function valor(ms: Muestra[], nombre: string, labels: Record<string, string> = {}): number {
  const found = ms.filter((s) => s.nombre === nombre && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${nombre} ${JSON.stringify(labels)}: ${found.length} muestras`);
  return found[0]?.valor ?? 0;
}

/** Scrapes GET /api/metrics with the bearer token. */
async function scrape(app: FastifyInstance): Promise<Muestra[]> {
  const res = await app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return muestras(res.body);
}

describe('metrics of a purchase (PGlite)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    // SMTP that refuses connections (a port of this engineer's range nobody listens on): the policy e-mail stays
    // PENDIENTE, its next attempt an hour away.
    app = await buildTestApp({
      metrics: { token: TOKEN, port: 0 },
      smtpUrl: 'smtp://127.0.0.1:3439',
      correo: { pollMs: 20, retryBaseMs: 3_600_000 },
      tramitesPorHora: 1000,
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('counters move by exactly one quote, one policy, one withdrawal; the histogram has cotizar 200; the outbox gauges read the table', async () => {
    const antes = await scrape(app);
    expect(valor(antes, 'cotizador_correos_pendientes')).toBe(0);
    expect(valor(antes, 'cotizador_correos_fallidos')).toBe(0);
    expect(valor(antes, 'cotizador_correo_pendiente_mas_viejo_segundos')).toBe(0);
    expect(valor(antes, 'cotizador_metricas_db_ok')).toBe(1);
    expect(antes.filter((m) => m.nombre === 'cotizador_cotizaciones_total').map((m) => m.labels.origen)).toEqual(['cotizar', 'retomar']);

    const { estado, csrf } = await recorrerJourney(app, { methodPayment: 'TC', numberPaymentCard: TARJETA_OK });
    expect(estado.estado).toBe('EMITIDA');
    expect((await app.inject({ method: 'GET', url: '/api/no-existe/4242' })).statusCode).toBe(404);
    const despues = await scrape(app);
    const delta = (nombre: string, labels: Record<string, string> = {}) => valor(despues, nombre, labels) - valor(antes, nombre, labels);
    expect(delta('cotizador_cotizaciones_total', { origen: 'cotizar' })).toBe(1);
    expect(delta('cotizador_cotizaciones_total', { origen: 'retomar' })).toBe(0);
    expect(delta('cotizador_polizas_emitidas_total')).toBe(1);
    expect(delta('cotizador_emision_atraso_segundos_count')).toBe(1);
    expect(valor(despues, 'cotizador_emision_atraso_segundos_sum')).toBeGreaterThanOrEqual(0);
    const cotizar = { method: 'POST', route: '/api/cotizacion/cotizar', status_code: '200' };
    expect(delta('http_request_duration_seconds_count', cotizar)).toBe(1);
    expect(valor(despues, 'http_request_duration_seconds_bucket', { ...cotizar, le: '+Inf' })).toBe(1);
    // the route pattern, never the raw URL: one series for every polled application
    const estados = despues.filter(
      (s) => s.nombre === 'http_request_duration_seconds_count' && s.labels.route.startsWith('/api/emision/estado'),
    );
    expect(estados.map((s) => s.labels.route)).toEqual(['/api/emision/estado/:numeroSolicitud']);
    expect(delta('http_request_duration_seconds_count', { method: 'GET', route: '(sin ruta)', status_code: '404' })).toBe(1);
    expect(despues.some((s) => s.labels.route?.includes('4242'))).toBe(false);
    // the policy e-mail is in the outbox, pending (SMTP refused)
    expect(valor(despues, 'cotizador_correos_pendientes')).toBe(1);
    expect(valor(despues, 'cotizador_correos_fallidos')).toBe(0);
    expect(valor(despues, 'cotizador_db_pool_conexiones', { estado: 'total' })).toBe(1); // PGlite: one connection
    expect(valor(despues, 'cotizador_db_pool_max')).toBe(1);

    // withdrawal: +1; asking again returns the same code and counts nothing
    const body = { numSecuPol: estado.numSecuPol, dni: '30123456', email: 'ana@example.com' };
    expect((await post(app, '/api/postventa/arrepentimiento', body, csrf)).statusCode).toBe(200);
    expect((await post(app, '/api/postventa/arrepentimiento', body, csrf)).statusCode).toBe(200);
    const tras = await scrape(app);
    expect(valor(tras, 'cotizador_arrepentimientos_total') - valor(despues, 'cotizador_arrepentimientos_total')).toBe(1);
    expect(valor(tras, 'cotizador_bajas_total')).toBe(0);
    expect(valor(tras, 'cotizador_correos_pendientes')).toBe(2); // + the withdrawal e-mail

    // the oldest pending message 11 minutes old, and one dead letter
    await app.deps.db.query("UPDATE correos SET creado_en = now() - interval '660 seconds' WHERE tipo = 'ARREPENTIMIENTO'");
    await app.deps.db.query("UPDATE correos SET estado = 'FALLIDO' WHERE tipo <> 'ARREPENTIMIENTO'");
    const viejo = await scrape(app);
    expect(valor(viejo, 'cotizador_correos_pendientes')).toBe(1);
    expect(valor(viejo, 'cotizador_correos_fallidos')).toBe(1);
    expect(Math.floor(valor(viejo, 'cotizador_correo_pendiente_mas_viejo_segundos'))).toBeGreaterThanOrEqual(660);
    expect(valor(viejo, 'cotizador_correo_pendiente_mas_viejo_segundos')).toBeLessThan(720);

    // a quote e-mailed and resumed through its link in another session: one quote from 'cotizar', one from 'retomar'
    const cot = (await post(app, '/api/cotizacion/cotizar', cotizarBody(), csrf)).json();
    expect(
      (await post(app, '/api/cotizacion/enviar', { refId: cot.refId, respuestas: { metros: { metros: 80 } }, versionFlujo: 2 }, csrf))
        .statusCode,
    ).toBe(200);
    const [{ texto }] = await app.deps.db.query<{ texto: string }>("SELECT texto FROM correos WHERE tipo = 'COTIZACION'");
    const token = (texto.match(/\?retomar=([A-Za-z0-9_.-]+)/) as RegExpMatchArray)[1];
    expect((await post(app, '/api/cotizacion/retomar', { token }, await getCsrf(app))).statusCode).toBe(200);
    const fin = await scrape(app);
    expect(
      valor(fin, 'cotizador_cotizaciones_total', { origen: 'cotizar' }) -
        valor(viejo, 'cotizador_cotizaciones_total', { origen: 'cotizar' }),
    ).toBe(1);
    expect(valor(fin, 'cotizador_cotizaciones_total', { origen: 'retomar' })).toBe(1);
  }); // a whole purchase: slow on a busy machine

  it('the metrics-only port serves GET /metrics on 127.0.0.1 and nothing else', async () => {
    const url = app.deps.metricsUrl as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    const ms = muestras(await res.text());
    expect(valor(ms, 'cotizador_polizas_emitidas_total')).toBe(1);
    expect(ms.some((s) => s.nombre === 'process_resident_memory_bytes')).toBe(true);
    expect((await fetch(url.replace('/metrics', '/api/metrics'))).status).toBe(404);
  });

  it('GET /api/metrics is the 404 of an unknown path without the token, with another token or with another scheme', async () => {
    for (const authorization of [undefined, 'Bearer otro-token-de-32-caracteres-xx', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, 'Bearer ']) {
      const res = await app.inject({ method: 'GET', url: '/api/metrics', headers: authorization ? { authorization } : {} });
      expectError(res, 404, 'NO_ENCONTRADO', 'No encontramos lo que buscás.');
      expect(res.body).not.toContain('cotizador_');
    }
  });
});

describe('metrics endpoints are off by default', () => {
  it('without METRICS_TOKEN /api/metrics does not exist (even with a bearer) and no port is opened', async () => {
    const app = await buildTestApp();
    try {
      const res = await app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(404);
      expect(app.deps.metricsUrl).toBeUndefined();
    } finally {
      await app.close();
    }
  }); // builds an app: slow on a busy machine

  it('config: METRICS_PORT / METRICS_HOST / METRICS_TOKEN', () => {
    expect(readConfig({}).metrics).toEqual({ port: undefined, host: '127.0.0.1', token: undefined });
    expect(readConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: TOKEN }).metrics).toEqual({
      port: 9464,
      host: '0.0.0.0',
      token: TOKEN,
    });
    expect(() => readConfig({ METRICS_TOKEN: 'corto' })).toThrow(
      'METRICS_TOKEN tiene que tener al menos 16 caracteres y ningún espacio (p. ej. openssl rand -hex 32).',
    );
    expect(() => readConfig({ METRICS_PORT: '70000' })).toThrow(
      'METRICS_PORT tiene que ser un número entero entre 1 y 65535 (vale "70000").',
    );
  });
});

describe('a scrape never hangs on the database', () => {
  it('a database that does not answer: the global gauges read NaN and cotizador_metricas_db_ok 0 after the timeout', async () => {
    const colgada = { kind: 'pglite', query: () => new Promise(() => undefined) } as unknown as Db;
    const metrics = createMetrics({ db: colgada, dbTimeoutMs: 50 });
    const ms = muestras(await metrics.registry.metrics());
    expect(valor(ms, 'cotizador_metricas_db_ok')).toBe(0);
    expect(valor(ms, 'cotizador_correos_pendientes')).toBeNaN();
    expect(valor(ms, 'cotizador_correos_fallidos')).toBeNaN();
    expect(valor(ms, 'cotizador_db_pool_conexiones', { estado: 'total' })).toBe(1);
  });
});

const sinPg = await pgUnavailable();
describe.skipIf(sinPg !== undefined)(`PostgreSQL pool gauges${sinPg ? ` — omitido: ${sinPg}` : ''}`, () => {
  const nombre = `h3_metricas_${process.pid}_${Date.now()}_${randomBytes(3).toString('hex')}`; // pid: files run side by side
  const admin = new pg.Client({ connectionString: PG_URL });
  let db: Db;
  let url: URL;
  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${nombre}"`);
    url = new URL(PG_URL);
    url.pathname = `/${nombre}`;
    db = await createPostgresDb(url.toString(), undefined, { max: 3 });
    await migrate(db);
  });
  afterAll(async () => {
    await db?.close();
    await admin.query(`DROP DATABASE IF EXISTS "${nombre}" WITH (FORCE)`);
    await admin.end();
  });

  it('total / libres / esperando / max come from the pg pool', async () => {
    const metrics = createMetrics({ db });
    const ms = muestras(await metrics.registry.metrics());
    // the start-up probe's connection (the scrape's own query runs on it meanwhile)
    expect(valor(ms, 'cotizador_db_pool_conexiones', { estado: 'total' })).toBe(1);
    expect(valor(ms, 'cotizador_db_pool_max')).toBe(3);
    expect(valor(ms, 'cotizador_metricas_db_ok')).toBe(1);
    expect(valor(ms, 'cotizador_correos_pendientes')).toBe(0);
    // three transactions hold the three connections; a fourth query waits
    const soltar: (() => void)[] = [];
    const tomadas: Promise<unknown>[] = [];
    const enCurso: Promise<void>[] = [];
    for (let i = 0; i < 3; i++) {
      enCurso.push(
        new Promise<void>((ok) => {
          tomadas.push(
            db.transaction(async () => {
              ok();
              await new Promise<void>((r) => soltar.push(r));
            }),
          );
        }),
      );
    }
    await Promise.all(enCurso);
    const cuarta = db.query('SELECT 1');
    expect(db.estadoPool?.()).toEqual({ total: 3, libres: 0, esperando: 1, max: 3 });
    for (const r of soltar) r();
    await Promise.all([...tomadas, cuarta]);
    expect(db.estadoPool?.()).toMatchObject({ total: 3, libres: 3, esperando: 0 });
  });

  it('a purchase on PostgreSQL: one policy, one claimed job with its lag, the pool of the app', async () => {
    const app = await buildTestApp({ db: await createPostgresDb(url.toString(), undefined, { max: 4 }) });
    try {
      const { estado } = await recorrerJourney(app, { methodPayment: 'CBU', numberCBU: '2850590909400904181356' });
      expect(estado.estado).toBe('EMITIDA');
      // the policy is counted once its transaction has committed (app.ts › despuesDeEmitir), and on PostgreSQL the
      // state read on another connection can come before that: the count is awaited (the project's ceiling ends it)
      let ms = muestras(await app.deps.metrics.registry.metrics());
      while (valor(ms, 'cotizador_polizas_emitidas_total') === 0) {
        await new Promise((r) => setTimeout(r, 10));
        ms = muestras(await app.deps.metrics.registry.metrics());
      }
      expect(valor(ms, 'cotizador_polizas_emitidas_total')).toBe(1);
      expect(valor(ms, 'cotizador_cotizaciones_total', { origen: 'cotizar' })).toBe(1);
      expect(valor(ms, 'cotizador_emision_atraso_segundos_count')).toBe(1);
      expect(valor(ms, 'cotizador_db_pool_max')).toBe(4);
      expect(valor(ms, 'cotizador_metricas_db_ok')).toBe(1);
    } finally {
      await app.close();
    }
  });
});
