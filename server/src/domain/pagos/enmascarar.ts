/**
 * Masking of payment numbers inside free text (PCI DSS 3.4: a PAN is never stored or logged in
 * clear). A "digit run" is digits joined by separators of at most 3 characters that are neither letters nor digits
 * ("4242.4242.4242.4242", "4242  4242  4242  4242", "285-0590-…"). Inside a run, every stretch of consecutive digit
 * groups is masked when it is
 * - PAN-like: 13–19 digits passing the Luhn check (ISO/IEC 7812-1), or
 * - CBU-like: exactly 22 digits (BCRA CBU length; masked whether or not its check digits hold),
 * and a single unseparated group longer than 19 digits is masked whole. A masked stretch becomes "••••" plus its
 * last 4 digits. Dates, phone numbers and policy numbers (short groups, or runs failing these rules) stay as they are.
 *
 * Unicode (full-width or circled digits still spell a card number): digits and separators are read after NFKC
 * normalisation of each character, so full-width "４２４２…", circled or superscript digits count as digits; only the
 * masked stretch is replaced, the rest of the text keeps its original characters. {@link enmascararClaves} does the same for the KEYS of a JSON object.
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

interface Tramo {
  start: number;
  end: number;
  last4: string;
}

/** The stretches to mask inside one digit run starting at `offset` of an ASCII-digit text (see the module comment). */
function tramosDeRun(run: string, offset: number, spans: Tramo[]): void {
  const groups = [...run.matchAll(GROUP)].map((m) => ({ start: m.index, end: m.index + m[0].length, digits: m[0] }));
  for (let i = 0; i < groups.length;) {
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
    const all = groups
      .slice(i, found + 1)
      .map((g) => g.digits)
      .join('');
    spans.push({ start: offset + groups[i].start, end: offset + groups[found].end, last4: all.slice(-4) });
    i = found + 1;
  }
}

/** Replaces each stretch of `text` by "••••" + its last 4 digits. */
function aplicar(text: string, spans: Tramo[]): string {
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += `${text.slice(at, s.start)}••••${s.last4}`;
    at = s.end;
  }
  return out + text.slice(at);
}

/** Stretches to mask in a text whose digits are ASCII. */
function tramos(text: string): Tramo[] {
  const spans: Tramo[] = [];
  for (const m of text.matchAll(RUN)) tramosDeRun(m[0], m.index, spans);
  return spans;
}

const contarDigitos = (text: string) => {
  let digits = 0;
  for (let i = 0; i < text.length && digits < 13; i++) if (text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) digits++;
  return digits;
};

/**
 * @param text any free text (a log field, an address, a JSON string)
 * @returns the text with card-like and CBU-like numbers masked, e.g. "pagué con 4242.4242.4242.4242" → "pagué con ••••4242",
 *   "１２３４…" (full-width) → "••••" + the last 4 digits in ASCII
 */
export function enmascararNumerosDePago(text: string): string {
  // oxlint-disable-next-line no-control-regex -- the ASCII range itself: plain ASCII needs no NFKC pass
  if (!/[^\x00-\x7f]/.test(text)) {
    if (contarDigitos(text) < 13) return text; // fast path: too few digits to hold a payment number
    return aplicar(text, tramos(text));
  }
  // Non-ASCII: no code point's NFKC form holds more than 3 digits ("⅒" → "1⁄10"), so with few digits and few
  // non-ASCII characters ("póliza emitida") there is nothing to find.
  let noAscii = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) noAscii++;
  if (contarDigitos(text) + 4 * noAscii < 13) return text;
  // Read each code point through NFKC, remembering where each normalised character came from, find the stretches in
  // the normalised text and replace the original characters they came from.
  let norm = '';
  const desde: number[] = [];
  const hasta: number[] = [];
  let at = 0;
  for (const cp of text) {
    const n = cp.normalize('NFKC');
    for (let k = 0; k < n.length; k++) {
      desde.push(at);
      hasta.push(at + cp.length);
    }
    norm += n;
    at += cp.length;
  }
  if (contarDigitos(norm) < 13) return text;
  const spans = tramos(norm).map((s) => ({ start: desde[s.start], end: hasta[s.end - 1], last4: s.last4 }));
  return aplicar(text, spans);
}

/**
 * Masks payment-like numbers in the KEYS of `obj`, in place (values are the caller's business): a key such as
 * "4242 4242 4242 4242" becomes "••••4242", keeping its value and the keys' order. When two keys mask to the same
 * text, the later one gets " (2)", " (3)"… so no value is lost.
 * @returns whether some key changed
 */
export function enmascararClaves(obj: Record<string, unknown>): boolean {
  const keys = Object.keys(obj);
  const masked = keys.map(enmascararNumerosDePago);
  if (masked.every((k, i) => k === keys[i])) return false;
  const entries = keys.map((k) => [k, obj[k]] as const);
  for (const k of keys) delete obj[k];
  entries.forEach(([, v], i) => {
    let k = masked[i];
    for (let n = 2; Object.hasOwn(obj, k); n++) k = `${masked[i]} (${n})`;
    Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true }); // even "__proto__"
  });
  return true;
}
