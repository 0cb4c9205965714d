/**
 * Masking of payment numbers inside free text (issue 10 item 13; PCI DSS 3.4: a PAN is never stored or logged in
 * clear). A "digit run" is digits joined by separators of at most 3 characters that are neither letters nor digits
 * ("4242.4242.4242.4242", "4242  4242  4242  4242", "285-0590-…"). Inside a run, every stretch of consecutive digit
 * groups is masked when it is
 * - PAN-like: 13–19 digits passing the Luhn check (ISO/IEC 7812-1), or
 * - CBU-like: exactly 22 digits (BCRA CBU length; masked whether or not its check digits hold),
 * and a single unseparated group longer than 19 digits is masked whole. A masked stretch becomes "••••" plus its
 * last 4 digits. Dates, phone numbers and policy numbers (short groups, or runs failing these rules) stay as they are.
 */

const RUN = /\d(?:[^\p{L}\p{N}]{1,3}\d|\d)*/gu;
const GROUP = /\d+/g;

/** Luhn (mod 10) check of a digit string. */
export function luhnValido(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const sensible = (digits: string) => (digits.length >= 13 && digits.length <= 19 && luhnValido(digits)) || digits.length === 22;

/** Masks one digit run (see the module comment). */
function maskRun(run: string): string {
  const groups = [...run.matchAll(GROUP)].map((m) => ({ start: m.index, end: m.index + m[0].length, digits: m[0] }));
  const spans: { start: number; end: number; last4: string }[] = [];
  for (let i = 0; i < groups.length; ) {
    let found = -1;
    let digits = '';
    for (let j = i; j < groups.length && digits.length <= 22; j++) {
      digits += groups[j].digits;
      if (sensible(digits)) found = j; // the longest qualifying stretch starting at group i
    }
    if (found === -1 && groups[i].digits.length > 19) found = i;
    if (found === -1) {
      i++;
      continue;
    }
    const all = groups.slice(i, found + 1).map((g) => g.digits).join('');
    spans.push({ start: groups[i].start, end: groups[found].end, last4: all.slice(-4) });
    i = found + 1;
  }
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += `${run.slice(at, s.start)}••••${s.last4}`;
    at = s.end;
  }
  return out + run.slice(at);
}

/**
 * @param text any free text (a log field, an address, a JSON string)
 * @returns the text with card-like and CBU-like numbers masked, e.g. "pagué con 4242.4242.4242.4242" → "pagué con ••••4242"
 */
export function enmascararNumerosDePago(text: string): string {
  let digits = 0;
  for (let i = 0; i < text.length && digits < 13; i++) if (text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) digits++;
  if (digits < 13) return text; // fast path: too few digits to hold a payment number
  return text.replace(RUN, maskRun);
}
