/**
 * Test helpers: `buildTestApp()` (in-memory PGlite unless a db is given, real engine, no mocks), the CSRF dance,
 * valid request bodies, and a response-schema checker over the wire schemas (schemas/api).
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { build, type BuildOptions } from '../src/app.ts';
import { createAjv } from '../src/plugins/schemas.ts';
import { hoyArgentina, sumarDias } from '../src/domain/validation/fechas.ts';

/** Builds the app for a test file: in-memory PGlite, fast emission (50 ms, worker polling every 20 ms), no logger. */
export function buildTestApp(opts: BuildOptions = {}): Promise<FastifyInstance> {
  return build({ emisionDelayMs: 50, emisionPollMs: 20, shutdownTimeoutMs: 200, ...opts });
}

export interface Csrf {
  token: string;
  cookie: string;
}

/**
 * A new visitor: GET /api/set-csrf → the CSRF token and the cookie header to send back (every cookie the API set
 * except the readable XSRF-TOKEN copy: the `_csrf` secret and the visitor's session cookie).
 */
export async function getCsrf(app: FastifyInstance, remoteAddress?: string): Promise<Csrf> {
  const res = await app.inject({ method: 'GET', url: '/api/set-csrf', ...(remoteAddress ? { remoteAddress } : {}) });
  const secret = res.cookies.find((c) => c.name === '_csrf');
  if (!secret) throw new Error('set-csrf no devolvió la cookie _csrf');
  const cookie = res.cookies
    .filter((c) => c.name !== 'XSRF-TOKEN')
    .map((c) => `${c.name}=${c.value}`)
    .join('; ');
  return { token: res.json().csrfToken, cookie };
}

const visitantes = new WeakMap<FastifyInstance, Promise<Csrf>>();

/** The app's default visitor (one session), used by `post`/`get` when no visitor is given. */
export function visitante(app: FastifyInstance): Promise<Csrf> {
  let v = visitantes.get(app);
  if (!v) {
    v = getCsrf(app);
    visitantes.set(app, v);
  }
  return v;
}

/** POST as a visitor (the app's default visitor unless one is given), with optional extra headers. */
export async function post(
  app: FastifyInstance,
  url: string,
  body: unknown,
  csrf?: Csrf,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const c = csrf ?? (await visitante(app));
  return app.inject({ method: 'POST', url, payload: body as object, headers: { 'x-xsrf-token': c.token, cookie: c.cookie, ...headers } });
}

/** GET as a visitor (the app's default visitor unless one is given). */
export async function get(app: FastifyInstance, url: string, csrf?: Csrf): Promise<LightMyRequestResponse> {
  const c = csrf ?? (await visitante(app));
  return app.inject({ method: 'GET', url, headers: { cookie: c.cookie } });
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
    consentimientoDatos: true,
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

/** Polls GET /api/emision/estado/:n as `csrf`'s visitor until it leaves PENDIENTE (or `timeoutMs` passes). */
export async function esperarEstado(
  app: FastifyInstance,
  numeroSolicitud: string,
  csrf?: Csrf,
  timeoutMs = 5000,
): Promise<Record<string, unknown>> {
  const start = Date.now();
  for (;;) {
    const res = await get(app, `/api/emision/estado/${numeroSolicitud}`, csrf);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    if (body.estado !== 'PENDIENTE' || Date.now() - start > timeoutMs) return body;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * The purchase journey up to (not including) solicitar, as one new visitor: cotizar → datos-presupuesto → salesforce →
 * comparar-zonas → insertar-domicilio → validar-forma-cobro.
 * @param pago `{ methodPayment: 'TC', numberPaymentCard }` or `{ methodPayment: 'CBU', numberCBU }`
 * @param opts plan and optional coverages chosen (default INTERMEDIO with 502); overrides of the cotizar body and the
 *   buyer (`cotizarBody`, `persona`; a key set to undefined is not sent)
 * @returns the visitor, the ids created, the premio of datos-presupuesto and the body to send to solicitar
 */
export async function prepararCompra(
  app: FastifyInstance,
  pago: Record<string, string>,
  opts: { codPlan?: string; opcionales?: string[]; cotizar?: Record<string, unknown>; persona?: Record<string, unknown> } = {},
) {
  const codPlan = opts.codPlan ?? 'INTERMEDIO';
  const opcionales = opts.opcionales ?? ['502'];
  const csrf = await getCsrf(app);
  const cot = await post(app, '/api/cotizacion/cotizar', cotizarBody(opts.cotizar), csrf);
  expect(cot.statusCode).toBe(200);
  const { refId } = cot.json();
  const presupuesto = await post(app, '/api/cotizacion/datos-presupuesto', { refId, codPlan, coberturasOpcionales: opcionales }, csrf);
  expect(presupuesto.statusCode).toBe(200);
  const sf = await post(app, '/api/salesforce/insertar-datos', { refId, ...persona(opts.persona) }, csrf);
  expect(sf.statusCode).toBe(200);
  const zonas = await post(app, '/api/domicilio/comparar-zonas', { refId, codLocation: '06434010' }, csrf);
  expect(zonas.json()).toMatchObject({ mismaZona: true });
  const dom = await post(app, '/api/domicilio/insertar-domicilio', { refId, ...domicilio() }, csrf);
  expect(dom.statusCode).toBe(200);
  const tarjeta =
    pago.methodPayment === 'TC'
      ? { namePaymentCard: 'ANA PEREZ', expirationPaymentCard: `12/${String(Number(hoy().slice(2, 4)) + 3)}` }
      : {};
  const forma = await post(app, '/api/pagos/validar-forma-cobro', { refId, ...pago, ...tarjeta }, csrf);
  expect(forma.statusCode).toBe(200);
  expect(forma.json().valido).toBe(true);
  const medioPagoId: string = forma.json().medioPago.id;
  const solicitar = {
    refId,
    codPlan,
    coberturasOpcionales: opcionales,
    medioPagoId,
    persona: persona(opts.persona),
    domicilio: domicilio(),
  };
  return { csrf, refId: refId as string, medioPagoId, premio: presupuesto.json().premio as number, solicitar };
}

/**
 * The whole purchase journey through the API as one new visitor: {@link prepararCompra} → solicitar → emitir-async →
 * estado (polled).
 * @param pago `{ methodPayment: 'TC', numberPaymentCard }` or `{ methodPayment: 'CBU', numberCBU }`
 * @param opts.esperar false to return right after emitir-async (state PENDIENTE) instead of polling; plan as in prepararCompra
 * @returns the ids created, the final state and the visitor
 */
export async function recorrerJourney(
  app: FastifyInstance,
  pago: Record<string, string>,
  opts: {
    esperar?: boolean;
    codPlan?: string;
    opcionales?: string[];
    cotizar?: Record<string, unknown>;
    persona?: Record<string, unknown>;
  } = {},
) {
  const { csrf, refId, medioPagoId, premio: premioPresupuesto, solicitar } = await prepararCompra(app, pago, opts);
  const sol = await post(app, '/api/emision/solicitar', solicitar, csrf);
  expect(sol.statusCode).toBe(200);
  const { numeroSolicitud, premio } = sol.json();
  expect(premio).toBe(premioPresupuesto);
  const emitir = await post(app, '/api/emision/emitir-async', { numeroSolicitud }, csrf);
  expect(emitir.statusCode).toBe(202);
  expect(emitir.json()).toEqual({ numeroSolicitud, estado: 'PENDIENTE' });
  const estado = opts.esperar === false ? emitir.json() : await esperarEstado(app, numeroSolicitud, csrf);
  return { refId, numeroSolicitud: numeroSolicitud as string, medioPagoId, premio, estado, csrf };
}

/** A temporary copy of the product with RFC 6902 patches applied per file (tests/support/edited-tree.ts). */
export { editedCopy as copiaEditada } from '../../tests/support/edited-tree.ts';
