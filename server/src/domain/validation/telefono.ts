/**
 * Argentine phone checks (ENACOM, Plan Fundamental de Numeración Nacional; see server/data/ar/SOURCES.md):
 * area code (without the leading 0) + subscriber number (without the mobile "15") = 10 national digits.
 */
import { invalido, type Validacion } from './result.ts';
import { mensaje } from '../../../../src/core/messages.ts';
import { DIGITOS_NACIONALES } from '../../../../src/core/numeracion.ts';

/** ENACOM area code row (server/data/ar/codigos-de-area.csv). */
export interface CodigoArea {
  codigo: string;
  jurisdiccion: string;
  localidadCabecera: string;
}

export const MENSAJE_PREFIJO_INEXISTENTE = mensaje('servidor.prefijoInexistente');

/**
 * Checks an area code against the ENACOM list.
 * @param prefijo area code as typed, e.g. "11", "221", "2964" (a leading 0 is rejected with a hint)
 * @param codigos ENACOM codes by `codigo`
 * @returns valid with the head locality and `digitosNumero` (10 − area length), or invalid with the message
 */
export function validarPrefijo(
  prefijo: string,
  codigos: ReadonlyMap<string, CodigoArea>,
): Validacion<{ prefijo: string; localidad: string; digitosNumero: number }> {
  const area = codigos.get(prefijo.trim());
  if (!area) return invalido(MENSAJE_PREFIJO_INEXISTENTE);
  return { valido: true, prefijo: area.codigo, localidad: area.localidadCabecera, digitosNumero: DIGITOS_NACIONALES - area.codigo.length };
}

/**
 * Checks an area code + subscriber number pair.
 * Rules: area code exists (ENACOM); number only digits, without the leading "15"; area + number = 10 digits;
 * not the same digit repeated.
 * @returns `{ valido: true }` or invalid with the Spanish message
 */
export function validarTelefono(areaCod: string, phoneNumber: string, codigos: ReadonlyMap<string, CodigoArea>): Validacion {
  const prefijo = validarPrefijo(areaCod, codigos);
  if (!prefijo.valido) return prefijo;
  const numero = phoneNumber.trim();
  if (!/^\d+$/.test(numero)) return invalido(mensaje('servidor.telefonoSoloNumeros'));
  const digitos = prefijo.digitosNumero;
  if (numero.length === digitos + 2 && numero.startsWith('15')) return invalido(mensaje('servidor.telefonoSin15'));
  if (numero.length !== digitos) return invalido(mensaje('servidor.telefonoDigitos', { prefijo: prefijo.prefijo, digitos }));
  if (/^(\d)\1+$/.test(numero)) return invalido(mensaje('servidor.telefonoReal'));
  return { valido: true };
}
