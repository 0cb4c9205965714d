/** Validators: valid and invalid cases with the exact Spanish messages. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLists } from '../listas/index.ts';
import { cbuCheckDigit, MENSAJE_CBU_BANCO, MENSAJE_CBU_CVU, MENSAJE_CBU_INVALIDO, MENSAJE_CBU_LARGO, validarCbu } from './cbu.ts';
import { MENSAJE_CODIGO_POSTAL, MENSAJE_CODIGO_POSTAL_PROVINCIA, validarCodigoPostal } from './codigo-postal.ts';
import { MENSAJE_DNI, validarDocumento } from './documento.ts';
import {
  MENSAJE_TARJETA_INCOMPLETA,
  MENSAJE_TARJETA_INVALIDA,
  MENSAJE_TARJETA_MARCA,
  validarTarjeta,
  validarTitular,
  validarVencimiento,
} from './tarjeta.ts';
import { MENSAJE_PREFIJO_INEXISTENTE, validarPrefijo, validarTelefono } from './telefono.ts';
import { partirTelefono } from '../../../../src/core/numeracion.ts';

const lists = loadLists(join(import.meta.dirname, '../../../data/ar'));

describe('validarPrefijo / validarTelefono (ENACOM)', () => {
  it('accepts area codes of 2, 3 and 4 digits with the number length that completes 10', () => {
    expect(validarPrefijo('11', lists.codigosArea)).toEqual({ valido: true, prefijo: '11', localidad: 'Buenos Aires', digitosNumero: 8 });
    expect(validarPrefijo('221', lists.codigosArea)).toMatchObject({ valido: true, localidad: 'La Plata', digitosNumero: 7 });
    expect(validarPrefijo('2964', lists.codigosArea)).toMatchObject({ valido: true, digitosNumero: 6 });
  });
  it('rejects unknown codes and a leading 0', () => {
    expect(validarPrefijo('011', lists.codigosArea)).toEqual({ valido: false, mensaje: MENSAJE_PREFIJO_INEXISTENTE });
    expect(validarPrefijo('99', lists.codigosArea)).toEqual({
      valido: false,
      mensaje: 'Ese código de área no existe en la numeración argentina (ENACOM). Revisalo: va sin el 0, como 11, 351 o 3541.',
    });
  });
  it('checks the subscriber number', () => {
    const tel = (a: string, n: string) => validarTelefono(a, n, lists.codigosArea);
    expect(tel('11', '55551234')).toEqual({ valido: true });
    expect(tel('2964', '421234')).toEqual({ valido: true });
    expect(tel('11', '1555551234')).toEqual({ valido: false, mensaje: 'Ingresá el número sin el 15.' });
    expect(tel('11', '5555123')).toEqual({ valido: false, mensaje: 'Con el código de área 11 el número tiene que tener 8 dígitos.' });
    expect(tel('11', '5555-1234')).toEqual({ valido: false, mensaje: 'Ingresá solo números, sin espacios ni guiones.' });
    expect(tel('11', '22222222')).toEqual({ valido: false, mensaje: 'Ingresá un número de teléfono real.' });
    expect(tel('011', '55551234')).toEqual({ valido: false, mensaje: MENSAJE_PREFIJO_INEXISTENTE });
  });
});

describe('partirTelefono (one phone field → areaCod + phoneNumber, libphonenumber-js) then the ENACOM check', () => {
  const tel = (texto: string) => {
    const p = partirTelefono(texto);
    return { ...p, enacom: p.areaCod && p.phoneNumber ? validarTelefono(p.areaCod, p.phoneNumber, lists.codigosArea) : undefined };
  };
  it('splits a number however it is written: spaces, dashes, brackets, the 0, the 15, +54 9', () => {
    for (const t of [
      '11 5555-1234',
      '1155551234',
      '011 15 5555-1234',
      '(011) 5555-1234',
      '+54 9 11 5555-1234',
      '+5491155551234',
      '0054 11 5555 1234',
    ]) {
      expect(tel(t), t).toEqual({ areaCod: '11', phoneNumber: '55551234', enacom: { valido: true } });
    }
  });
  it('a 4-digit area code (3541, Villa Carlos Paz) with its 6-digit number is valid for ENACOM', () => {
    for (const t of ['3541 12-3456', '03541 15 12-3456', '+54 9 3541 12-3456', '3541123456']) {
      expect(tel(t), t).toEqual({ areaCod: '3541', phoneNumber: '123456', enacom: { valido: true } });
    }
    expect(tel('0351 555-1234')).toEqual({ areaCod: '351', phoneNumber: '5551234', enacom: { valido: true } });
    expect(tel('2202 41-2345')).toEqual({ areaCod: '2202', phoneNumber: '412345', enacom: { valido: true } });
  });
  it('a code ENACOM does not have is split as written and refused with the message', () => {
    expect(tel('999 5555123')).toEqual({
      areaCod: '999',
      phoneNumber: '5555123',
      enacom: { valido: false, mensaje: MENSAJE_PREFIJO_INEXISTENTE },
    });
    expect(tel('0999 5555123').enacom).toEqual({ valido: false, mensaje: MENSAJE_PREFIJO_INEXISTENTE });
  });
  it('a length that is not 10 digits keeps the code written apart, so the number is refused for its length', () => {
    expect(tel('11 5555-123')).toEqual({
      areaCod: '11',
      phoneNumber: '5555123',
      enacom: { valido: false, mensaje: 'Con el código de área 11 el número tiene que tener 8 dígitos.' },
    });
  });
  it('what cannot be split is every digit as the number (the form then asks for the code or the length); no digits is nothing', () => {
    expect(partirTelefono('55551234')).toEqual({ phoneNumber: '55551234' });
    expect(partirTelefono('9995555123')).toEqual({ phoneNumber: '9995555123' });
    expect(partirTelefono('+1 202 555 0100')).toEqual({ phoneNumber: '12025550100' });
    expect(partirTelefono('')).toEqual({});
    expect(partirTelefono('sin teléfono')).toEqual({});
  });
});

describe('validarDocumento', () => {
  it('DNI: 7–8 digits between 1.000.000 and 99.999.999', () => {
    expect(validarDocumento('DNI', '30123456')).toEqual({ valido: true });
    expect(validarDocumento('DNI', '1000000')).toEqual({ valido: true });
    for (const bad of ['999999', '0999999', '30.123.456', '123456789', 'ABC']) {
      expect(validarDocumento('DNI', bad)).toEqual({ valido: false, mensaje: MENSAJE_DNI });
    }
    expect(MENSAJE_DNI).toBe('Ingresá un DNI válido: 7 u 8 números, sin puntos.');
  });
  it('LE/LC and passport', () => {
    expect(validarDocumento('LE', '4567890')).toEqual({ valido: true });
    expect(validarDocumento('LC', '12')).toEqual({ valido: false, mensaje: 'Ingresá un número de libreta válido: de 6 a 8 números.' });
    expect(validarDocumento('PAS', 'AAB123456')).toEqual({ valido: true });
    expect(validarDocumento('PAS', 'A-1')).toEqual({ valido: false, mensaje: 'Ingresá un pasaporte válido: de 6 a 9 letras o números.' });
  });
});

describe('validarCbu (BCRA)', () => {
  it('accepts the worked example and names its bank', () => {
    expect(validarCbu('2850590909400904181356', lists.bancos)).toEqual({
      valido: true,
      banco: { codigo: '285', nombre: 'Banco Macro S.A.' },
    });
    expect(validarCbu('285 0590 9 0940090418135 6'.replace(/ /g, ''), lists.bancos).valido).toBe(true);
  });
  it('computes both check digits as in SOURCES.md', () => {
    expect(cbuCheckDigit('2850590', [7, 1, 3, 9, 7, 1, 3])).toBe(9);
    expect(cbuCheckDigit('0940090418135', [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3])).toBe(6);
  });
  it('rejects wrong length, wrong check digits, CVUs and unknown banks', () => {
    expect(validarCbu('285059090940090418135', lists.bancos)).toEqual({ valido: false, mensaje: MENSAJE_CBU_LARGO });
    expect(validarCbu('2850590809400904181356', lists.bancos)).toEqual({ valido: false, mensaje: MENSAJE_CBU_INVALIDO });
    expect(validarCbu('2850590909400904181357', lists.bancos)).toEqual({ valido: false, mensaje: MENSAJE_CBU_INVALIDO });
    // entity 000 (CVU), branch 0000, check digit 0; account block valid
    expect(validarCbu('0000000009400904181356', lists.bancos)).toEqual({ valido: false, mensaje: MENSAJE_CBU_CVU });
    // entity 999 is not a BCRA bank: block 1 = 9990000 + check digit (10 − 9·7+9·1+9·3 mod 10) mod 10 = 1
    expect(validarCbu('9990000109400904181356', lists.bancos)).toEqual({ valido: false, mensaje: MENSAJE_CBU_BANCO });
  });
});

describe('validarTarjeta (card-validator)', () => {
  it.each([
    ['4242424242424242', 'visa', 'Visa'],
    ['5555555555554444', 'mastercard', 'Mastercard'],
    ['378282246310005', 'american-express', 'American Express'],
    ['6042010000000006', 'cabal', 'Cabal'],
    ['5896570000000008', 'cabal', 'Cabal'],
    ['6035220000000000', 'cabal', 'Cabal'],
    ['5895620000000002', 'naranja', 'Naranja'],
  ])('%s → %s', (numero, marca, nombreMarca) => {
    expect(validarTarjeta(numero)).toEqual({ valido: true, marca, nombreMarca });
  });
  it('rejects Luhn failures, short numbers and other brands', () => {
    expect(validarTarjeta('4242424242424241')).toEqual({ valido: false, mensaje: MENSAJE_TARJETA_INVALIDA });
    expect(validarTarjeta('4242 4242')).toEqual({ valido: false, mensaje: MENSAJE_TARJETA_INCOMPLETA });
    expect(validarTarjeta('424242424242')).toEqual({ valido: false, mensaje: MENSAJE_TARJETA_INCOMPLETA });
    expect(validarTarjeta('6011111111111117')).toEqual({ valido: false, mensaje: MENSAJE_TARJETA_MARCA }); // Discover
    expect(validarTarjeta('3530111333300000')).toEqual({
      valido: false,
      mensaje: 'Aceptamos Visa, Mastercard, American Express, Cabal y Naranja.',
    }); // JCB
  });
  it('expiry MM/AA through the end of the month', () => {
    expect(validarVencimiento('11/26', '2026-11-30')).toEqual({ valido: true });
    expect(validarVencimiento('10/26', '2026-11-01')).toEqual({ valido: false, mensaje: 'La tarjeta está vencida.' });
    expect(validarVencimiento('13/27', '2026-11-01')).toEqual({
      valido: false,
      mensaje: 'Ingresá el vencimiento como MM/AA, por ejemplo 08/29.',
    });
    expect(validarVencimiento('1/27', '2026-11-01').valido).toBe(false);
    expect(validarVencimiento('12/99', '2026-11-01')).toEqual({ valido: false, mensaje: 'Revisá el año de vencimiento.' });
  });
  it('holder name as printed', () => {
    expect(validarTitular("MARÍA JOSÉ O'NEILL")).toEqual({ valido: true });
    expect(validarTitular('J')).toEqual({ valido: false, mensaje: 'Ingresá el nombre tal como figura en la tarjeta.' });
    expect(validarTitular('ANA 123')).toEqual({ valido: false, mensaje: 'Ingresá el nombre tal como figura en la tarjeta.' });
  });
});

describe('validarCodigoPostal', () => {
  it('4 digits or a CPA of the chosen province', () => {
    expect(validarCodigoPostal('1425')).toEqual({ valido: true });
    expect(validarCodigoPostal('c1425abc', 'AR-C')).toEqual({ valido: true });
    expect(validarCodigoPostal('B1824ABC', 'AR-B')).toEqual({ valido: true });
    expect(validarCodigoPostal('C1425ABC', 'AR-B')).toEqual({ valido: false, mensaje: MENSAJE_CODIGO_POSTAL_PROVINCIA });
    for (const bad of ['142', '0000', 'I1425ABC', 'C1425AB', 'ABCD']) {
      expect(validarCodigoPostal(bad)).toEqual({ valido: false, mensaje: MENSAJE_CODIGO_POSTAL });
    }
  });
});
