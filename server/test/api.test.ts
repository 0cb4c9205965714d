/**
 * API tests through `app.inject` on an in-memory PGlite: CSRF, every endpoint's status/body/schema, the exact
 * Spanish messages of the 400s, the purchase journey to EMITIDA, the decline path, and the promise that no card
 * number or CBU is stored in clear.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { scriptHash } from '../src/plugins/security.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MENSAJE_RECHAZO_MEDIO_PAGO } from '../src/domain/emision/service.ts';
import { sumarDias } from '../src/domain/validation/fechas.ts';
import { ar } from '../../tests/unit/form/dates-helper.ts';
import { LANUS } from '../../tests/support/localidades.ts';
import {
  buildTestApp,
  CBU_OK,
  CBU_RECHAZADO,
  cotizarBody,
  domicilio,
  expectError,
  expectSchema,
  get,
  getCsrf,
  hoy,
  persona,
  post,
  recorrerJourney,
  TARJETA_OK,
  TARJETA_RECHAZADA,
} from './helper.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

async function nuevaCotizacion(overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await post(app, '/api/cotizacion/cotizar', cotizarBody(overrides));
  expect(res.statusCode).toBe(200);
  return res.json().refId;
}

describe('CSRF', () => {
  it('GET /api/set-csrf sets the httpOnly secret and a readable XSRF-TOKEN equal to csrfToken', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/set-csrf' });
    expect(res.statusCode).toBe(200);
    expectSchema(res.json(), 'csrf', 'SetCsrfResponse');
    const secret = res.cookies.find((c) => c.name === '_csrf');
    const token = res.cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(secret).toMatchObject({ httpOnly: true, path: '/' });
    expect(token).toMatchObject({ path: '/', sameSite: 'Lax', value: res.json().csrfToken });
    expect(token?.httpOnly).toBeFalsy();
  });

  it('POST without x-xsrf-token → 403 CSRF_INVALIDO', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/cotizacion/validar-dni',
      payload: { typeDoc: 'DNI', numberDoc: '30123456' },
    });
    expectError(res, 403, 'CSRF_INVALIDO', 'Tu sesión de seguridad venció. Volvé a intentar.');
  });

  it('POST with a token but without the secret cookie, or a forged token → 403', async () => {
    const { token, cookie } = await getCsrf(app);
    const sinCookie = await app.inject({
      method: 'POST',
      url: '/api/cotizacion/validar-dni',
      payload: {},
      headers: { 'x-xsrf-token': token },
    });
    expectError(sinCookie, 403, 'CSRF_INVALIDO', 'Tu sesión de seguridad venció. Volvé a intentar.');
    const falso = await app.inject({
      method: 'POST',
      url: '/api/cotizacion/validar-dni',
      payload: {},
      headers: { 'x-xsrf-token': 'falso', cookie },
    });
    expectError(falso, 403, 'CSRF_INVALIDO', 'Tu sesión de seguridad venció. Volvé a intentar.');
  });

  it('POST with token and cookie → 200', async () => {
    const res = await post(app, '/api/cotizacion/validar-dni', { typeDoc: 'DNI', numberDoc: '30123456' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ valido: true });
  });
});

describe('errors', () => {
  it('unknown /api route → 404 NO_ENCONTRADO', async () => {
    expectError(await app.inject({ method: 'GET', url: '/api/no-existe' }), 404, 'NO_ENCONTRADO', 'No encontramos lo que buscás.');
  });

  it('malformed JSON → 400 VALIDACION', async () => {
    const { token, cookie } = await getCsrf(app);
    const res = await app.inject({
      method: 'POST',
      url: '/api/cotizacion/cotizar',
      payload: '{"metros": 80,',
      headers: { 'content-type': 'application/json', 'x-xsrf-token': token, cookie },
    });
    expectError(res, 400, 'VALIDACION', 'El pedido no es un JSON válido.');
  });

  it('no body at all → 400 with a message for the whole body', async () => {
    const { token, cookie } = await getCsrf(app);
    const res = await app.inject({ method: 'POST', url: '/api/cotizacion/cotizar', headers: { 'x-xsrf-token': token, cookie } });
    expectError(res, 400, 'VALIDACION', 'Revisá los datos ingresados.');
    expect(res.json().errors).toEqual([{ field: '', message: 'Enviá los datos en formato JSON.' }]);
  });

  it('too many requests from one IP → 429 DEMASIADAS_SOLICITUDES', async () => {
    const limited = await buildTestApp({ rateLimitMax: 2 });
    for (let i = 0; i < 2; i++) expect((await limited.inject({ method: 'GET', url: '/api/chat/habilitar' })).statusCode).toBe(200);
    expectError(
      await limited.inject({ method: 'GET', url: '/api/chat/habilitar' }),
      429,
      'DEMASIADAS_SOLICITUDES',
      'Hiciste muchos pedidos seguidos. Esperá un minuto y volvé a intentar.',
    );
    await limited.close();
  });

  it('non-JSON content type → 415 and oversized body → 413, both VALIDACION', async () => {
    const { token, cookie } = await getCsrf(app);
    const headers = { 'x-xsrf-token': token, cookie };
    const texto = await app.inject({
      method: 'POST',
      url: '/api/cotizacion/cotizar',
      payload: 'hola',
      headers: { ...headers, 'content-type': 'text/csv' },
    });
    expectError(texto, 415, 'VALIDACION', 'Enviá los datos en formato JSON (Content-Type: application/json).');
    const grande = await post(app, '/api/logs/insertar-log-ok', {
      app: 'a',
      proceso: 'p',
      proceso_detalle: 'd',
      request: 'x'.repeat(70_000),
    });
    expectError(grande, 413, 'VALIDACION', 'Los datos enviados son demasiado grandes.');
  });

  it('an internal failure → 500 ERROR_INTERNO without internals', async () => {
    const broken = await buildTestApp();
    await broken.deps.db.query('DROP TABLE contactos');
    const res = await post(broken, '/api/cotizacion/info', { email: 'ana@example.com' });
    expectError(res, 500, 'ERROR_INTERNO', 'Tuvimos un problema. Probá de nuevo en unos minutos.');
    expect(res.body).not.toMatch(/contactos|relation|stack/i);
    await broken.close();
  });

  const POSTS = [
    '/api/cotizacion/validar-telefono',
    '/api/cotizacion/validar-dni',
    '/api/cotizacion/info',
    '/api/cotizacion/cotizar',
    '/api/cotizacion/datos-presupuesto',
    '/api/salesforce/insertar-datos',
    '/api/domicilio/comparar-zonas',
    '/api/domicilio/insertar-domicilio',
    '/api/domicilio/rechaza-domicilio',
    '/api/pagos/validar-medio-pago',
    '/api/pagos/es-cbu-valido',
    '/api/pagos/validar-cbu',
    '/api/pagos/validar-forma-cobro',
    '/api/emision/solicitar',
    '/api/emision/emitir-async',
    '/api/recaptcha/evaluate',
    '/api/logs/insertar-log-ok',
  ];
  it.each(POSTS)('%s answers 400 VALIDACION (never 500) to empty, wrong-typed and junk bodies', async (url) => {
    const csrf = await getCsrf(app);
    for (const body of [{}, [], { refId: 12, numeroSolicitud: 'x', methodPayment: 'EFECTIVO', email: 'no' }]) {
      const res = await post(app, url, body, csrf);
      expectError(res, 400, 'VALIDACION', 'Revisá los datos ingresados.');
      expect(res.json().errors.length).toBeGreaterThan(0);
    }
  });
});

describe('chat, recaptcha, logs, leads', () => {
  it('GET /api/chat/habilitar → p_estado C and the WhatsApp number', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/chat/habilitar' });
    expect(res.json()).toEqual({ p_estado: 'C', telefono: '5491100000000' });
    expectSchema(res.json(), 'chat', 'HabilitarResponse');
  });

  it('chat disabled by settings → p_estado D', async () => {
    const other = await buildTestApp({ settings: { chat: { habilitado: false, telefono: '5493510000000' } } });
    const res = await other.inject({ method: 'GET', url: '/api/chat/habilitar' });
    expect(res.json()).toEqual({ p_estado: 'D', telefono: '5493510000000' });
    await other.close();
  });

  it('recaptcha evaluate accepts a token; empty token → 400', async () => {
    const ok = await post(app, '/api/recaptcha/evaluate', { token: 'abc', action: 'cotizar' });
    expect(ok.json()).toEqual({ success: true, score: 0.9, action: 'cotizar' });
    expectSchema(ok.json(), 'recaptcha', 'EvaluateResponse');
    const vacio = await post(app, '/api/recaptcha/evaluate', { token: '', action: 'cotizar' });
    expectError(vacio, 400, 'VALIDACION', 'Revisá los datos ingresados.');
    expect(vacio.json().errors).toEqual([{ field: '/token', message: 'Falta la verificación de seguridad.' }]);
  });

  it('evaluar-ip allows an IP until it reaches the hourly quote limit', async () => {
    const limited = await buildTestApp({ settings: { cotizacionesPorHoraPorIp: 1 } });
    const { token, cookie } = await getCsrf(limited);
    const sinCuerpo = await limited.inject({
      method: 'POST',
      url: '/api/recaptcha/evaluar-ip',
      headers: { 'x-xsrf-token': token, cookie },
    });
    expect(sinCuerpo.json()).toEqual({ permitido: true });
    const antes = await post(limited, '/api/recaptcha/evaluar-ip', {});
    expect(antes.json()).toEqual({ permitido: true });
    expectSchema(antes.json(), 'recaptcha', 'EvaluarIpResponse');
    expect((await post(limited, '/api/cotizacion/cotizar', cotizarBody())).statusCode).toBe(200);
    expect((await post(limited, '/api/recaptcha/evaluar-ip', {})).json()).toEqual({
      permitido: false,
      mensaje: 'Hiciste muchas cotizaciones en la última hora. Probá de nuevo más tarde o escribinos por WhatsApp.',
    });
    await limited.close();
  });

  it('insertar-log-ok stores the log with payment-like numbers masked', async () => {
    const res = await post(app, '/api/logs/insertar-log-ok', {
      app: 'cotizador-hogar-back',
      proceso: 'Cotizador Hogar',
      proceso_detalle: 'LogCampaniaUnicClic',
      navegador: 'Chrome',
      id_extra: 'desktop',
      request: { gclid: 'abc', nota: `tarjeta ${TARJETA_OK}` },
    });
    expect(res.statusCode).toBe(200);
    expectSchema(res.json(), 'common', 'Ok');
    const [row] = await app.deps.db.query<{ request: string }>('SELECT request FROM logs WHERE id = $1', [res.json().id]);
    expect(row.request).toBe('{"gclid":"abc","nota":"tarjeta ••••4242"}');
  });

  it('info and insertar-campa-solnoc store records', async () => {
    const info = await post(app, '/api/cotizacion/info', {
      email: 'ana@example.com',
      prefijo: '11',
      telefono: '55551234',
      app: 'web',
      hash: 'h',
      navegador: 'Firefox',
      version: '1.2.7',
    });
    expect(info.statusCode).toBe(200);
    expectSchema(info.json(), 'common', 'Ok');
    const malEmail = await post(app, '/api/cotizacion/info', { email: 'ana@' });
    expect(malEmail.json().errors).toEqual([{ field: '/email', message: 'Ingresá un e-mail válido.' }]);
    const camp = await post(app, '/api/cotizacion/insertar-campa-solnoc', { gclid: 'g1', utm_campaign: 'hogar-verano' });
    expect(camp.json()).toMatchObject({ ok: true });
    const [row] = await app.deps.db.query('SELECT gclid, utm_campaign FROM campanias WHERE id = $1', [camp.json().id]);
    expect(row).toEqual({ gclid: 'g1', utm_campaign: 'hogar-verano' });
  });
});

describe('listas', () => {
  it.each([
    'tipos-vivienda',
    'valores-country',
    'tipos-titularidad',
    'usos-vivienda',
    'tiposDocumentos',
    'sexos',
    'nacionalidades',
    'estadosCivil',
  ])('/api/listas/%s → items, cacheable', async (lista) => {
    const res = await app.inject({ method: 'GET', url: `/api/listas/${lista}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expectSchema(res.json(), 'listas', 'Items');
    expect(res.json().length).toBeGreaterThan(1);
  });

  it('nacionalidades starts with ARG; sexos has X', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/listas/nacionalidades' })).json()[0]).toEqual({
      codigo: 'ARG',
      descripcion: 'Argentina',
    });
    expect((await app.inject({ method: 'GET', url: '/api/listas/sexos' })).json().map((s: { codigo: string }) => s.codigo)).toEqual([
      'F',
      'M',
      'X',
    ]);
  });

  it('metros → bounds and bands from the tariff', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/listas/metros' });
    expectSchema(res.json(), 'listas', 'Metros');
    expect(res.json()).toMatchObject({ min: 20, max: 1000 });
    expect(res.json().bandas[0]).toEqual({ codigo: 'M50', desde: 20, hasta: 50, descripcion: 'Hasta 50 m²' });
  });

  it('provincias → 24 INDEC provinces by name', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/listas/provincias' });
    expectSchema(res.json(), 'listas', 'Provincias');
    expect(res.json()).toHaveLength(24);
    expect(res.json()).toContainEqual({ id: '06', nombre: 'Buenos Aires', iso: 'AR-B' });
    expect(res.json()[0].nombre).toBe('Buenos Aires');
  });

  it('provincia?id=06 → departments; unknown → 404; malformed → 400', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/listas/provincia?id=06' });
    expectSchema(res.json(), 'listas', 'ProvinciaDetalle');
    expect(res.json().departamentos).toContainEqual({ id: '06007', nombre: 'Adolfo Alsina' });
    expectError(
      await app.inject({ method: 'GET', url: '/api/listas/provincia?id=99' }),
      404,
      'NO_ENCONTRADO',
      'No encontramos la provincia.',
    );
    const mal = await app.inject({ method: 'GET', url: '/api/listas/provincia?id=B' });
    expectError(mal, 400, 'VALIDACION', 'Revisá los datos ingresados.');
    expect(mal.json().errors).toEqual([{ field: '/id', message: 'Ingresá el código INDEC de 2 números de la provincia.' }]);
  });

  it('localidades: accent- and case-insensitive, by province, limited', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/listas/localidades?provincia=06&q=LANUS' });
    expectSchema(res.json(), 'listas', 'Localidades');
    expect(res.json()[0]).toMatchObject(LANUS);
    const villas = await app.inject({ method: 'GET', url: '/api/listas/localidades?q=villa&limit=3' });
    expect(villas.json()).toHaveLength(3);
    const palabra = await app.inject({ method: 'GET', url: '/api/listas/localidades?provincia=14&q=carlos%20paz' });
    expect(palabra.json().map((l: { nombre: string }) => l.nombre)).toContain('Villa Carlos Paz');
    const limite = await app.inject({ method: 'GET', url: '/api/listas/localidades?limit=51' });
    expect(limite.json().errors).toEqual([{ field: '/limit', message: 'Ingresá un número entre 1 y 50.' }]);
    const corto = await app.inject({ method: 'GET', url: '/api/listas/localidades?q=l' });
    expect(corto.json().errors).toEqual([{ field: '/q', message: 'Escribí al menos 2 letras.' }]);
  });
});

describe('cotizacion', () => {
  it('validar-prefijo: ENACOM code → valid with digits; with leading 0 → message', async () => {
    const ok = await app.inject({ method: 'GET', url: '/api/cotizacion/validar-prefijo?prefijo=11' });
    expect(ok.json()).toEqual({ valido: true, prefijo: '11', localidad: 'Buenos Aires', digitosNumero: 8 });
    expectSchema(ok.json(), 'cotizacion', 'ValidarPrefijoResponse');
    const cero = await app.inject({ method: 'GET', url: '/api/cotizacion/validar-prefijo?prefijo=011' });
    expect(cero.json()).toEqual({
      valido: false,
      mensaje: 'Ese código de área no existe en la numeración argentina (ENACOM). Revisalo: va sin el 0, como 11, 351 o 3541.',
    });
    expect((await app.inject({ method: 'GET', url: '/api/cotizacion/validar-prefijo' })).json().errors).toEqual([
      { field: '/prefijo', message: 'Este dato es obligatorio.' },
    ]);
  });

  it('validar-telefono and validar-dni answer 200 with the message for invalid values', async () => {
    expect((await post(app, '/api/cotizacion/validar-telefono', { areaCod: '11', phoneNumber: '1555551234' })).json()).toEqual({
      valido: false,
      mensaje: 'Ingresá el número sin el 15.',
    });
    expect((await post(app, '/api/cotizacion/validar-telefono', { areaCod: '221', phoneNumber: '4221234' })).json()).toEqual({
      valido: true,
    });
    expect((await post(app, '/api/cotizacion/validar-dni', { typeDoc: 'DNI', numberDoc: '12.345' })).json()).toEqual({
      valido: false,
      mensaje: 'Ingresá un DNI válido: 7 u 8 números, sin puntos.',
    });
    const sinNumero = await post(app, '/api/cotizacion/validar-dni', { typeDoc: 'DNI' });
    expect(sinNumero.json().errors).toEqual([{ field: '/numberDoc', message: 'Este dato es obligatorio.' }]);
  });

  it('cotizar → three priced plans in AMBA, matching the schema', async () => {
    const res = await post(app, '/api/cotizacion/cotizar', cotizarBody());
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expectSchema(body, 'cotizacion', 'CotizarResponse');
    expect(body).toMatchObject({ tarifaVersion: '2026-11', inspection: false, zona: { codigo: 'Z1' } });
    expect(body.planes.map((p: { codPlan: string }) => p.codPlan)).toEqual(['BASICO', 'INTERMEDIO', 'INTEGRAL']);
    const [row] = await app.deps.db.query<{ zona: string; metros: number }>('SELECT zona, metros FROM cotizaciones WHERE ref_id = $1', [
      body.refId,
    ]);
    expect(row).toEqual({ zona: 'Z1', metros: 80 });
  });

  it('cotizar rejects bad fields with their exact messages', async () => {
    const cases: [Record<string, unknown>, { field: string; message: string }[]][] = [
      [{ metros: undefined }, [{ field: '/metros', message: 'Este dato es obligatorio.' }]],
      [{ metros: 10 }, [{ field: '/metros', message: 'Ingresá un número entre 20 y 1000.' }]],
      [{ metros: '80' }, [{ field: '/metros', message: 'Tiene que ser un número entero.' }]],
      [
        { tipoVivienda: 'CASTILLO', barrioCerrado: undefined },
        [{ field: '/tipoVivienda', message: 'Elegí una de estas opciones: CASA, DEPARTAMENTO, PH.' }],
      ],
      // propiedad.schema.json: barrioCerrado only for a CASA (the step's if/then/else, reused by the wire)
      [{ tipoVivienda: 'DEPARTAMENTO' }, [{ field: '/barrioCerrado', message: 'Este dato no corresponde a este pedido.' }]],
      [{ barrioCerrado: undefined }, [{ field: '/barrioCerrado', message: 'Este dato es obligatorio.' }]],
      [{ color: 'rojo' }, [{ field: '/color', message: 'Este dato no corresponde a este pedido.' }]],
      [{ email: 'ana' }, [{ field: '/email', message: 'Ingresá un e-mail válido.' }]],
      [
        { initPolicyDate: hoy() },
        [
          {
            field: '/initPolicyDate',
            message: `La cobertura tiene que empezar entre el ${ar(sumarDias(hoy(), 1))} y el ${ar(sumarDias(hoy(), 30))}.`,
          },
        ],
      ],
      [
        { initPolicyDate: sumarDias(hoy(), 31) },
        [
          {
            field: '/initPolicyDate',
            message: `La cobertura tiene que empezar entre el ${ar(sumarDias(hoy(), 1))} y el ${ar(sumarDias(hoy(), 30))}.`,
          },
        ],
      ],
      [
        { areaCod: '9999' },
        [
          {
            field: '/areaCod',
            message: 'Ese código de área no existe en la numeración argentina (ENACOM). Revisalo: va sin el 0, como 11, 351 o 3541.',
          },
        ],
      ],
      [{ phoneNumber: '5555123' }, [{ field: '/phoneNumber', message: 'Con el código de área 11 el número tiene que tener 8 dígitos.' }]],
      [{ codLocalidad: '14014010' }, [{ field: '/codLocalidad', message: 'La localidad no corresponde a la provincia elegida.' }]],
      [{ codLocalidad: '99999999' }, [{ field: '/codLocalidad', message: 'Elegí una localidad de la lista.' }]],
    ];
    for (const [overrides, errors] of cases) {
      const res = await post(app, '/api/cotizacion/cotizar', cotizarBody(overrides));
      expectError(res, 400, 'VALIDACION', 'Revisá los datos ingresados.');
      expect(res.json().errors, JSON.stringify(overrides)).toEqual(errors);
    }
  });

  it('datos-presupuesto re-prices with optionals and stores the choice', async () => {
    const res0 = await post(app, '/api/cotizacion/cotizar', cotizarBody());
    const { refId, planes } = res0.json();
    const base = planes.find((p: { codPlan: string }) => p.codPlan === 'INTERMEDIO');
    const res = await post(app, '/api/cotizacion/datos-presupuesto', {
      refId,
      codPlan: 'INTERMEDIO',
      coberturasOpcionales: ['501', '503'],
    });
    expect(res.statusCode).toBe(200);
    const plan = res.json();
    expectSchema(plan, 'cotizacion', 'DatosPresupuestoResponse');
    expect(plan).toMatchObject({ refId, recotizado: true, codPlan: 'INTERMEDIO' });
    const elegidas = plan.coberturas.optional.filter((c: { selecc: string }) => c.selecc === 'S');
    expect(elegidas.map((c: { codCobertura: string }) => c.codCobertura)).toEqual(['501', '503']);
    const extra = elegidas.reduce((s: number, c: { primaCobertura: number }) => s + Math.round(c.primaCobertura * 100), 0);
    expect(Math.round(plan.prima * 100)).toBe(Math.round(base.prima * 100) + 12 * extra); // annual prima, monthly primaCobertura
    const [row] = await app.deps.db.query('SELECT cod_plan, coberturas_opcionales FROM cotizaciones WHERE ref_id = $1', [refId]);
    expect(row).toEqual({ cod_plan: 'INTERMEDIO', coberturas_opcionales: ['501', '503'] });
  });

  it('datos-presupuesto: unknown refId → 404; optional not offered → 400', async () => {
    const refId = await nuevaCotizacion();
    expectError(
      await post(app, '/api/cotizacion/datos-presupuesto', {
        refId: '00000000-0000-4000-8000-000000000000',
        codPlan: 'BASICO',
        coberturasOpcionales: [],
      }),
      404,
      'NO_ENCONTRADO',
      'No encontramos tu cotización. Volvé a cotizar.',
    );
    const res = await post(app, '/api/cotizacion/datos-presupuesto', { refId, codPlan: 'INTEGRAL', coberturasOpcionales: ['501', '505'] });
    expectError(res, 400, 'VALIDACION', 'Revisá los datos ingresados.');
    expect(res.json().errors).toEqual([{ field: '/coberturasOpcionales/1', message: 'La cobertura 505 no está disponible en este plan.' }]);
  });
});

describe('salesforce and domicilio', () => {
  it('insertar-datos → idSalesForce; under-age and bad DNI → 400 with messages', async () => {
    const refId = await nuevaCotizacion();
    const ok = await post(app, '/api/salesforce/insertar-datos', { refId, ...persona() });
    expect(ok.statusCode).toBe(200);
    expectSchema(ok.json(), 'salesforce', 'InsertarDatosResponse');
    const menor = await post(app, '/api/salesforce/insertar-datos', {
      refId,
      ...persona({ birthDate: sumarDias(`${Number(hoy().slice(0, 4)) - 18}${hoy().slice(4)}`, 1), numberDoc: '123' }),
    });
    expect(menor.json().errors).toEqual([
      { field: '/numberDoc', message: 'Ingresá un DNI válido: 7 u 8 números, sin puntos.' },
      { field: '/birthDate', message: 'Para contratar tenés que tener entre 18 y 99 años.' },
    ]);
  });

  it('comparar-zonas: same zone, and a Córdoba address re-prices the chosen plan in Z2', async () => {
    const refId = await nuevaCotizacion();
    const misma = await post(app, '/api/domicilio/comparar-zonas', { refId, codLocation: '06434010' });
    expect(misma.json()).toEqual({ mismaZona: true, zonaCotizada: 'Z1', zonaDomicilio: 'Z1' });
    await post(app, '/api/cotizacion/datos-presupuesto', { refId, codPlan: 'BASICO', coberturasOpcionales: [] });
    const cordoba = await app.inject({ method: 'GET', url: '/api/listas/localidades?provincia=14&q=cordoba&limit=1' });
    const otra = await post(app, '/api/domicilio/comparar-zonas', { refId, codLocation: cordoba.json()[0].id });
    expectSchema(otra.json(), 'domicilio', 'CompararZonasResponse');
    expect(otra.json()).toMatchObject({ mismaZona: false, zonaCotizada: 'Z1', zonaDomicilio: 'Z2', plan: { codPlan: 'BASICO' } });
  });

  it('insertar-domicilio → idDom; missing number, TyC not accepted, CPA of another province → 400', async () => {
    const refId = await nuevaCotizacion();
    const ok = await post(app, '/api/domicilio/insertar-domicilio', { refId, ...domicilio() });
    expectSchema(ok.json(), 'domicilio', 'InsertarDomicilioResponse');
    const sinNumero = await post(app, '/api/domicilio/insertar-domicilio', { refId, ...domicilio({ numberAddress: undefined }) });
    expect(sinNumero.json().errors).toEqual([{ field: '/numberAddress', message: 'Este dato es obligatorio.' }]);
    const sinAltura = await post(app, '/api/domicilio/insertar-domicilio', {
      refId,
      ...domicilio({ numberAddress: undefined, noAddressNumber: true }),
    });
    expect(sinAltura.statusCode).toBe(200);
    const tyc = await post(app, '/api/domicilio/insertar-domicilio', { refId, ...domicilio({ checkTyC: false }) });
    expect(tyc.json().errors).toEqual([{ field: '/checkTyC', message: 'Tenés que aceptar los términos y condiciones.' }]);
    const cpa = await post(app, '/api/domicilio/insertar-domicilio', { refId, ...domicilio({ zipCode: 'C1425ABC' }) });
    expect(cpa.json().errors).toEqual([{ field: '/zipCode', message: 'El código postal no corresponde a la provincia elegida.' }]);
  });

  it('rechaza-domicilio → ok and a rechazos row', async () => {
    const refId = await nuevaCotizacion();
    const res = await post(app, '/api/domicilio/rechaza-domicilio', { refId, motivo: 'Subió el precio' });
    expect(res.json()).toEqual({ ok: true });
    expect(await app.deps.db.query('SELECT motivo FROM rechazos WHERE ref_id = $1', [refId])).toEqual([{ motivo: 'Subió el precio' }]);
  });
});

describe('pagos', () => {
  it('validar-medio-pago: card brand, Luhn, CBU bank', async () => {
    const visa = await post(app, '/api/pagos/validar-medio-pago', { methodPayment: 'TC', numberPaymentCard: '4242 4242 4242 4242' });
    expect(visa.json()).toEqual({ valido: true, marca: 'visa' });
    expectSchema(visa.json(), 'pagos', 'ValidarMedioPagoResponse');
    expect(
      (await post(app, '/api/pagos/validar-medio-pago', { methodPayment: 'TC', numberPaymentCard: '4242424242424241' })).json(),
    ).toEqual({
      valido: false,
      mensaje: 'El número de tarjeta no es válido. Revisalo.',
    });
    const cbu = await post(app, '/api/pagos/validar-medio-pago', { methodPayment: 'CBU', numberCBU: CBU_OK });
    expect(cbu.json()).toMatchObject({ valido: true, banco: { codigo: '285' } });
    const falta = await post(app, '/api/pagos/validar-medio-pago', { methodPayment: 'TC' });
    expect(falta.json().errors).toEqual([{ field: '/numberPaymentCard', message: 'Este dato es obligatorio.' }]);
  });

  it('es-cbu-valido and validar-cbu', async () => {
    expect((await post(app, '/api/pagos/es-cbu-valido', { numberCBU: '2850590909400904181357' })).json()).toEqual({
      valido: false,
      mensaje: 'El CBU no es válido. Revisá los números.',
    });
    const ok = await post(app, '/api/pagos/es-cbu-valido', { numberCBU: CBU_OK });
    expectSchema(ok.json(), 'pagos', 'CbuResponse');
    expectError(
      await post(app, '/api/pagos/validar-cbu', { refId: '00000000-0000-4000-8000-000000000000', numberCBU: CBU_OK }),
      404,
      'NO_ENCONTRADO',
      'No encontramos tu cotización. Volvé a cotizar.',
    );
    const refId = await nuevaCotizacion();
    expect((await post(app, '/api/pagos/validar-cbu', { refId, numberCBU: CBU_OK })).json()).toMatchObject({ valido: true });
  });

  it('validar-forma-cobro tokenises a card (masked) and refuses an expired one', async () => {
    const refId = await nuevaCotizacion();
    const res = await post(app, '/api/pagos/validar-forma-cobro', {
      refId,
      methodPayment: 'TC',
      namePaymentCard: 'ANA PEREZ',
      numberPaymentCard: TARJETA_OK,
      expirationPaymentCard: '12/39',
    });
    expectSchema(res.json(), 'pagos', 'ValidarFormaCobroResponse');
    expect(res.json().medioPago).toMatchObject({ tipo: 'TC', marca: 'visa', descripcion: 'Visa terminada en 4242', mascara: '•••• 4242' });
    const vencida = await post(app, '/api/pagos/validar-forma-cobro', {
      refId,
      methodPayment: 'TC',
      namePaymentCard: 'ANA PEREZ',
      numberPaymentCard: TARJETA_OK,
      expirationPaymentCard: '01/20',
    });
    expect(vencida.json()).toEqual({ valido: false, mensaje: 'La tarjeta está vencida.', campo: 'expirationPaymentCard' });
    const cbu = await post(app, '/api/pagos/validar-forma-cobro', { refId, methodPayment: 'CBU', numberCBU: CBU_OK });
    expect(cbu.json().medioPago).toMatchObject({
      tipo: 'CBU',
      descripcion: 'CBU Banco Macro S.A. terminada en 1356',
      mascara: '•••• 1356',
    });
  });
});

describe('emision', () => {
  it('journey with a card ends EMITIDA with a policy number the DB holds; emitir-async is idempotent', async () => {
    const { numeroSolicitud, estado, csrf } = await recorrerJourney(app, { methodPayment: 'TC', numberPaymentCard: TARJETA_OK });
    expectSchema(estado, 'emision', 'Estado');
    expect(estado).toMatchObject({ numeroSolicitud, estado: 'EMITIDA' });
    expect(estado.numSecuPol).toMatch(new RegExp(`^HOG-${hoy().slice(0, 4)}-\\d{6}$`));
    const polizas = await app.deps.db.query(
      'SELECT p.num_secu_pol FROM polizas p JOIN solicitudes s USING (numero_solicitud) WHERE s.id = $1',
      [numeroSolicitud],
    );
    expect(polizas).toEqual([{ num_secu_pol: estado.numSecuPol }]);
    const again = await post(app, '/api/emision/emitir-async', { numeroSolicitud }, csrf);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual({
      numeroSolicitud,
      estado: 'EMITIDA',
      numSecuPol: estado.numSecuPol,
      vigenciaDesde: estado.vigenciaDesde,
      vigenciaHasta: estado.vigenciaHasta,
      documento: expect.any(String),
    });
    await app.deps.emision.emitir(numeroSolicitud);
    expect(
      await app.deps.db.query('SELECT count(*)::int AS n FROM polizas p JOIN solicitudes s USING (numero_solicitud) WHERE s.id = $1', [
        numeroSolicitud,
      ]),
    ).toEqual([{ n: 1 }]);
  });

  it('test-decline card and CBU end RECHAZADA with the message', async () => {
    const pagos: Record<string, string>[] = [
      { methodPayment: 'TC', numberPaymentCard: TARJETA_RECHAZADA },
      { methodPayment: 'CBU', numberCBU: CBU_RECHAZADO },
    ];
    for (const pago of pagos) {
      const { numeroSolicitud, estado } = await recorrerJourney(app, pago);
      expect(estado).toEqual({ numeroSolicitud, estado: 'RECHAZADA', mensaje: MENSAJE_RECHAZO_MEDIO_PAGO });
    }
  });

  it('solicitar: foreign medioPagoId → 400; emitir/estado of an unknown application → 404; bad id → 400', async () => {
    const refId = await nuevaCotizacion();
    const res = await post(app, '/api/emision/solicitar', {
      refId,
      codPlan: 'BASICO',
      coberturasOpcionales: [],
      medioPagoId: '00000000-0000-4000-8000-000000000000',
      persona: persona(),
      domicilio: domicilio(),
    });
    expect(res.json().errors).toEqual([{ field: '/medioPagoId', message: 'Elegí de nuevo el medio de pago.' }]);
    const nested = await post(app, '/api/emision/solicitar', {
      refId,
      codPlan: 'BASICO',
      coberturasOpcionales: [],
      medioPagoId: '00000000-0000-4000-8000-000000000000',
      persona: persona({ phoneNumber: '11111111' }),
      domicilio: domicilio({ zipCode: '0000' }),
    });
    expect(nested.json().errors).toEqual([
      { field: '/persona/phoneNumber', message: 'Ingresá un número de teléfono real.' },
      { field: '/domicilio/zipCode', message: 'Ingresá un código postal de 4 números o el CPA, por ejemplo 1425 o C1425ABC.' },
    ]);
    const desconocida = '00000000-0000-4000-8000-000000000000';
    expectError(
      await post(app, '/api/emision/emitir-async', { numeroSolicitud: desconocida }),
      404,
      'NO_ENCONTRADO',
      'No encontramos la solicitud.',
    );
    expectError(await get(app, `/api/emision/estado/${desconocida}`), 404, 'NO_ENCONTRADO', 'No encontramos la solicitud.');
    const mal = await get(app, '/api/emision/estado/abc');
    expect(mal.json().errors).toEqual([{ field: '/numeroSolicitud', message: 'El número de solicitud no es válido.' }]);
  });

  it('no table holds a card number or a CBU in clear', async () => {
    await recorrerJourney(app, { methodPayment: 'TC', numberPaymentCard: TARJETA_OK });
    await recorrerJourney(app, { methodPayment: 'CBU', numberCBU: CBU_OK });
    const tables = await app.deps.db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
    );
    expect(tables.map((t) => t.table_name)).toContain('medios_pago');
    let dump = '';
    for (const { table_name } of tables) {
      const rows = await app.deps.db.query<{ r: string }>(`SELECT row_to_json(t)::text AS r FROM "${table_name}" t`);
      dump += rows.map((x) => x.r).join('\n');
    }
    expect(dump).toContain('•••• 4242');
    for (const secreto of [TARJETA_OK, TARJETA_RECHAZADA, CBU_OK, CBU_RECHAZADO]) expect(dump).not.toContain(secreto);
  });
});

describe('docs and static', () => {
  it('OpenAPI document lists every /api call; Swagger UI answers', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(doc.openapi).toBe('3.0.3');
    for (const path of ['/api/cotizacion/cotizar', '/api/emision/estado/{numeroSolicitud}', '/api/listas/localidades', '/api/set-csrf']) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    const ui = await app.inject({ method: 'GET', url: '/api/docs' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger-ui-bundle.js');
  });

  it('serves the built web app with SPA fallback and a strict CSP', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cotizador-dist-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Cotizador</title>');
    writeFileSync(join(dir, 'app.js'), 'console.log(1)');
    const web = await buildTestApp({ staticDir: dir });
    const page = await web.inject({ method: 'GET', url: '/seguro-hogar/metros?gclid=1' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Cotizador</title>');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect((await web.inject({ method: 'GET', url: '/app.js' })).body).toBe('console.log(1)');
    expectError(await web.inject({ method: 'GET', url: '/api/nada' }), 404, 'NO_ENCONTRADO', 'No encontramos lo que buscás.');
    await web.close();
  });

  it('answers each route with its prerendered page (else the shell), precompressed when accepted, assets cached', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cotizador-dist-'));
    mkdirSync(join(dir, 'seguro-hogar/metros'), { recursive: true });
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<div id="root" data-paso="inicio">landing</div>');
    writeFileSync(join(dir, 'shell.html'), '<div id="root"></div>');
    writeFileSync(join(dir, 'seguro-hogar/metros/index.html'), '<div id="root" data-paso="metros">metros</div>');
    writeFileSync(join(dir, 'seguro-hogar/metros/index.html.br'), brotliCompressSync('<div id="root" data-paso="metros">metros</div>'));
    writeFileSync(join(dir, 'assets/app-abc123.js'), 'console.log(1)');
    writeFileSync(join(dir, 'arranque.js'), 'console.log("arranque")');
    const web = await buildTestApp({ staticDir: dir });
    expect((await web.inject({ method: 'GET', url: '/?utm_campaign=x' })).body).toContain('data-paso="inicio"');
    expect((await web.inject({ method: 'GET', url: '/seguro-hogar/metros?gclid=1' })).body).toContain('data-paso="metros"');
    expect((await web.inject({ method: 'GET', url: '/arrepentimiento' })).body).toBe('<div id="root"></div>');
    expect((await web.inject({ method: 'GET', url: '/seguro-hogar/../../etc' })).body).toBe('<div id="root"></div>');
    const br = await web.inject({ method: 'GET', url: '/seguro-hogar/metros', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain('data-paso="metros"');
    expect(String((await web.inject({ method: 'GET', url: '/assets/app-abc123.js' })).headers['cache-control'])).toContain('immutable');
    // the prerendered pages' inline loader is allowed by its hash, and no other inline script
    const csp = String(br.headers['content-security-policy']);
    expect(csp).toContain(`script-src 'self' ${scriptHash('console.log("arranque")')};`);
    expect(/script-src [^;]*/.exec(csp)?.[0]).not.toContain('unsafe-inline');
    await web.close();
  });
});
