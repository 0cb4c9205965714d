/**
 * Test helpers: `buildTestApp()` (in-memory PGlite unless a db is given, real engine, no mocks), the CSRF dance,
 * valid request bodies, and a response-schema checker over the wire schemas (schemas/api).
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { build, type BuildOptions } from '../src/app.ts';
import { createAjv } from '../src/plugins/schemas.ts';
import { hoyArgentina, sumarDias } from '../src/domain/validation/fechas.ts';

/** Builds the app for a test file: in-memory PGlite, fast emission (50 ms), no logger. */
export function buildTestApp(opts: BuildOptions = {}): Promise<FastifyInstance> {
  return build({ emissionDelayMs: 50, ...opts });
}

export interface Csrf {
  token: string;
  cookie: string;
}

/** GET /api/set-csrf → token + cookie header to send back. */
export async function getCsrf(app: FastifyInstance): Promise<Csrf> {
  const res = await app.inject({ method: 'GET', url: '/api/set-csrf' });
  const secret = res.cookies.find((c) => c.name === '_csrf');
  if (!secret) throw new Error('set-csrf no devolvió la cookie _csrf');
  return { token: res.json().csrfToken, cookie: `_csrf=${secret.value}` };
}

/** POST with the CSRF token and cookie (a fresh pair unless one is given). */
export async function post(app: FastifyInstance, url: string, body: unknown, csrf?: Csrf): Promise<LightMyRequestResponse> {
  const c = csrf ?? (await getCsrf(app));
  return app.inject({ method: 'POST', url, payload: body as object, headers: { 'x-xsrf-token': c.token, cookie: c.cookie } });
}

const ajv = createAjv();

/** Asserts `body` matches `<area>.json#/$defs/<def>` of the wire schemas. */
export function expectSchema(body: unknown, area: string, def: string): void {
  const validate = ajv.getSchema(`${area}.json#/$defs/${def}`);
  if (!validate) throw new Error(`No existe el esquema ${area}.json#/$defs/${def}`);
  const ok = validate(body);
  expect(ok ? [] : validate.errors, `${area}#${def}`).toEqual([]);
}

/** Asserts a 4xx/5xx answer in the single error shape with the given status, code and message. */
export function expectError(res: LightMyRequestResponse, status: number, code: string, message: string): void {
  expect(res.statusCode).toBe(status);
  const body = res.json();
  expectSchema(body, 'common', 'Error');
  expect(body).toMatchObject({ status, code, message });
}

export const hoy = () => hoyArgentina();

/** A valid POST /api/cotizacion/cotizar body (80 m² house in Lanús, AMBA), with overrides. */
export function cotizarBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    tipoVivienda: 'CASA',
    barrioCerrado: 'N',
    titularidad: 'PROPIETARIO',
    usoVivienda: 'PERMANENTE',
    metros: 80,
    codLocalidad: '06434010',
    idProvincia: '06',
    email: 'ana@example.com',
    areaCod: '11',
    phoneNumber: '55551234',
    initPolicyDate: sumarDias(hoyArgentina(), 7),
    ...overrides,
  };
}

/** A valid buyer (35 years old). */
export function persona(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    firstName: 'Ana',
    lastName: 'Pérez',
    typeDoc: 'DNI',
    numberDoc: '30123456',
    genere: 'F',
    birthDate: `${Number(hoyArgentina().slice(0, 4)) - 35}-03-15`,
    email: 'ana@example.com',
    areaCod: '11',
    phoneNumber: '55551234',
    ddjj: { actividad: 'Empleada', lyt: false, ppe: false },
    ...overrides,
  };
}

/** A valid address in Lanús (Buenos Aires), same zone as `cotizarBody`. */
export function domicilio(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    zipCode: 'B1824ABC',
    codLocation: '06434010',
    location: 'Lanús',
    idProvince: '06',
    province: 'Buenos Aires',
    department: 'Lanús',
    addressName: 'Av. Hipólito Yrigoyen',
    numberAddress: '4500',
    noAddressNumber: false,
    floor: '2',
    depto: 'B',
    checkTyC: true,
    ...overrides,
  };
}

export const TARJETA_OK = '4242424242424242';
export const TARJETA_RECHAZADA = '4000000000000002';
/** BCRA worked example (server/data/ar/SOURCES.md), bank 285. */
export const CBU_OK = '2850590909400904181356';
/** Bank 285, account block 0000000000000 → test-decline. */
export const CBU_RECHAZADO = '2850590900000000000000';

/** Polls GET /api/emision/estado/:n until it leaves PENDIENTE (or `timeoutMs` passes). */
export async function esperarEstado(app: FastifyInstance, numeroSolicitud: number, timeoutMs = 5000): Promise<Record<string, unknown>> {
  const start = Date.now();
  for (;;) {
    const res = await app.inject({ method: 'GET', url: `/api/emision/estado/${numeroSolicitud}` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    if (body.estado !== 'PENDIENTE' || Date.now() - start > timeoutMs) return body;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * The whole purchase journey through the API: cotizar → datos-presupuesto → salesforce → comparar-zonas →
 * insertar-domicilio → validar-forma-cobro → solicitar → emitir-async → estado (polled).
 * @param pago `{ methodPayment: 'TC', numberPaymentCard }` or `{ methodPayment: 'CBU', numberCBU }`
 * @param opts.esperar false to return right after emitir-async (state PENDIENTE) instead of polling
 * @returns the ids created and the final state
 */
export async function recorrerJourney(app: FastifyInstance, pago: Record<string, string>, opts: { esperar?: boolean } = {}) {
  const csrf = await getCsrf(app);
  const cot = await post(app, '/api/cotizacion/cotizar', cotizarBody(), csrf);
  expect(cot.statusCode).toBe(200);
  const { refId } = cot.json();
  const presupuesto = await post(app, '/api/cotizacion/datos-presupuesto', { refId, codPlan: 'INTERMEDIO', coberturasOpcionales: ['502'] }, csrf);
  expect(presupuesto.statusCode).toBe(200);
  const sf = await post(app, '/api/salesforce/insertar-datos', { refId, ...persona() }, csrf);
  expect(sf.statusCode).toBe(200);
  const zonas = await post(app, '/api/domicilio/comparar-zonas', { refId, codLocation: '06434010' }, csrf);
  expect(zonas.json()).toMatchObject({ mismaZona: true });
  const dom = await post(app, '/api/domicilio/insertar-domicilio', { refId, ...domicilio() }, csrf);
  expect(dom.statusCode).toBe(200);
  const tarjeta = pago.methodPayment === 'TC' ? { namePaymentCard: 'ANA PEREZ', expirationPaymentCard: `12/${String(Number(hoy().slice(2, 4)) + 3)}` } : {};
  const forma = await post(app, '/api/pagos/validar-forma-cobro', { refId, ...pago, ...tarjeta }, csrf);
  expect(forma.statusCode).toBe(200);
  expect(forma.json().valido).toBe(true);
  const medioPagoId = forma.json().medioPago.id;
  const sol = await post(app, '/api/emision/solicitar', {
    refId, codPlan: 'INTERMEDIO', coberturasOpcionales: ['502'], medioPagoId, persona: persona(), domicilio: domicilio(),
  }, csrf);
  expect(sol.statusCode).toBe(200);
  const { numeroSolicitud, premio } = sol.json();
  expect(premio).toBe(presupuesto.json().premio);
  const emitir = await post(app, '/api/emision/emitir-async', { numeroSolicitud }, csrf);
  expect(emitir.statusCode).toBe(202);
  expect(emitir.json()).toEqual({ numeroSolicitud, estado: 'PENDIENTE' });
  const estado = opts.esperar === false ? emitir.json() : await esperarEstado(app, numeroSolicitud);
  return { refId, numeroSolicitud, medioPagoId, premio, estado, csrf };
}
