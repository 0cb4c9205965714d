/**
 * One source for every rule. The API runs over an edited COPY of the product (SCHEMAS_DIR /
 * TARIFF_FILE → build options schemasDir / tariffFile), so a JSON edit of a step schema, a wire schema or the tariff
 * changes what the API accepts and how it prices — no .ts change.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.ts';
import { createAjv, SCHEMAS_DIR } from '../src/plugins/schemas.ts';
import { buildTestApp, copiaEditada, cotizarBody, expectError, post, recorrerJourney, TARJETA_OK } from './helper.ts';
import { NODE_DE_PRUEBA } from './processes.ts';

const TARIFA = 'server/tariffs/2026-11.json';
const alarma = JSON.parse(readFileSync('tests/fixtures/flow-edits/agregar-alarma.json', 'utf8'));
const apps: FastifyInstance[] = [];
async function appSobre(root: string): Promise<FastifyInstance> {
  const app = await buildTestApp({ schemasDir: join(root, 'schemas'), tariffFile: join(root, TARIFA) });
  apps.push(app);
  return app;
}
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

/** premio of each plan of a cotizar answer, by code. */
const premios = (body: { planes: { codPlan: string; premio: number }[] }) =>
  Object.fromEntries(body.planes.map((p) => [p.codPlan, p.premio]));

describe('wire schemas reuse the step schemas', () => {
  it('every $ref of the wire schemas resolves (step pointers included)', () => {
    const ajv = createAjv();
    const refs = new Set<string>();
    const walk = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') refs.add(v);
        else walk(v);
      }
    };
    for (const f of readdirSync(join(SCHEMAS_DIR, 'api')).filter((n) => n.endsWith('.json')))
      walk(JSON.parse(readFileSync(join(SCHEMAS_DIR, 'api', f), 'utf8')));
    const aPasos = [...refs].filter((r) => r.includes('.schema.json'));
    expect(aPasos.length).toBeGreaterThan(20);
    const rotos = [...refs].filter((r) => {
      try {
        return !ajv.getSchema(r);
      } catch {
        return true;
      }
    });
    expect(rotos).toEqual([]);
  });

  it('a bound edited in the step schema is the bound the API applies (metros max 1000 → 500)', async () => {
    const root = copiaEditada({ 'schemas/metros.schema.json': [{ op: 'replace', path: '/properties/metros/maximum', value: 500 }] });
    const app = await appSobre(root);
    expect((await post(app, '/api/cotizacion/cotizar', cotizarBody({ metros: 500 }))).statusCode).toBe(200);
    const res = await post(app, '/api/cotizacion/cotizar', cotizarBody({ metros: 600 }));
    expect(res.json().errors).toEqual([{ field: '/metros', message: 'Ingresá un número entre 20 y 500.' }]);
  });

  it('a DEPARTAMENTO is quoted without barrioCerrado (the step asks it only for a CASA)', async () => {
    const app = await appSobre(copiaEditada({}));
    const res = await post(app, '/api/cotizacion/cotizar', cotizarBody({ tipoVivienda: 'DEPARTAMENTO', barrioCerrado: undefined }));
    expect(res.statusCode).toBe(200);
  });
});

describe('SCHEMAS_DIR and TARIFF_FILE', () => {
  it('are read by the config (defaults: the repository files)', () => {
    expect(readConfig({}, '/repo')).toMatchObject({ schemasDir: '/repo/schemas', tariffFile: '/repo/server/tariffs/2026-11.json' });
    expect(readConfig({ SCHEMAS_DIR: '/tmp/x/schemas', TARIFF_FILE: '/tmp/x/t.json' }, '/repo')).toMatchObject({
      schemasDir: '/tmp/x/schemas',
      tariffFile: '/tmp/x/t.json',
    });
  });
});

describe('plan codes come from the tariff', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    const tarifa = JSON.parse(readFileSync(TARIFA, 'utf8'));
    const premium = {
      ...structuredClone(tarifa.planes.INTEGRAL),
      nombre: 'Premium',
      descripcion: 'Todo, con más suma asegurada.',
      recomendado: false,
    };
    premium.coberturas['101'] = { porcentaje: 1.2 };
    app = await appSobre(copiaEditada({ [TARIFA]: [{ op: 'add', path: '/planes/PREMIUM', value: premium }] }));
  });

  it('a 4th plan added to the tariff is quoted, chosen and bought end to end', async () => {
    const cot = await post(app, '/api/cotizacion/cotizar', cotizarBody());
    expect(cot.json().planes.map((p: { codPlan: string }) => p.codPlan)).toEqual(['BASICO', 'INTERMEDIO', 'INTEGRAL', 'PREMIUM']);
    const p = premios(cot.json());
    expect(p.PREMIUM).toBeGreaterThan(p.INTEGRAL);
    const { estado, premio } = await recorrerJourney(
      app,
      { methodPayment: 'TC', numberPaymentCard: TARJETA_OK },
      { codPlan: 'PREMIUM', opcionales: ['501'] },
    );
    expect(estado).toMatchObject({ estado: 'EMITIDA' });
    expect(premio).toBeGreaterThan(p.PREMIUM);
  });

  it('an unknown plan code → 400 with a Spanish message', async () => {
    const { refId } = (await post(app, '/api/cotizacion/cotizar', cotizarBody())).json();
    const res = await post(app, '/api/cotizacion/datos-presupuesto', { refId, codPlan: 'ORO', coberturasOpcionales: [] });
    expectError(res, 400, 'VALIDACION', 'Revisá los datos ingresados.');
    expect(res.json().errors).toEqual([{ field: '/codPlan', message: 'Elegí un plan válido.' }]);
  });
});

describe('worked example "agregar-alarma": a new question with a price effect, JSON edits only', () => {
  let root: string;
  let app: FastifyInstance;
  let hoy: FastifyInstance;
  beforeAll(async () => {
    root = copiaEditada(alarma.edits);
    app = await appSobre(root);
    hoy = await appSobre(copiaEditada({}));
  });

  it('passes flow:check on the edited copy', () => {
    const out = execFileSync(process.execPath, [...NODE_DE_PRUEBA, 'scripts/flow-check.ts', '--root', root], { encoding: 'utf8' });
    expect(out).toMatch(/flujo válido: 17 pasos, 0 errores/);
  });

  it('with an alarm the theft coverages are 15 % cheaper; without the field it prices as today', async () => {
    const con = await post(app, '/api/cotizacion/cotizar', cotizarBody({ tieneAlarma: 'S' }));
    const sin = await post(app, '/api/cotizacion/cotizar', cotizarBody({ tieneAlarma: 'N' }));
    const omitida = await post(app, '/api/cotizacion/cotizar', cotizarBody());
    const actual = await post(hoy, '/api/cotizacion/cotizar', cotizarBody());
    for (const r of [con, sin, omitida, actual]) expect(r.statusCode).toBe(200);
    const [pc, ps, po, pa] = [con, sin, omitida, actual].map((r) => premios(r.json()));
    for (const plan of Object.keys(pa)) expect(pc[plan]).toBeLessThan(ps[plan]);
    expect(ps).toEqual(pa);
    expect(po).toEqual(pa);
    const robo = (r: typeof con) =>
      r.json().planes[0].coberturas.primary.find((c: { grupo: string }) => c.grupo === 'theft').primaCobertura;
    expect(robo(con)).toBeCloseTo(robo(sin) * 0.85, 1);
  });

  it('the answer is validated by the step schema and stored with the quote', async () => {
    expect((await post(app, '/api/cotizacion/cotizar', cotizarBody({ tieneAlarma: 'X' }))).json().errors).toEqual([
      { field: '/tieneAlarma', message: 'Elegí una de estas opciones: S, N.' },
    ]);
    const { refId } = (await post(app, '/api/cotizacion/cotizar', cotizarBody({ tieneAlarma: 'S' }))).json();
    const [row] = await app.deps.db.query<{ datos: Record<string, unknown> }>('SELECT datos FROM cotizaciones WHERE ref_id = $1', [refId]);
    expect(row.datos).toMatchObject({ tieneAlarma: 'S', metros: 80 });
    // the choice of plan is re-priced with the alarm (the stored answers feed the rating)
    const { premio } = (
      await post(app, '/api/cotizacion/datos-presupuesto', { refId, codPlan: 'BASICO', coberturasOpcionales: [] })
    ).json();
    const sin = (await post(app, '/api/cotizacion/cotizar', cotizarBody({ tieneAlarma: 'N' }))).json();
    expect(premio).toBeLessThan(premios(sin).BASICO);
  });

  it('the repository API still rejects the field (the edit lives in the copy only)', async () => {
    expect((await post(hoy, '/api/cotizacion/cotizar', cotizarBody({ tieneAlarma: 'S' }))).json().errors).toEqual([
      { field: '/tieneAlarma', message: 'Este dato no corresponde a este pedido.' },
    ]);
  });
});
