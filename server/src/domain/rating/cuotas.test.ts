/**
 * Installments add up to the premio to the cent: for every plan of every shipped journey fixture's quote
 * (tests/fixtures/journeys/*.json — the answers a visitor gave, rated by the engine with the real tariff and lists),
 * with no optional and with every optional of the plan, (cuotas − 1) × premioCuota + ultimaCuota = premio, the
 * last installment is at most 11 cents lower than the others and never higher, and each add-on's "impuestos
 * incluidos" monthly amount is what the installment goes up by when it is chosen.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLists } from '../listas/index.ts';
import { cuotasDe, rateAll, ratePlan, resolveZone, type RatingInput } from './engine.ts';
import { loadTariff } from './tariff.ts';

const tariff = loadTariff(join(import.meta.dirname, '../../../tariffs/2026-11.json'));
const lists = loadLists(join(import.meta.dirname, '../../../data/ar'));
const DIR = join(import.meta.dirname, '../../../../tests/fixtures/journeys');
const cents = (n: number) => Math.round(n * 100);

interface Paso {
  route: string;
  answers?: Record<string, unknown>;
}
/** The rating input of a fixture (null when the journey never gets a quote). */
function entrada(pasos: Paso[]): RatingInput | null {
  const a = (ruta: string) => pasos.find((p) => p.route === `seguro-hogar/${ruta}`)?.answers;
  const [prop, perm, met, loc] = [a('propiedad'), a('permanencia'), a('metros'), a('localidad')];
  if (!prop || !perm || !met || !loc) return null;
  const l = lists.localidadesPorId.get(String(loc.codLocalidad));
  if (!l) throw new Error(`Localidad ${String(loc.codLocalidad)} inexistente`);
  return { ...prop, ...perm, metros: Number(met.metros), zona: resolveZone(tariff, l), provinciaId: l.provinciaId };
}

const fixtures = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ f, input: entrada((JSON.parse(readFileSync(join(DIR, f), 'utf8')) as { steps: Paso[] }).steps) }));

describe('cuotas × cuota = premio, to the cent', () => {
  it('the rule: 147.816,81 → 11 cuotas de 12.318,07 y una de 12.318,04; a premio divisible by 12 → 12 equal cuotas', () => {
    expect(cuotasDe(14_781_681)).toEqual({ cuota: 1_231_807, ultima: 1_231_804 });
    expect(cuotasDe(1_200_000)).toEqual({ cuota: 100_000, ultima: 100_000 });
    expect(cuotasDe(1_200_011)).toEqual({ cuota: 100_001, ultima: 100_000 });
  });

  it('the shipped fixtures quote something (at least 10 of them)', () => {
    expect(fixtures.filter((x) => x.input).length).toBeGreaterThanOrEqual(10);
  });

  for (const { f, input } of fixtures) {
    if (!input) continue;
    it(`${f}: every plan, without and with every optional`, () => {
      for (const plan of rateAll(tariff, input).planes) {
        const todas = plan.coberturas.optional.map((c) => c.codCobertura);
        for (const p of [plan, ratePlan(tariff, input, plan.codPlan, todas)]) {
          expect(p.cuotas).toBe(12);
          expect((p.cuotas - 1) * cents(p.premioCuota) + cents(p.ultimaCuota), `${p.codPlan}`).toBe(cents(p.premio));
          expect(cents(p.premioCuota) - cents(p.ultimaCuota)).toBeGreaterThanOrEqual(0);
          expect(cents(p.premioCuota) - cents(p.ultimaCuota)).toBeLessThanOrEqual(11);
        }
        for (const c of plan.coberturas.optional) {
          const con = ratePlan(tariff, input, plan.codPlan, [c.codCobertura]);
          expect(cents(con.premioCuota) - cents(plan.premioCuota), `${plan.codPlan} + ${c.codCobertura}`).toBe(
            cents(c.premioCuotaAdicional ?? NaN),
          );
          // with taxes: more than the bare prima (IVA 21 % + tasa SSN + sellos)
          expect(c.premioCuotaAdicional).toBeGreaterThan(c.primaCobertura * 1.2);
        }
      }
    });
  }
});
