/**
 * CBU (Clave Bancaria Uniforme) check, BCRA rules (server/data/ar/SOURCES.md):
 * 22 digits = block 1 (bank 3 + branch 4 + check digit) + block 2 (account 13 + check digit).
 * Check digit = (10 − Σ digit × weight mod 10) mod 10; weights 7,1,3,9,7,1,3 (block 1) and
 * 3,9,7,1,3,9,7,1,3,9,7,1,3 (block 2). Bank code must be in server/data/ar/bancos.csv (BCRA entities).
 * CVUs (virtual wallets, entity code 000) do not accept automatic debit and are rejected.
 */
import { invalido, type Validacion } from './result.ts';
import { mensaje } from '../../../../src/core/messages.ts';

export interface Banco {
  codigo: string;
  nombre: string;
}

export const MENSAJE_CBU_LARGO = mensaje('servidor.cbuLargo');
export const MENSAJE_CBU_INVALIDO = mensaje('servidor.cbuInvalido');
export const MENSAJE_CBU_CVU = mensaje('servidor.cbuCvu');
export const MENSAJE_CBU_BANCO = mensaje('servidor.cbuBanco');

/** BCRA check digit of `digits` with `weights` (same length). */
export function cbuCheckDigit(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * weights[i];
  return (10 - (sum % 10)) % 10;
}

const PESOS_BLOQUE_1 = [7, 1, 3, 9, 7, 1, 3];
const PESOS_BLOQUE_2 = [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3];

/**
 * @param numero CBU as typed (spaces and dashes are ignored)
 * @param bancos BCRA entities by 3-digit code
 * @returns valid with `banco` `{ codigo, nombre }`, or invalid with the Spanish message
 */
export function validarCbu(numero: string, bancos: ReadonlyMap<string, Banco>): Validacion<{ banco: Banco }> {
  const cbu = numero.replace(/[\s-]/g, '');
  if (!/^\d{22}$/.test(cbu)) return invalido(MENSAJE_CBU_LARGO);
  if (cbuCheckDigit(cbu.slice(0, 7), PESOS_BLOQUE_1) !== Number(cbu[7])) return invalido(MENSAJE_CBU_INVALIDO);
  if (cbuCheckDigit(cbu.slice(8, 21), PESOS_BLOQUE_2) !== Number(cbu[21])) return invalido(MENSAJE_CBU_INVALIDO);
  const codigo = cbu.slice(0, 3);
  if (codigo === '000') return invalido(MENSAJE_CBU_CVU);
  const banco = bancos.get(codigo);
  if (!banco) return invalido(MENSAJE_CBU_BANCO);
  return { valido: true, banco };
}
