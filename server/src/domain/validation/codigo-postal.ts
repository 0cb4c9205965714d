/**
 * Argentine postal codes: the 4-digit code, or the CPA (Código Postal Argentino, Correo Argentino, 1998):
 * province letter + 4 digits + 3 letters, e.g. C1425ABC. The province letter equals the ISO 3166-2:AR
 * subdivision letter (AR-C → C), so a CPA can be checked against the chosen province.
 */
import { invalido, type Validacion } from './result.ts';
import { mensaje } from '../../../../src/core/messages.ts';

export const MENSAJE_CODIGO_POSTAL = mensaje('validacion.codigoPostal');
export const MENSAJE_CODIGO_POSTAL_PROVINCIA = mensaje('servidor.codigoPostalProvincia');

/**
 * @param zipCode as typed (case-insensitive)
 * @param provinciaIso ISO 3166-2 code of the chosen province, e.g. "AR-B" (optional; checks the CPA letter)
 * @returns `{ valido: true }` or invalid with the Spanish message
 */
export function validarCodigoPostal(zipCode: string, provinciaIso?: string): Validacion {
  const z = zipCode.trim().toUpperCase();
  if (/^\d{4}$/.test(z)) return z === '0000' ? invalido(MENSAJE_CODIGO_POSTAL) : { valido: true };
  if (!/^[A-HJ-NP-Z]\d{4}[A-Z]{3}$/.test(z)) return invalido(MENSAJE_CODIGO_POSTAL);
  if (provinciaIso && provinciaIso.slice(-1) !== z[0]) return invalido(MENSAJE_CODIGO_POSTAL_PROVINCIA);
  return { valido: true };
}
