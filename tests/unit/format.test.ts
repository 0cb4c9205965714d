import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCurrency } from '../../src/form/format';

const intl = new Intl.NumberFormat('es-AR', { style: 'currency', currency: 'ARS', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const viaIntl = (n: number) => intl.format(n).replace(/\u00a0/g, ' ');

describe('formatCurrency (es-AR, SPEC: premium in es-AR currency format)', () => {
  it('writes pesos with thousands dots and decimal comma', () => {
    expect(formatCurrency(15234.5)).toBe('$ 15.234,50');
    expect(formatCurrency(0)).toBe('$ 0,00');
    expect(formatCurrency(999.999)).toBe('$ 1.000,00');
    expect(formatCurrency(1234567.891)).toBe('$ 1.234.567,89');
    expect(formatCurrency(-1.5)).toBe('-$ 1,50');
  });

  it('says nothing for what is not an amount', () => {
    for (const v of [undefined, null, '15', Number.NaN, Number.POSITIVE_INFINITY, {}]) expect(formatCurrency(v)).toBe('');
  });

  it('matches Intl.NumberFormat es-AR for any amount a premium or a sum insured can be', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -1e12, max: 1e12 }).map((c) => c / 100), fc.double({ min: -1e13, max: 1e13, noNaN: true })), (n) => {
        // Intl writes "-$ 0,00" for a negative amount that rounds to zero; we write "$ 0,00"
        expect(formatCurrency(n)).toBe(Math.abs(n) < 0.005 ? viaIntl(Math.abs(n)) : viaIntl(n));
      }),
      { numRuns: 5000 },
    );
  });
});
