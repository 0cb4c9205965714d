/**
 * Identity document checks (RENAPER formats).
 * DNI: 7–8 digits, 1.000.000–99.999.999 (no dots). LE/LC (pre-1968 booklets): 6–8 digits, > 0. Pasaporte: 6–9 letters/digits.
 */
import { invalido, type Validacion } from './result.ts';
import { mensaje } from '../../../../src/core/messages.ts';

export type TipoDocumento = 'DNI' | 'LE' | 'LC' | 'PAS';

export const MENSAJE_DNI = mensaje('servidor.dni');

/**
 * @param typeDoc DNI | LE | LC | PAS
 * @param numberDoc number as typed (dots are not accepted)
 * @returns `{ valido: true }` or invalid with the Spanish message
 */
export function validarDocumento(typeDoc: TipoDocumento, numberDoc: string): Validacion {
  const n = numberDoc.trim();
  switch (typeDoc) {
    case 'DNI': {
      if (!/^\d{7,8}$/.test(n)) return invalido(MENSAJE_DNI);
      const v = Number(n);
      return v >= 1_000_000 && v <= 99_999_999 ? { valido: true } : invalido(MENSAJE_DNI);
    }
    case 'LE':
    case 'LC':
      return /^\d{6,8}$/.test(n) && Number(n) > 0 ? { valido: true } : invalido(mensaje('servidor.libreta'));
    case 'PAS':
      return /^[A-Za-z0-9]{6,9}$/.test(n) ? { valido: true } : invalido(mensaje('servidor.pasaporte'));
  }
}
