/**
 * Dates typed as text in Argentina's order, día/mes/año, whatever the browser's language (a native
 * `<input type="date">` follows the browser's: mm/dd/yyyy in an English one, so 12041985 became 4 December).
 * Pure; the value kept and sent stays ISO `YYYY-MM-DD` (src/core/dates.ts).
 */

/**
 * What the visitor typed → the digits day, month, year (at most 8), as a person means them:
 * "12041985" and "12/04/1985" → "12041985"; "1/4/1985" (a separator after one digit pads it) → "01041985";
 * an ISO date (autofill, paste) "1985-04-12" → "12041985".
 */
export function fechaDigitos(raw: string): string {
  const iso = /^\s*(\d{4})-(\d{2})-(\d{2})\s*$/.exec(raw);
  if (iso) return `${iso[3]}${iso[2]}${iso[1]}`;
  const parts = raw.split(/\D+/);
  // a part followed by a separator is complete: one digit there is a day or month written short ("1/4/…")
  const padded = parts.map((p, i) => (i < 2 && i < parts.length - 1 && p.length === 1 ? `0${p}` : p));
  return padded.join('').slice(0, 8);
}

/** Digits (see {@link fechaDigitos}) shown as the visitor types: "1204" → "12/04", "12041985" → "12/04/1985". */
export function fechaTexto(digits: string): string {
  if (digits.length <= 2) return digits;
  if (digits.length <= 4) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  return `${digits.slice(0, 2)}/${digits.slice(2, 4)}/${digits.slice(4)}`;
}

/**
 * The form value for what was typed: `undefined` when empty; ISO "YYYY-MM-DD" once day, month and four-digit year
 * are there (an impossible date such as 31/02 stays ISO-shaped, and `format: date` refuses it); else the text as
 * shown, which `format: date` refuses too ("Ingresá una fecha válida").
 */
export function fechaValor(raw: string): string | undefined {
  const digits = fechaDigitos(raw);
  if (!digits) return undefined;
  if (digits.length === 8) return `${digits.slice(4)}-${digits.slice(2, 4)}-${digits.slice(0, 2)}`;
  return fechaTexto(digits);
}

/** What the field shows for a form value: ISO → "DD/MM/YYYY"; anything else as it is; nothing → "". */
export function fechaMostrada(value: unknown): string {
  if (typeof value !== 'string') return '';
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return iso ? `${iso[3]}/${iso[2]}/${iso[1]}` : value;
}
