/**
 * The worked examples of docs/flow-format.md › "Ejemplos resueltos", applied as a staffer makes them — JSON
 * edits to a copy of the tree (tests/fixtures/flow-edits/<example>.json) — then checked with the product checker and
 * bought end to end against the API served over the copy (SCHEMAS_DIR / TARIFF_FILE). Each example's "olvido"
 * (the same edit with the second place forgotten) must be refused by the checker, naming both files.
 * Also: a quote resumed from the e-mailed link is priced to the cent like the original, for a flow with an added
 * priced question (one rating-input builder: server/src/domain/rating/entrada.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProduct } from '../../scripts/flow-check.ts';
import { checkProduct } from '../../tools/check/project.ts';
import { hoyArgentina, sumarAnios, sumarDias } from '../src/domain/validation/fechas.ts';
import { buildTestApp, copiaEditada, cotizarBody, getCsrf, persona, post, prepararCompra, recorrerJourney, TARJETA_OK } from './helper.ts';

const TARIFA = 'server/tariffs/2026-11.json';
const DIR = 'tests/fixtures/flow-edits';

interface Pedido {
  cotizar?: Record<string, unknown>;
  persona?: Record<string, unknown>;
}
interface Ejemplo {
  description: string;
  edits: Record<string, never[]>;
  compra: Pedido & { rechazada?: Pedido & { campo: string; mensaje?: string } };
  olvido: { description: string; edits: Record<string, never[]>; error: { file: string; pointer: string; nombra: string } };
}

const leer = (name: string) => JSON.parse(readFileSync(join(DIR, `${name}.json`), 'utf8')) as Ejemplo;

/** The fixture's request overrides as sent: `diasDesdeHoy` → initPolicyDate, `edad` → birthDate, null → not sent. */
function cuerpo(p: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p)) {
    if (k === 'diasDesdeHoy') out.initPolicyDate = sumarDias(hoyArgentina(), v as number);
    else if (k === 'edad') out.birthDate = sumarAnios(hoyArgentina(), -(v as number));
    else out[k] = v === null ? undefined : v;
  }
  return out;
}

const apps: FastifyInstance[] = [];
async function appSobre(root: string): Promise<FastifyInstance> {
  const app = await buildTestApp({ schemasDir: join(root, 'schemas'), tariffFile: join(root, TARIFA) });
  apps.push(app);
  return app;
}
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

const errores = (root: string) => checkProduct(loadProduct(root)).problems.filter((p) => (p.severity ?? 'error') === 'error');

const EJEMPLOS = ['edad-minima-21', 'uso-alquiler-temporario', 'vigencia-60-dias', 'metros-minimo-10', 'contacto-despues-del-precio'];

describe.each(EJEMPLOS)('ejemplo resuelto %s', (name) => {
  const ejemplo = leer(name);

  it('passes the checker, and its "olvido" is refused naming both files', () => {
    expect(errores(copiaEditada(ejemplo.edits))).toEqual([]);
    const olvido = errores(copiaEditada(ejemplo.olvido.edits));
    const { file, pointer, nombra } = ejemplo.olvido.error;
    expect(olvido.map((p) => `${p.file}#${p.pointer}`)).toContain(`${file}#${pointer}`);
    expect(olvido.find((p) => p.file === file && p.pointer === pointer)?.message).toContain(nombra);
  });

  it('is bought end to end against the API over the edited copy', { timeout: 120_000 }, async () => {
    const app = await appSobre(copiaEditada(ejemplo.edits));
    const { estado, refId, premio } = await recorrerJourney(
      app,
      { methodPayment: 'TC', numberPaymentCard: TARJETA_OK },
      {
        cotizar: cuerpo(ejemplo.compra.cotizar),
        persona: cuerpo(ejemplo.compra.persona),
      },
    );
    expect(estado).toMatchObject({ estado: 'EMITIDA' });
    expect(premio).toBeGreaterThan(0);
    const [row] = await app.deps.db.query<{ datos: Record<string, unknown> }>('SELECT datos FROM cotizaciones WHERE ref_id = $1', [refId]);
    for (const [k, v] of Object.entries(cuerpo(ejemplo.compra.cotizar))) expect(row.datos[k]).toEqual(v);
    const r = ejemplo.compra.rechazada;
    if (r?.cotizar) {
      const res = await post(app, '/api/cotizacion/cotizar', cotizarBody(cuerpo(r.cotizar)));
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].field).toBe(r.campo);
      if (r.mensaje) expect(res.json().errors[0].message).toBe(r.mensaje);
    }
    if (r?.persona) {
      const { refId: otra } = (await post(app, '/api/cotizacion/cotizar', cotizarBody(cuerpo(ejemplo.compra.cotizar)))).json();
      const res = await post(app, '/api/salesforce/insertar-datos', { refId: otra, ...persona(cuerpo(r.persona)) });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ field: r.campo, message: r.mensaje }]);
    }
  });
});

describe('what each example changes, as a visitor would notice', () => {
  it('a new usoVivienda prices with its own factor (×1.2, theft ×1.3 on top)', { timeout: 120_000 }, async () => {
    const app = await appSobre(copiaEditada(leer('uso-alquiler-temporario').edits));
    const permanente = (await post(app, '/api/cotizacion/cotizar', cotizarBody())).json();
    const temporario = (await post(app, '/api/cotizacion/cotizar', cotizarBody({ usoVivienda: 'ALQUILER_TEMPORARIO' }))).json();
    const incendio = (b: typeof permanente) =>
      b.planes[0].coberturas.primary.find((c: { codCobertura: string }) => c.codCobertura === '102').primaCobertura;
    const robo = (b: typeof permanente) =>
      b.planes[0].coberturas.primary.find((c: { codCobertura: string }) => c.codCobertura === '103').primaCobertura;
    expect(incendio(temporario)).toBeCloseTo(incendio(permanente) * 1.2, 1);
    expect(robo(temporario)).toBeCloseTo(robo(permanente) * 1.2 * 1.3, 1);
    // the reference list is the step's options: the new one is in it (descriptions: es.json, see catalogos.test.ts)
    const usos = (await app.inject({ method: 'GET', url: '/api/listas/usos-vivienda' })).json();
    expect(usos.map((u: { codigo: string }) => u.codigo)).toEqual(['PERMANENTE', 'TEMPORAL', 'ALQUILER_TEMPORARIO']);
  });

  it(
    'contact after the price: the quote is stored without contact details, and its e-mail is refused in Spanish',
    { timeout: 120_000 },
    async () => {
      const app = await appSobre(copiaEditada(leer('contacto-despues-del-precio').edits));
      const csrf = await getCsrf(app);
      const cot = await post(
        app,
        '/api/cotizacion/cotizar',
        cotizarBody({ email: undefined, areaCod: undefined, phoneNumber: undefined }),
        csrf,
      );
      expect(cot.statusCode).toBe(200);
      const [row] = await app.deps.db.query<{ email: string | null; phone: string | null }>(
        'SELECT email, phone_number AS phone FROM cotizaciones WHERE ref_id = $1',
        [cot.json().refId],
      );
      expect(row).toEqual({ email: null, phone: null });
      // a phone is both parts or none (the request schema's dependencies), never half
      const medio = await post(app, '/api/cotizacion/cotizar', cotizarBody({ email: undefined, phoneNumber: undefined }), csrf);
      expect(medio.json().errors).toEqual([{ field: '/phoneNumber', message: 'Este dato es obligatorio.' }]);
      const enviar = await post(app, '/api/cotizacion/enviar', { refId: cot.json().refId, respuestas: {}, versionFlujo: 2 }, csrf);
      expect(enviar.statusCode).toBe(409);
      expect(enviar.json().message).toBe('Para mandarte la cotización necesitamos tu e-mail: completalo en el paso de contacto.');
    },
  );

  it(
    'cover from today (x-diasDesdeHoy.min 0): quoted and bought today — no route keeps its own start-date rule',
    { timeout: 120_000 },
    async () => {
      const app = await appSobre(
        copiaEditada({
          'schemas/vigencia.schema.json': [{ op: 'replace', path: '/properties/initPolicyDate/x-diasDesdeHoy/min', value: 0 }],
        }),
      );
      const { estado } = await recorrerJourney(
        app,
        { methodPayment: 'TC', numberPaymentCard: TARJETA_OK },
        { cotizar: { initPolicyDate: hoyArgentina() } },
      );
      expect(estado).toMatchObject({ estado: 'EMITIDA', vigenciaDesde: hoyArgentina() });
    },
  );

  it("a start date the schema no longer allows is refused at purchase with the schema's message", { timeout: 120_000 }, async () => {
    const app = await appSobre(copiaEditada({}));
    const { csrf, refId, solicitar } = await prepararCompra(app, { methodPayment: 'TC', numberPaymentCard: TARJETA_OK });
    // the quote was made for a week ahead; today it is a date already past
    const ayer = sumarDias(hoyArgentina(), -1);
    await app.deps.db.query(
      `UPDATE cotizaciones SET datos = jsonb_set(datos::jsonb, '{initPolicyDate}', to_jsonb($2::text))::json, init_policy_date = $2::date WHERE ref_id = $1`,
      [refId, ayer],
    );
    const res = await post(app, '/api/emision/solicitar', solicitar, csrf);
    const ar = (iso: string) => iso.split('-').reverse().join('/');
    const msg = `La cobertura tiene que empezar entre el ${ar(sumarDias(hoyArgentina(), 1))} y el ${ar(sumarDias(hoyArgentina(), 30))}.`;
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'CONFLICTO',
      message: `${msg} Volvé a cotizar para cambiarlo.`,
      errors: [{ field: '/initPolicyDate', message: msg }],
    });
  });
});

describe('a resumed quote is priced like the original, to the cent, with an added priced question', () => {
  it(
    'agregar-alarma: cotizar with tieneAlarma S → e-mail link → retomar: same premio per plan; plan choice prices the same',
    { timeout: 120_000 },
    async () => {
      const app = await appSobre(copiaEditada(leer('agregar-alarma').edits));
      const csrf = await getCsrf(app);
      const cot = (await post(app, '/api/cotizacion/cotizar', cotizarBody({ tieneAlarma: 'S' }), csrf)).json();
      const sinAlarma = (await post(app, '/api/cotizacion/cotizar', cotizarBody({ tieneAlarma: 'N' }), csrf)).json();
      expect(cot.planes[0].premio).toBeLessThan(sinAlarma.planes[0].premio); // the question moves the price
      const env = await post(
        app,
        '/api/cotizacion/enviar',
        { refId: cot.refId, respuestas: { alarma: { tieneAlarma: 'S' } }, versionFlujo: 2 },
        csrf,
      );
      expect(env.statusCode).toBe(200);
      const [mail] = await app.deps.db.query<{ texto: string }>(
        "SELECT texto FROM correos WHERE tipo = 'COTIZACION' ORDER BY creado_en DESC LIMIT 1",
      );
      const token = /\?retomar=([A-Za-z0-9_.-]+)/.exec(mail.texto)?.[1];
      expect(token).toBeTruthy();
      const otro = await getCsrf(app);
      const ret = await post(app, '/api/cotizacion/retomar', { token }, otro);
      expect(ret.statusCode).toBe(200);
      const r = ret.json();
      expect(r.tarifaCambiada).toBe(false);
      expect(r.cotizacion.planes.map((p: { premio: number }) => p.premio)).toEqual(cot.planes.map((p: { premio: number }) => p.premio));
      expect(r.cotizacion.planes).toEqual(cot.planes);
      const original = (
        await post(
          app,
          '/api/cotizacion/datos-presupuesto',
          { refId: cot.refId, codPlan: 'INTERMEDIO', coberturasOpcionales: ['502'] },
          csrf,
        )
      ).json();
      const retomada = (
        await post(
          app,
          '/api/cotizacion/datos-presupuesto',
          { refId: r.cotizacion.refId, codPlan: 'INTERMEDIO', coberturasOpcionales: ['502'] },
          otro,
        )
      ).json();
      expect(retomada.premio).toBe(original.premio);
    },
  );
});
