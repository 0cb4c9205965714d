/**
 * Production hardening on an in-memory PGlite through `app.inject`: one policy per purchase and the
 * Idempotency-Key (1), durable emission retried after a database hiccup and swept when its worker died (2), no
 * backdated cover (3), applications and quotes bound to the visitor's session (4), health endpoints (7), the hourly
 * quote limit inside cotizar (8), proxy settings (9), generic rejection of NUL / lone surrogates / out-of-range
 * integers / deep JSON (11), capped logs and retention (12), payment-number masking in every stored field (13) and
 * content types (14). PostgreSQL- and process-level items live in postgres-hardening, process and two-instances.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.ts';
import { depurar } from '../src/domain/maintenance/retention.ts';
import { enmascararNumerosDePago } from '../src/domain/pagos/enmascarar.ts';
import { MENSAJE_LIMITE_COTIZACIONES } from '../src/routes/recaptcha/index.ts';
import { sumarDias } from '../src/domain/validation/fechas.ts';
import {
  buildTestApp,
  CBU_OK,
  cotizarBody,
  esperarEstado,
  expectError,
  expectSchema,
  get,
  getCsrf,
  hoy,
  post,
  prepararCompra,
  recorrerJourney,
  TARJETA_OK,
} from './helper.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({ emisionDelayMs: 20 });
});
afterAll(async () => {
  await app.close();
});

const count = async (a: FastifyInstance, sql: string, params: unknown[]) => (await a.deps.db.query<{ n: number }>(sql, params))[0].n;

describe('1. one policy per purchase', () => {
  it('repeated and concurrent solicitar + emitir-async for one quote and payment method give one application and one policy', async () => {
    const { csrf, refId, solicitar } = await prepararCompra(app, { methodPayment: 'TC', numberPaymentCard: TARJETA_OK });
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(app, '/api/emision/solicitar', solicitar, csrf)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const numeros = new Set(answers.map((r) => r.json().numeroSolicitud));
    expect(numeros.size).toBe(1);
    const [numeroSolicitud] = numeros;
    const again = await post(app, '/api/emision/solicitar', solicitar, csrf);
    expect(again.json()).toEqual(answers[0].json());
    const emitidos = await Promise.all(Array.from({ length: 8 }, () => post(app, '/api/emision/emitir-async', { numeroSolicitud }, csrf)));
    expect(emitidos.map((r) => r.statusCode)).toEqual(Array(8).fill(202));
    expect(await esperarEstado(app, numeroSolicitud, csrf)).toMatchObject({ estado: 'EMITIDA' });
    expect(await count(app, 'SELECT count(*)::int AS n FROM solicitudes WHERE ref_id = $1', [refId])).toBe(1);
    expect(await count(app, 'SELECT count(*)::int AS n FROM polizas WHERE ref_id = $1', [refId])).toBe(1);
  });

  it('a second payment method for a quote already bought is refused (one policy per quote)', async () => {
    const { csrf, refId, solicitar } = await prepararCompra(app, { methodPayment: 'TC', numberPaymentCard: TARJETA_OK });
    const { numeroSolicitud } = (await post(app, '/api/emision/solicitar', solicitar, csrf)).json();
    await post(app, '/api/emision/emitir-async', { numeroSolicitud }, csrf);
    expect(await esperarEstado(app, numeroSolicitud, csrf)).toMatchObject({ estado: 'EMITIDA' });
    const forma = await post(app, '/api/pagos/validar-forma-cobro', { refId, methodPayment: 'CBU', numberCBU: CBU_OK }, csrf);
    const res = await post(app, '/api/emision/solicitar', { ...solicitar, medioPagoId: forma.json().medioPago.id }, csrf);
    expectError(res, 409, 'CONFLICTO', 'Esta cotización ya fue contratada. Si querés otra póliza, volvé a cotizar.');
    expect(await count(app, 'SELECT count(*)::int AS n FROM polizas WHERE ref_id = $1', [refId])).toBe(1);
  });

  it('Idempotency-Key: a repeat gets the first answer, the key with other data → 409, another visitor’s key is theirs', async () => {
    const { csrf, solicitar } = await prepararCompra(app, { methodPayment: 'CBU', numberCBU: CBU_OK });
    const { numeroSolicitud } = (await post(app, '/api/emision/solicitar', solicitar, csrf)).json();
    const key = { 'idempotency-key': 'compra-7f3a2c' };
    const first = await post(app, '/api/emision/emitir-async', { numeroSolicitud }, csrf, key);
    expect(first.statusCode).toBe(202);
    expect(first.json()).toEqual({ numeroSolicitud, estado: 'PENDIENTE' });
    expect(await esperarEstado(app, numeroSolicitud, csrf)).toMatchObject({ estado: 'EMITIDA' });
    const repeat = await post(app, '/api/emision/emitir-async', { numeroSolicitud }, csrf, key);
    expect(repeat.statusCode).toBe(202);
    expect(repeat.json()).toEqual(first.json());
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    const otro = await post(app, '/api/emision/emitir-async', { numeroSolicitud: '00000000-0000-4000-8000-000000000000' }, csrf, key);
    expectError(otro, 409, 'CONFLICTO', 'Ya usaste esta clave de idempotencia con otros datos.');
    const ajeno = await post(app, '/api/emision/emitir-async', { numeroSolicitud }, await getCsrf(app), key);
    expectError(ajeno, 404, 'NO_ENCONTRADO', 'No encontramos la solicitud.');
    const mala = await post(app, '/api/emision/emitir-async', { numeroSolicitud }, csrf, { 'idempotency-key': 'x'.repeat(300) });
    expectError(mala, 400, 'VALIDACION', 'Revisá los datos ingresados.');
    expect(mala.json().errors).toEqual([
      { field: '/headers/idempotency-key', message: 'La clave de idempotencia tiene que tener entre 1 y 255 caracteres visibles.' },
    ]);
  });
});

describe('2. emission is a durable job', () => {
  it('a database hiccup during emission is retried with backoff until the policy is issued', async () => {
    const local = await buildTestApp({ emisionDelayMs: 10, emisionPollMs: 20, emisionRetryBaseMs: 50 });
    const { csrf, solicitar } = await prepararCompra(local, { methodPayment: 'TC', numberPaymentCard: TARJETA_OK });
    const { numeroSolicitud } = (await post(local, '/api/emision/solicitar', solicitar, csrf)).json();
    await local.deps.db.exec('ALTER SEQUENCE poliza_seq RENAME TO poliza_seq_fuera'); // issuing fails until it is back
    expect((await post(local, '/api/emision/emitir-async', { numeroSolicitud }, csrf)).statusCode).toBe(202);
    let fallo: string | null = null;
    for (let i = 0; i < 500 && fallo === null; i++) {
      await new Promise((r) => setTimeout(r, 10));
      [{ fallo }] = await local.deps.db.query<{ fallo: string | null }>('SELECT ultimo_error AS fallo FROM solicitudes WHERE id = $1', [
        numeroSolicitud,
      ]);
    }
    expect(fallo).toMatch(/poliza_seq/); // the first attempt failed and was rescheduled
    expect(await esperarEstado(local, numeroSolicitud, csrf, 300)).toMatchObject({ estado: 'PENDIENTE' });
    await local.deps.db.exec('ALTER SEQUENCE poliza_seq_fuera RENAME TO poliza_seq');
    expect(await esperarEstado(local, numeroSolicitud, csrf)).toMatchObject({ estado: 'EMITIDA' });
    const [row] = await local.deps.db.query<{ intentos: number }>('SELECT intentos FROM solicitudes WHERE id = $1', [numeroSolicitud]);
    expect(row.intentos).toBeGreaterThanOrEqual(2);
    await local.close();
  });

  it('a job whose worker died (lease expired) is swept and issued by a live worker', async () => {
    const local = await buildTestApp({ emisionDelayMs: 10, emisionPollMs: 20 });
    const { csrf, solicitar } = await prepararCompra(local, { methodPayment: 'CBU', numberCBU: CBU_OK });
    const { numeroSolicitud } = (await post(local, '/api/emision/solicitar', solicitar, csrf)).json();
    // As an instance that claimed the job and then died would leave it: requested, claimed by a gone worker, lease over.
    await local.deps.db.query(
      `UPDATE solicitudes SET emision_pedida = true, proximo_intento = now(), tomada_por = 'muerto-1', tomada_hasta = now() - interval '1 second'
       WHERE id = $1`,
      [numeroSolicitud],
    );
    expect(await esperarEstado(local, numeroSolicitud, csrf)).toMatchObject({ estado: 'EMITIDA' });
    await local.close();
  });
});

describe('3. no backdated cover', () => {
  it('an emission that completes after the chosen start date starts the vigencia on the issue date and says so', async () => {
    const local = await buildTestApp({ emisionDelayMs: 400, emisionPollMs: 20 });
    const { refId, numeroSolicitud, csrf } = await recorrerJourney(
      local,
      { methodPayment: 'TC', numberPaymentCard: TARJETA_OK },
      { esperar: false },
    );
    await local.deps.db.query('UPDATE cotizaciones SET init_policy_date = $2 WHERE ref_id = $1', [refId, sumarDias(hoy(), -2)]);
    const estado = await esperarEstado(local, numeroSolicitud, csrf);
    expectSchema(estado, 'emision', 'Estado');
    const [d, m, a] = [hoy().slice(8, 10), hoy().slice(5, 7), hoy().slice(0, 4)];
    expect(estado).toMatchObject({
      estado: 'EMITIDA',
      vigenciaDesde: hoy(),
      vigenciaHasta: `${Number(a) + 1}-${m}-${d}`,
      mensaje: `Tu cobertura empieza hoy, ${d}/${m}/${a}: la emisión terminó después de la fecha de inicio que elegiste.`,
    });
    const [poliza] = await local.deps.db.query<{ desde: string }>(
      "SELECT to_char(vigencia_desde, 'YYYY-MM-DD') AS desde FROM polizas WHERE ref_id = $1",
      [refId],
    );
    expect(poliza.desde).toBe(hoy());
    await local.close();
  });
});

describe('4. applications and quotes belong to the visitor’s session', () => {
  it('another visitor gets the same 404 for a quote, an application state and an emission; ids are not sequential', async () => {
    const uno = await recorrerJourney(app, { methodPayment: 'TC', numberPaymentCard: TARJETA_OK }, { esperar: false });
    const dos = await recorrerJourney(app, { methodPayment: 'TC', numberPaymentCard: TARJETA_OK }, { esperar: false });
    for (const n of [uno.numeroSolicitud, dos.numeroSolicitud])
      expect(n).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const ajeno = await getCsrf(app);
    expectError(await get(app, `/api/emision/estado/${uno.numeroSolicitud}`, ajeno), 404, 'NO_ENCONTRADO', 'No encontramos la solicitud.');
    expectError(
      await get(app, `/api/emision/estado/${uno.numeroSolicitud}`, { token: '', cookie: '' }),
      404,
      'NO_ENCONTRADO',
      'No encontramos la solicitud.',
    );
    expectError(
      await post(app, '/api/emision/emitir-async', { numeroSolicitud: uno.numeroSolicitud }, ajeno),
      404,
      'NO_ENCONTRADO',
      'No encontramos la solicitud.',
    );
    expectError(
      await post(app, '/api/cotizacion/datos-presupuesto', { refId: uno.refId, codPlan: 'BASICO', coberturasOpcionales: [] }, ajeno),
      404,
      'NO_ENCONTRADO',
      'No encontramos tu cotización. Volvé a cotizar.',
    );
    expect((await get(app, `/api/emision/estado/${uno.numeroSolicitud}`, uno.csrf)).statusCode).toBe(200);
  });

  it('the session cookie is httpOnly, SameSite=Lax and set once', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/set-csrf' });
    const sesion = res.cookies.find((c) => c.name === 'sesion');
    expect(sesion).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const again = await app.inject({ method: 'GET', url: '/api/set-csrf', headers: { cookie: `sesion=${sesion?.value}` } });
    expect(again.cookies.find((c) => c.name === 'sesion')).toBeUndefined();
  });
});

describe('7. health endpoints', () => {
  it('live answers without the database; ready checks it and answers 503 in the error shape when it is away', async () => {
    const local = await buildTestApp();
    expect((await local.inject({ method: 'GET', url: '/api/health/live' })).json()).toEqual({ estado: 'ok' });
    const ready = await local.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.json()).toEqual({ estado: 'ok', base: 'pglite', correosFallidos: 0 });
    expect(ready.headers['cache-control']).toBe('no-store');
    local.deps.lifecycle.cerrando = true; // what SIGTERM sets first: the proxy stops sending traffic while it drains
    expect((await local.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(503);
    local.deps.lifecycle.cerrando = false;
    await local.deps.db.close();
    expect((await local.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    expectError(
      await local.inject({ method: 'GET', url: '/api/health/ready' }),
      503,
      'SERVICIO_NO_DISPONIBLE',
      'El servicio no está disponible en este momento. Probá de nuevo en unos minutos.',
    );
    await local.close();
  });
});

describe('8. hourly quote limit inside cotizar', () => {
  it('cotizar answers 429 with the limit message once the IP used its quotes, even without calling evaluar-ip', async () => {
    const local = await buildTestApp({ settings: { cotizacionesPorHoraPorIp: 2 } });
    for (let i = 0; i < 2; i++) expect((await post(local, '/api/cotizacion/cotizar', cotizarBody())).statusCode).toBe(200);
    expectError(await post(local, '/api/cotizacion/cotizar', cotizarBody()), 429, 'DEMASIADAS_SOLICITUDES', MENSAJE_LIMITE_COTIZACIONES);
    expect((await post(local, '/api/recaptcha/evaluar-ip', {})).json()).toEqual({ permitido: false, mensaje: MENSAJE_LIMITE_COTIZACIONES });
    const otraIp = await local.inject({ method: 'GET', url: '/api/set-csrf', remoteAddress: '203.0.113.9' });
    const csrf = {
      token: otraIp.json().csrfToken,
      cookie: otraIp.cookies
        .filter((c) => c.name !== 'XSRF-TOKEN')
        .map((c) => `${c.name}=${c.value}`)
        .join('; '),
    };
    const res = await local.inject({
      method: 'POST',
      url: '/api/cotizacion/cotizar',
      payload: cotizarBody(),
      remoteAddress: '203.0.113.9',
      headers: { 'x-xsrf-token': csrf.token, cookie: csrf.cookie },
    });
    expect(res.statusCode).toBe(200);
    await local.close();
  });
});

describe('9. proxy settings', () => {
  async function cotizarDesde(a: FastifyInstance, remoteAddress: string, headers: Record<string, string>) {
    const set = await a.inject({ method: 'GET', url: '/api/set-csrf', remoteAddress, headers });
    const cookie = set.cookies
      .filter((c) => c.name !== 'XSRF-TOKEN')
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
    const res = await a.inject({
      method: 'POST',
      url: '/api/cotizacion/cotizar',
      payload: cotizarBody(),
      remoteAddress,
      headers: { ...headers, 'x-xsrf-token': set.json().csrfToken, cookie },
    });
    expect(res.statusCode).toBe(200);
    const [row] = await a.deps.db.query<{ ip: string }>('SELECT ip FROM cotizaciones WHERE ref_id = $1', [res.json().refId]);
    return { ip: row.ip, secure: set.cookies.map((c) => [c.name, c.secure === true]) };
  }

  it('TRUST_PROXY=true is refused; a hop count or a list of proxies is accepted', () => {
    expect(() => readConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY=true/);
    expect(() => readConfig({ TRUST_PROXY: 'cualquiera' })).toThrow(/TRUST_PROXY/);
    expect(readConfig({}).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(readConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16' }).trustProxy).toEqual(['10.0.0.1', '10.1.0.0/16']);
  });

  it('behind one trusted proxy the client IP is the one the proxy saw (not a forged X-Forwarded-For) and cookies are Secure over https', async () => {
    const local = await buildTestApp({ trustProxy: readConfig({ TRUST_PROXY: '1' }).trustProxy });
    const viaProxy = await cotizarDesde(local, '10.0.0.1', { 'x-forwarded-for': '6.6.6.6, 203.0.113.7', 'x-forwarded-proto': 'https' });
    expect(viaProxy.ip).toBe('203.0.113.7');
    expect(viaProxy.secure).toEqual([
      ['sesion', true],
      ['_csrf', true],
      ['XSRF-TOKEN', true],
    ]);
    const http = await cotizarDesde(local, '10.0.0.1', { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'http' });
    expect(http.secure).toEqual([
      ['sesion', false],
      ['_csrf', false],
      ['XSRF-TOKEN', false],
    ]);
    await local.close();
  });

  it('with a list of proxies only those are trusted; without TRUST_PROXY the headers are ignored', async () => {
    const lista = await buildTestApp({ trustProxy: readConfig({ TRUST_PROXY: '10.0.0.1' }).trustProxy });
    expect((await cotizarDesde(lista, '10.0.0.1', { 'x-forwarded-for': '6.6.6.6, 203.0.113.7' })).ip).toBe('203.0.113.7');
    expect(await cotizarDesde(lista, '198.51.100.4', { 'x-forwarded-for': '6.6.6.6', 'x-forwarded-proto': 'https' })).toEqual({
      ip: '198.51.100.4',
      secure: [
        ['sesion', false],
        ['_csrf', false],
        ['XSRF-TOKEN', false],
      ],
    });
    await lista.close();
    const sinProxy = await buildTestApp({ trustProxy: readConfig({}).trustProxy });
    expect(await cotizarDesde(sinProxy, '10.0.0.1', { 'x-forwarded-for': '6.6.6.6', 'x-forwarded-proto': 'https' })).toEqual({
      ip: '10.0.0.1',
      secure: [
        ['sesion', false],
        ['_csrf', false],
        ['XSRF-TOKEN', false],
      ],
    });
    await sinProxy.close();
  });
});

describe('11. hostile input never produces a 5xx', () => {
  it('NUL, lone surrogates, out-of-range integers and deep JSON → 400 VALIDACION in Spanish', async () => {
    const nul = await post(app, '/api/cotizacion/info', { email: 'ana@example.com', app: 'web\u0000' });
    expectError(nul, 400, 'VALIDACION', 'Revisá los datos ingresados.');
    expect(nul.json().errors).toEqual([{ field: '/app', message: 'El texto tiene caracteres no permitidos.' }]);
    const { csrf, solicitar } = await prepararCompra(app, { methodPayment: 'TC', numberPaymentCard: TARJETA_OK });
    const surrogate = await post(
      app,
      '/api/emision/solicitar',
      { ...solicitar, persona: { ...solicitar.persona, ddjj: { actividad: 'Docente\ud800', lyt: false, ppe: false } } },
      csrf,
    );
    expect(surrogate.json().errors).toEqual([{ field: '/persona/ddjj/actividad', message: 'El texto tiene caracteres no permitidos.' }]);
    const big = await post(app, '/api/emision/emitir-async', { numeroSolicitud: 2 ** 31 }, csrf);
    expectError(big, 400, 'VALIDACION', 'Revisá los datos ingresados.');
    const path = await get(app, `/api/emision/estado/${2 ** 31}`, csrf);
    expect(path.json().errors).toEqual([{ field: '/numeroSolicitud', message: 'El número de solicitud no es válido.' }]);
    const nulPath = await get(app, '/api/emision/estado/%00', csrf);
    expectError(nulPath, 400, 'VALIDACION', 'Revisá los datos ingresados.');
    const deep = `{"app":"a","proceso":"p","proceso_detalle":"d","request":${'['.repeat(20000)}${']'.repeat(20000)}}`;
    const res = await app.inject({
      method: 'POST',
      url: '/api/logs/insertar-log-ok',
      payload: deep,
      headers: { 'content-type': 'application/json', 'x-xsrf-token': csrf.token, cookie: csrf.cookie },
    });
    expectError(res, 400, 'VALIDACION', 'Revisá los datos ingresados.');
    expect(res.json().errors).toEqual([{ field: '/request', message: 'El dato tiene demasiados niveles o es demasiado largo.' }]);
  });
});

describe('12. bounded storage', () => {
  it('log request/response are capped at 4000 characters', async () => {
    const largo = await post(app, '/api/logs/insertar-log-ok', { app: 'a', proceso: 'p', proceso_detalle: 'd', request: 'x'.repeat(4001) });
    expect(largo.json().errors).toEqual([{ field: '/request', message: 'Ingresá como máximo 4000 caracteres.' }]);
    const objeto = await post(app, '/api/logs/insertar-log-ok', {
      app: 'a',
      proceso: 'p',
      proceso_detalle: 'd',
      response: { texto: 'x'.repeat(4000) },
    });
    expect(objeto.json().errors).toEqual([{ field: '/response', message: 'El dato tiene demasiados niveles o es demasiado largo.' }]);
    expect(
      (await post(app, '/api/logs/insertar-log-ok', { app: 'a', proceso: 'p', proceso_detalle: 'd', request: 'x'.repeat(4000) }))
        .statusCode,
    ).toBe(200);
  });

  it('retention deletes old logs and abandoned quotes (with their data), keeps bought and recent ones', async () => {
    const local = await buildTestApp();
    const db = local.deps.db;
    const viejo = (await post(local, '/api/logs/insertar-log-ok', { app: 'a', proceso: 'p', proceso_detalle: 'viejo' })).json().id;
    const nuevo = (await post(local, '/api/logs/insertar-log-ok', { app: 'a', proceso: 'p', proceso_detalle: 'nuevo' })).json().id;
    await db.query("UPDATE logs SET creado_en = now() - interval '91 days' WHERE id = $1", [viejo]);
    const abandonada = await prepararCompra(local, { methodPayment: 'TC', numberPaymentCard: TARJETA_OK });
    const comprada = await recorrerJourney(local, { methodPayment: 'CBU', numberCBU: CBU_OK });
    const reciente = (await post(local, '/api/cotizacion/cotizar', cotizarBody())).json().refId;
    await db.query("UPDATE cotizaciones SET creada_en = now() - interval '31 days' WHERE ref_id IN ($1, $2)", [
      abandonada.refId,
      comprada.refId,
    ]);
    const borrados = await depurar(db, { logsDias: 90, cotizacionesDias: 30 });
    expect(borrados).toMatchObject({ logs: 1, cotizaciones: 1 });
    expect((await db.query<{ id: number }>('SELECT id FROM logs WHERE id IN ($1, $2)', [viejo, nuevo])).map((r) => r.id)).toEqual([nuevo]);
    const quedan = (await db.query<{ ref_id: string }>('SELECT ref_id FROM cotizaciones')).map((r) => r.ref_id);
    expect(quedan).toContain(comprada.refId);
    expect(quedan).toContain(reciente);
    expect(quedan).not.toContain(abandonada.refId);
    expect(await count(local, 'SELECT count(*)::int AS n FROM medios_pago WHERE ref_id = $1', [abandonada.refId])).toBe(0);
    await local.close();
  });
});

describe('13. payment numbers masked in every stored field', () => {
  it.each([
    ['4242.4242.4242.4242', '••••4242'],
    ['4242  4242  4242  4242', '••••4242'],
    ['tarjeta: 4242-4242-4242-4242 vence 12/30', 'tarjeta: ••••4242 vence 12/30'],
    ['dni 30123456, 4242424242424242', 'dni 30123456, ••••4242'],
    ['CBU 285.0590.9094.0090.4181.356', 'CBU ••••1356'],
    ['3782 822463 10005', '••••0005'],
  ])('%s → %s', (texto, esperado) => {
    expect(enmascararNumerosDePago(texto)).toBe(esperado);
  });

  it('leaves non-payment digits alone: dates, phone numbers, a 16-digit number failing Luhn', () => {
    for (const texto of ['2026-12-01', '+54 9 11 5555-1234', '4242424242424241', 'HOG-2026-000123'])
      expect(enmascararNumerosDePago(texto)).toBe(texto);
  });

  it('insertar-log-ok masks numbers with dots or double spaces in every field, nested objects included', async () => {
    const res = await post(app, '/api/logs/insertar-log-ok', {
      app: 'web',
      proceso: 'p',
      proceso_detalle: 'd',
      id_extra: '4242  4242  4242  4242',
      hash: '2850590909400904181356',
      request: { nota: { texto: 'pagué con 4242.4242.4242.4242' } },
      response: 'CBU 285-0590-9094-0090-4181-356',
    });
    expect(res.statusCode).toBe(200);
    const [row] = await app.deps.db.query<Record<string, string>>('SELECT id_extra, hash, request, response FROM logs WHERE id = $1', [
      res.json().id,
    ]);
    expect(row).toEqual({
      id_extra: '••••4242',
      hash: '••••1356',
      request: '{"nota":{"texto":"pagué con ••••4242"}}',
      response: 'CBU ••••1356',
    });
  });

  it('free text stored elsewhere (address, rejection reason, lead) is masked too', async () => {
    const refId = (await post(app, '/api/cotizacion/cotizar', cotizarBody())).json().refId;
    await post(app, '/api/domicilio/rechaza-domicilio', { refId, motivo: 'mi tarjeta 4242 4242 4242 4242' });
    expect(await app.deps.db.query('SELECT motivo FROM rechazos WHERE ref_id = $1', [refId])).toEqual([{ motivo: 'mi tarjeta ••••4242' }]);
    const info = await post(app, '/api/cotizacion/info', { email: 'ana@example.com', hash: '4242.4242.4242.4242' });
    expect(await app.deps.db.query('SELECT hash FROM contactos WHERE id = $1', [info.json().id])).toEqual([{ hash: '••••4242' }]);
  });
});

describe('14. content types', () => {
  const body = JSON.stringify({ typeDoc: 'DNI', numberDoc: '30123456' });
  async function enviar(headers: Record<string, string>, payload: string | Buffer = body) {
    const { token, cookie } = await getCsrf(app);
    return app.inject({
      method: 'POST',
      url: '/api/cotizacion/validar-dni',
      payload,
      headers: { ...headers, 'x-xsrf-token': token, cookie },
    });
  }
  const MENSAJE_415 = 'Enviá los datos en formato JSON (Content-Type: application/json).';

  it('text/plain, a missing content type and a non-UTF-8 charset → 415 VALIDACION', async () => {
    expectError(await enviar({ 'content-type': 'text/plain' }), 415, 'VALIDACION', MENSAJE_415);
    expectError(await enviar({}, Buffer.from(body)), 415, 'VALIDACION', MENSAJE_415);
    expectError(await enviar({ 'content-type': 'application/json; charset=latin1' }), 415, 'VALIDACION', MENSAJE_415);
    expectError(await enviar({ 'content-type': 'application/x-www-form-urlencoded' }, 'typeDoc=DNI'), 415, 'VALIDACION', MENSAJE_415);
  });

  it('application/json with or without charset=utf-8 → 200', async () => {
    expect((await enviar({ 'content-type': 'application/json' })).json()).toEqual({ valido: true });
    expect((await enviar({ 'content-type': 'application/json; charset=UTF-8' })).json()).toEqual({ valido: true });
    expect((await enviar({ 'content-type': 'application/json;charset=utf-8' })).json()).toEqual({ valido: true });
  });
});
