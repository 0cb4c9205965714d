import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pesos, pesosEnteros } from './money.ts';

const intl = new Intl.NumberFormat('es-AR', { style: 'currency', currency: 'ARS' });
const intlEnteros = new Intl.NumberFormat('es-AR', { style: 'currency', currency: 'ARS', maximumFractionDigits: 0 });

describe('pesos (es-AR, SPEC: premium in es-AR currency format)', () => {
  it('writes pesos with a no-break space after the sign, thousands dots and decimal comma', () => {
    expect(pesos(15234.5)).toBe('$\u00a015.234,50');
    expect(pesos(0)).toBe('$\u00a00,00');
    expect(pesos(999.999)).toBe('$\u00a01.000,00');
    expect(pesos(1000)).toBe('$\u00a01.000,00');
    expect(pesos(1234567.891)).toBe('$\u00a01.234.567,89');
    expect(pesos(-1.5)).toBe('-$\u00a01,50');
    expect(pesos(1.005)).toBe('$\u00a01,01');
  });

  it('writes whole pesos for sums insured', () => {
    expect(pesosEnteros(45_000_000)).toBe('$\u00a045.000.000');
    expect(pesosEnteros(900)).toBe('$\u00a0900');
    expect(pesosEnteros(2.5)).toBe('$\u00a03');
    expect(pesosEnteros(0.495)).toBe('$\u00a00');
  });

  it('says nothing for what is not an amount', () => {
    for (const v of [undefined, null, '15', Number.NaN, Number.POSITIVE_INFINITY, {}]) {
      expect(pesos(v)).toBe('');
      expect(pesosEnteros(v)).toBe('');
    }
  });

  it('is Intl.NumberFormat es-AR exactly, for any amount a premium or a sum insured can be and beyond', () => {
    const monto = fc.oneof(
      fc.integer({ min: -1e12, max: 1e12 }).map((c) => c / 100),
      fc.double({ min: -1e13, max: 1e13, noNaN: true }),
      fc.constantFrom(-0, 1e-7, -0.004, 1e21, -3.5e22),
    );
    fc.assert(
      fc.property(monto, (n) => {
        expect(pesos(n)).toBe(intl.format(n));
        expect(pesosEnteros(n)).toBe(intlEnteros.format(n));
      }),
      { numRuns: 5000 },
    );
  });
});
