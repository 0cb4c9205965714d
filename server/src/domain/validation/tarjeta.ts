/**
 * Payment card checks with `card-validator` (Braintree): Luhn (ISO/IEC 7812) + brand by IIN prefix.
 * Accepted brands (Argentine market): Visa, Mastercard, American Express, Cabal, Naranja.
 * `credit-card-type` ships Naranja (589562, 402918, 527572) but not Cabal, which is added here with the
 * Cabal IIN ranges 589657, 603522 and 604201–604400 (Cabal / Banco Credicoop issuer ranges as listed in public BIN tables).
 */
import cardValidator from 'card-validator';
import { invalido, type Validacion } from './result.ts';
import { mensaje } from '../../../../src/core/messages.ts';

if (!cardValidator.creditCardType.getTypeInfo('cabal')) {
  cardValidator.creditCardType.addCard({
    niceType: 'Cabal',
    type: 'cabal',
    patterns: [589657, 603522, [604201, 604400]],
    gaps: [4, 8, 12],
    lengths: [16],
    code: { name: 'CVV', size: 3 },
  });
}

/** Brand codes on the wire (card-validator `type`) and their display names. */
export const MARCAS_ACEPTADAS: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  'american-express': 'American Express',
  cabal: 'Cabal',
  naranja: 'Naranja',
};

export const MENSAJE_TARJETA_INCOMPLETA = mensaje('servidor.tarjetaIncompleta');
export const MENSAJE_TARJETA_INVALIDA = mensaje('servidor.tarjetaInvalida');
export const MENSAJE_TARJETA_MARCA = mensaje('servidor.tarjetaMarca');

/**
 * @param numero card number as typed (spaces and dashes are ignored)
 * @returns valid with `marca` (wire code, e.g. "visa") and `nombreMarca` ("Visa"), or invalid with the Spanish message
 */
export function validarTarjeta(numero: string): Validacion<{ marca: string; nombreMarca: string }> {
  const digits = numero.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) return invalido(MENSAJE_TARJETA_INCOMPLETA);
  const result = cardValidator.number(digits);
  const marca = result.card?.type;
  if (marca && !(marca in MARCAS_ACEPTADAS)) return invalido(MENSAJE_TARJETA_MARCA);
  if (!result.isValid || !marca) {
    return result.card && !result.card.lengths.includes(digits.length)
      ? invalido(MENSAJE_TARJETA_INCOMPLETA)
      : invalido(MENSAJE_TARJETA_INVALIDA);
  }
  return { valido: true, marca, nombreMarca: MARCAS_ACEPTADAS[marca] };
}

/**
 * Expiry as printed on the card, "MM/AA"; the card is valid through the last day of that month.
 * @param hoy today's date in Argentina, "YYYY-MM-DD"
 * @returns `{ valido: true }` or invalid with the Spanish message (bad format, expired, more than 20 years ahead)
 */
export function validarVencimiento(mmaa: string, hoy: string): Validacion {
  const m = /^(0[1-9]|1[0-2])\/(\d{2})$/.exec(mmaa.trim());
  if (!m) return invalido(mensaje('servidor.vencimientoFormato'));
  const meses = (2000 + Number(m[2])) * 12 + Number(m[1]);
  const mesesHoy = Number(hoy.slice(0, 4)) * 12 + Number(hoy.slice(5, 7));
  if (meses < mesesHoy) return invalido(mensaje('servidor.tarjetaVencida'));
  if (meses > mesesHoy + 20 * 12) return invalido(mensaje('servidor.vencimientoAnio'));
  return { valido: true };
}

/**
 * Card holder name as printed: 2–50 characters, letters (with Spanish accents), spaces, apostrophes, dots and dashes.
 * @returns `{ valido: true }` or invalid with the Spanish message
 */
export function validarTitular(nombre: string): Validacion {
  const n = nombre.trim();
  return n.length >= 2 && n.length <= 50 && /^[A-Za-zÁÉÍÓÚÜÑáéíóúüñ' .-]+$/.test(n) && /[A-Za-zÁÉÍÓÚÜÑáéíóúüñ]{2}/.test(n)
    ? { valido: true }
    : invalido(mensaje('servidor.titularTarjeta'));
}
