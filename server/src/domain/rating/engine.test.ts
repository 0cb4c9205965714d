/** Rating engine over the real tariff 2026-11: determinism, factor directions, totals, optionals, bad input. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RatingError, rateAll, ratePlan, resolveZone, type Plan, type RatingInput } from './engine.ts';
import { base, tariff } from './tarifa-de-prueba.ts';
import { loadTariff } from './tariff.ts';

const premio = (input: Partial<RatingInput>, plan = 'INTERMEDIO', opc: string[] = []) =>
  ratePlan(tariff, { ...base, ...input }, plan, opc).premio;
const cents = (n: number) => Math.round(n * 100);
const todas = (p: Plan) => Object.values(p.coberturas).flat();

describe('resolveZone (INDEC ids)', () => {
  it('CABA and conurbano partidos → Z1; big-city departments → Z2; elsewhere → Z3', () => {
    expect(resolveZone(tariff, { provinciaId: '02', departamentoId: '02007' })).toBe('Z1');
    expect(resolveZone(tariff, { provinciaId: '06', departamentoId: '06434' })).toBe('Z1'); // Lanús
    expect(resolveZone(tariff, { provinciaId: '06', departamentoId: '06441' })).toBe('Z2'); // La Plata
    expect(resolveZone(tariff, { provinciaId: '82', departamentoId: '82084' })).toBe('Z2'); // Rosario
    expect(resolveZone(tariff, { provinciaId: '06', departamentoId: '06007' })).toBe('Z3'); // Adolfo Alsina
  });
  it('Z1 lists the 24 partidos of the conurbano', () => {
    expect(tariff.zonas.Z1.departamentos).toHaveLength(24);
  });
});

describe('ratePlan', () => {
  it('is deterministic', () => {
    expect(ratePlan(tariff, base, 'INTEGRAL', ['501'])).toEqual(ratePlan(tariff, base, 'INTEGRAL', ['501']));
  });

  it('is plausible for an 80 m² home in late 2026 (ARS 8.000–60.000 a month)', () => {
    for (const p of rateAll(tariff, base).planes) {
      expect(p.premioCuota).toBeGreaterThan(8_000);
      expect(p.premioCuota).toBeLessThan(60_000);
    }
  });

  it('totals add up: annual prima = 12 × Σ selected monthly primaCobertura; premio = prima + impuestos; 12 cuotas; taxes ≈ 21.6 % + sellos', () => {
    const p = ratePlan(tariff, base, 'INTEGRAL', ['502', '504']);
    const suma = todas(p)
      .filter((c) => c.selecc === 'S')
      .reduce((s, c) => s + cents(c.primaCobertura), 0);
    expect(cents(p.prima)).toBe(12 * suma);
    expect(cents(p.premio)).toBe(cents(p.prima) + cents(p.impuestos));
    expect(p.cuotas).toBe(12);
    expect(cents(p.premioCuota)).toBe(Math.ceil(cents(p.premio) / 12));
    expect(11 * cents(p.premioCuota) + cents(p.ultimaCuota)).toBe(cents(p.premio));
    expect(p.impuestos / p.prima).toBeCloseTo(0.21 + 0.006 + 0.012, 3); // Buenos Aires sellos 1.2 %
    for (const c of todas(p)) expect(cents(c.primaCobertura)).toBe(c.primaCobertura * 100);
  });

  it('each factor moves the premio the right way', () => {
    const ref = premio({});
    expect(premio({ metros: 120 })).toBeGreaterThan(ref);
    expect(premio({ usoVivienda: 'TEMPORAL' })).toBeGreaterThan(ref);
    expect(premio({ titularidad: 'INQUILINO' })).toBeLessThan(ref);
    expect(premio({ barrioCerrado: 'S' })).toBeLessThan(ref);
    expect(premio({ zona: 'Z2' })).toBeLessThan(ref);
    expect(premio({ zona: 'Z3' })).toBeLessThan(premio({ zona: 'Z2' }));
    expect(premio({ tipoVivienda: 'DEPARTAMENTO' })).toBeLessThan(ref);
    expect(premio({ provinciaId: '02' })).toBeLessThan(ref); // CABA sellos 1 % < Buenos Aires 1.2 %
    expect(premio({}, 'BASICO')).toBeLessThan(ref);
    expect(premio({}, 'INTEGRAL')).toBeGreaterThan(ref);
  });

  it('barrio cerrado only counts for houses', () => {
    expect(premio({ tipoVivienda: 'DEPARTAMENTO', barrioCerrado: 'S' })).toBe(premio({ tipoVivienda: 'DEPARTAMENTO' }));
  });

  it('a tenant insures contents and civil liability, not the building', () => {
    const p = ratePlan(tariff, { ...base, titularidad: 'INQUILINO' }, 'INTERMEDIO');
    const codigos = todas(p).map((c) => c.codCobertura);
    expect(codigos).not.toContain('101');
    expect(codigos).toEqual(expect.arrayContaining(['102', '103', '104']));
  });

  it('optionals add exactly their prima and are marked selecc S', () => {
    const sin = ratePlan(tariff, base, 'BASICO');
    const con = ratePlan(tariff, base, 'BASICO', ['503']);
    const bici = con.coberturas.optional.find((c) => c.codCobertura === '503')!;
    expect(bici).toMatchObject({
      selecc: 'S',
      nomina: 'S',
      grupo: 'bicycles',
      sumaAsegurada: 1_000_000,
      sumaAseguradaString: '$\u00a01.000.000',
    });
    expect(sin.coberturas.optional.find((c) => c.codCobertura === '503')!.selecc).toBe('N');
    expect(cents(con.prima)).toBe(cents(sin.prima) + 12 * cents(bici.primaCobertura));
  });

  it('coverages carry the wire fields, group and a Spanish text', () => {
    const fuego = ratePlan(tariff, base, 'INTERMEDIO').coberturas.primary[0];
    expect(fuego).toEqual({
      codCobertura: '101',
      descCobertura: 'Incendio edificio',
      grupo: 'fire',
      sumaAsegurada: 89_600_000,
      sumaAseguradaString: '$\u00a089.600.000',
      mostrar: 'S',
      textoWeb: expect.stringMatching(/^Cubre .+\.$/),
      nomina: 'N',
      selecc: 'S',
      primaCobertura: 3864,
    });
  });

  it('rejects unknown inputs, plans and optionals with the field and a Spanish message', () => {
    const bad: [Partial<RatingInput>, string][] = [
      [{ tipoVivienda: 'IGLU' as never }, '/tipoVivienda'],
      [{ usoVivienda: 'A_VECES' as never }, '/usoVivienda'],
      [{ titularidad: 'OKUPA' as never }, '/titularidad'],
      [{ barrioCerrado: 'X' as never }, '/barrioCerrado'],
      [{ metros: 19 }, '/metros'],
      [{ metros: 80.5 }, '/metros'],
      [{ zona: 'Z9' }, '/zona'],
    ];
    for (const [input, field] of bad) {
      expect(() => ratePlan(tariff, { ...base, ...input }, 'BASICO')).toThrowError(RatingError);
      try {
        ratePlan(tariff, { ...base, ...input }, 'BASICO');
      } catch (err) {
        expect((err as RatingError).field).toBe(field);
      }
    }
    expect(() => ratePlan(tariff, base, 'PREMIUM')).toThrowError('Elegí un plan válido.');
    expect(() => ratePlan(tariff, base, 'INTEGRAL', ['505'])).toThrowError('La cobertura 505 no está disponible en este plan.');
  });
});

describe('rateAll', () => {
  it('flags inspection when the building fire sum exceeds the tariff threshold', () => {
    expect(rateAll(tariff, base).inspection).toBe(false);
    expect(rateAll(tariff, { ...base, metros: 200 }).inspection).toBe(true);
    expect(rateAll(tariff, { ...base, metros: 200, titularidad: 'INQUILINO' }).inspection).toBe(false);
  });
});

describe('loadTariff', () => {
  it('rejects a tariff whose plan names an unknown coverage', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'tarifa-'));
    const roto = structuredClone(tariff);
    roto.planes.BASICO.coberturas['999'] = { monto: 1 };
    writeFileSync(join(dir, 't.json'), JSON.stringify(roto));
    expect(() => loadTariff(join(dir, 't.json'))).toThrowError(/cobertura desconocida "999"/);
  });
});
