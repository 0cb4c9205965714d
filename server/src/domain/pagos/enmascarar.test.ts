/**
 * Payment numbers are masked after Unicode normalisation (NFKC: full-width, circled… digits and
 * separators) and inside JSON object keys — in free text, in free-form JSON the API stores, and in log lines.
 */
import { describe, expect, it } from 'vitest';
import { enmascararEnJson } from '../../app.ts';
import { validarJsonLibre } from '../../plugins/input-guard.ts';
import { enmascararClaves, enmascararNumerosDePago } from './enmascarar.ts';

describe('NFKC', () => {
  it.each([
    ['４２４２４２４２４２４２４２４２', '••••4242'], // full-width digits
    ['tarjeta ４２４２－４２４２－４２４２－４２４２ ok', 'tarjeta ••••4242 ok'], // full-width digits and hyphens
    ['４２４２\u30004242\u3000４２４２\u30004242', '••••4242'], // mixed widths, ideographic spaces
    ['CBU ２８５０５９０９０９４００９０４１８１３５６', 'CBU ••••1356'],
    ['Piso 2º, pagué con ４２４２４２４２４２４２４２４２ — gracias', 'Piso 2º, pagué con ••••4242 — gracias'], // the rest keeps its characters
    ['④②④②424242424242', '••••4242'], // circled digits (NFKC → 4 2 4 2) + 12 ASCII digits
    ['𝟒𝟐𝟒𝟐 ⁴²⁴² 4242 4242', '••••4242'], // mathematical bold and superscript digits
  ])('%s → %s', (texto, esperado) => {
    expect(enmascararNumerosDePago(texto)).toBe(esperado);
  });

  it('non-ASCII text without a payment number stays as it is', () => {
    for (const texto of [
      'Teléfono ＋54 11 5555-1234',
      'Nº ２０２６－１２－０１',
      'HOG-２０２６-000123',
      'Ａｖ. Ｓａｎ Ｍａｒｔíｎ ４５００',
    ]) {
      expect(enmascararNumerosDePago(texto)).toBe(texto);
    }
  });
});

describe('JSON object keys', () => {
  it('enmascararClaves masks card and CBU keys in place, keeping values and order', () => {
    const obj: Record<string, unknown> = { a: 1, '4242 4242 4242 4242': 'x', '2850590909400904181356': { b: 2 }, z: 3 };
    expect(enmascararClaves(obj)).toBe(true);
    expect(JSON.stringify(obj)).toBe('{"a":1,"••••4242":"x","••••1356":{"b":2},"z":3}');
    const igual = { a: 1, '2026-12-01': 2 };
    expect(enmascararClaves(igual)).toBe(false);
    expect(JSON.stringify(igual)).toBe('{"a":1,"2026-12-01":2}');
  });

  it('two keys that mask alike both survive; a "__proto__" key stays an own key', () => {
    const obj = JSON.parse('{"4242424242424242":1,"4242 4242 4242 4242":2,"__proto__":{"x":1}}');
    enmascararClaves(obj);
    expect(Object.keys(obj)).toEqual(['••••4242', '••••4242 (2)', '__proto__']);
    expect(obj['••••4242 (2)']).toBe(2);
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
  });

  it('free-form JSON the API accepts has card and CBU keys masked at every level (also full-width)', () => {
    const libre = { nivel: { '４２４２４２４２４２４２４２４２': 'visa', lista: [{ '2850590909400904181356': 'cbu' }] } };
    expect(validarJsonLibre(libre)).toBe(true);
    expect(JSON.stringify(libre)).toBe('{"nivel":{"••••4242":"visa","lista":[{"••••1356":"cbu"}]}}');
  });
});

describe('log lines', () => {
  it('masks keys, full-width digits and escaped separators inside JSON strings of a log line', () => {
    const linea = JSON.stringify({
      msg: 'pago',
      datos: { '4242424242424242': 1 },
      nota: '４２４２４２４２４２４２４２４２',
      multi: '4242\n4242\n4242\n4242',
      t: 'a\tb',
    });
    expect(enmascararEnJson(linea)).toBe('{"msg":"pago","datos":{"••••4242":1},"nota":"••••4242","multi":"••••4242","t":"a\\tb"}');
  });
});
