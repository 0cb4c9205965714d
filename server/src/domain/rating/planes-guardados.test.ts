/** Stored plans over the real tariff 2026-11: the skeleton and the texts give back exactly the priced plans. */
import { describe, expect, it } from 'vitest';
import { rateAll, ratePlan } from './engine.ts';
import { esqueletoDe, planesDe, textosDeTarifa } from './planes-guardados.ts';
import { base, tariff } from './tarifa-de-prueba.ts';

/** Through JSON, as the database stores and returns them. */
const guardadosYLeidos = (planes: Parameters<typeof esqueletoDe>[0]) =>
  planesDe(JSON.parse(JSON.stringify(esqueletoDe(planes))), JSON.parse(JSON.stringify(textosDeTarifa(tariff))));

describe('planes guardados', () => {
  it.each([
    ['propietario, casa', base],
    ['inquilino, departamento (sin coberturas de edificio)', { ...base, titularidad: 'INQUILINO', tipoVivienda: 'DEPARTAMENTO' }],
  ])('rateAll (%s): every field of every plan and coverage comes back, in the same lists and order', (_, input) => {
    const { planes } = rateAll(tariff, input);
    expect(guardadosYLeidos(planes)).toStrictEqual(planes);
  });

  it('a plan with chosen optionals (selecc S, premioCuotaAdicional) comes back the same', () => {
    const plan = ratePlan(tariff, base, 'INTEGRAL', Object.keys(tariff.planes.INTEGRAL.opcionales).slice(0, 2));
    expect(plan.coberturas.optional.some((c) => c.selecc === 'S')).toBe(true);
    expect(guardadosYLeidos([plan])).toStrictEqual([plan]);
  });

  it('the skeleton holds no tariff text, and is a fraction of the plans', () => {
    const { planes } = rateAll(tariff, base);
    const esqueleto = JSON.stringify(esqueletoDe(planes));
    for (const p of planes) {
      expect(esqueleto).not.toContain(p.nombre);
      for (const c of Object.values(p.coberturas).flat()) expect(esqueleto).not.toContain(c.textoWeb);
    }
    expect(esqueleto.length).toBeLessThan(JSON.stringify(planes).length / 3);
  });

  it('the fingerprint follows the texts, not the tariff version: an edited text gets another one', () => {
    expect(textosDeTarifa(structuredClone(tariff)).huella).toBe(textosDeTarifa(tariff).huella);
    const editada = structuredClone(tariff);
    editada.coberturas['101'].textoWeb += ' (texto nuevo)';
    expect(editada.version).toBe(tariff.version);
    expect(textosDeTarifa(editada).huella).not.toBe(textosDeTarifa(tariff).huella);
  });

  it('a skeleton whose codes are not in its texts is refused, never shown without its texts', () => {
    const esqueleto = esqueletoDe(rateAll(tariff, base).planes);
    expect(() => planesDe(esqueleto, { planes: {}, coberturas: textosDeTarifa(tariff).coberturas })).toThrow(/plan BASICO/);
  });
});
