/**
 * Argentine numbering (ENACOM, Plan Fundamental de Numeración Nacional): area code (without the leading 0) +
 * subscriber number (without the mobile "15") = 10 national digits. The journey recorder (src/recorder/record-rules.ts)
 * and the phone field (src/form/widgets/PhoneField.tsx) read it in the browser, the phone check (telefono.ts) on the
 * server; its only import is libphonenumber-js (Google's numbering metadata), so the browser loads it on its own chunk.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

export const DIGITOS_NACIONALES = 10;

/** The wire's two phone fields (`areaCod`, `phoneNumber`), as far as a typed text gives them. */
export interface TelefonoPartido {
  /** Area code without the 0 (2–4 digits), when the text has 10 national digits and the code could be told. */
  areaCod?: string;
  /** Subscriber number without the 15 when the code was told; otherwise every national digit typed. */
  phoneNumber?: string;
}

/**
 * Splits a phone written in one field the way people write it — «11 5555-1234», «011 15 5555-1234»,
 * «+54 9 3541 12-3456», «3541123456» — into area code and subscriber number. libphonenumber-js parses it (country
 * code, 0, 9 and 15 dropped); the area code is the one its Argentine metadata groups, or, for a number it does not
 * know, the first group of digits the visitor typed. Whether that code exists is ENACOM's list's to say
 * (`validarPrefijo`, `validarTelefono` in telefono.ts): a code both split the same 10 digits, so either is the number.
 * @param texto what the visitor typed (any spaces, dashes, brackets)
 * @returns `{}` for no digits; both fields when the code can be told (for a length other than 10 digits, only from a
 *   group the visitor wrote apart: «11 5555» → 11 + 5555, which the length rules then refuse); otherwise
 *   `{ phoneNumber }` alone with every national digit («55551234»: the code is missing). Never throws.
 */
export function partirTelefono(texto: string): TelefonoPartido {
  const digitos = texto.replace(/\D/g, '');
  if (!digitos) return {};
  const internacional = /^\s*(\+|00)/.test(texto);
  let parsed;
  try {
    parsed = parsePhoneNumberFromString(texto, 'AR');
  } catch {
    parsed = undefined;
  }
  if (internacional && parsed?.countryCallingCode !== '54') return { phoneNumber: digitos };
  let nacional = parsed?.nationalNumber ?? digitos.replace(/^0/, '');
  // a mobile's national number keeps the international "9" in front (+54 9 11 …)
  if (nacional.length === DIGITOS_NACIONALES + 1 && nacional.startsWith('9')) nacional = nacional.slice(1);
  const partir = (area: string | undefined): TelefonoPartido | undefined =>
    area && /^[1-9]\d{1,3}$/.test(area) && nacional.startsWith(area)
      ? { areaCod: area, phoneNumber: nacional.slice(area.length) }
      : undefined;
  const grupos = texto.replace(/^\s*(\+|00)\s*54[\s\-.]*(9[\s\-.]+)?/, '').match(/\d+/g) ?? [];
  const escrito = grupos[0]?.replace(/^0/, '');
  // too few or too many digits: the code the visitor wrote apart, so the message can say what the number lacks
  if (nacional.length !== DIGITOS_NACIONALES) return (grupos.length > 1 ? partir(escrito) : undefined) ?? { phoneNumber: nacional };
  const agrupado = parsed?.isValid() ? /^0?(\d+)/.exec(parsed.formatNational())?.[1] : undefined;
  return partir(agrupado) ?? partir(escrito) ?? { phoneNumber: nacional };
}
