/**
 * The one money formatter of the product: screens, PDFs, e-mails and the wire's `sumaAseguradaString` all write pesos
 * with it, so a visitor reads the same "$ 15.234,50" everywhere (SPEC: amounts in es-AR currency format).
 *
 * The output is exactly `Intl.NumberFormat('es-AR', { style: 'currency', currency: 'ARS' })`'s, no-break space
 * (U+00A0) after the sign included, so a line never breaks between "$" and the amount. It is written out rather than
 * built on Intl because, on a phone, creating that formatter loads the locale's ICU data in one ~90 ms task (4× CPU:
 * ~350 ms) while the page starts; src/core/money.test.ts compares both over random amounts. Pure: no DOM, no Node.
 */

/** The character between "$" and the amount, as Intl es-AR writes it. */
export const ESPACIO_PESOS = '\u00a0';

/** Intl formatters made only for amounts ≥ 1e21 (no premium or sum insured comes near): built on first use. */
const intl = new Map<number, Intl.NumberFormat>();

function formatear(amount: unknown, decimales: 0 | 2): string {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return '';
  const abs = Math.abs(amount);
  if (abs >= 1e21) {
    // String() writes such numbers in exponent notation; leave them to Intl itself
    let f = intl.get(decimales);
    if (!f)
      intl.set(
        decimales,
        (f = new Intl.NumberFormat('es-AR', {
          style: 'currency',
          currency: 'ARS',
          minimumFractionDigits: decimales,
          maximumFractionDigits: decimales,
        })),
      );
    return f.format(amount);
  }
  // a whole number of pesos (every sum insured): its digits as they are, without the BigInt rounding below — same text
  if (Number.isSafeInteger(amount)) {
    const entero = String(abs).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
    return `${amount < 0 || Object.is(amount, -0) ? '-' : ''}$${ESPACIO_PESOS}${entero}${decimales === 2 ? ',00' : ''}`;
  }
  // rounded half away from zero on the shortest decimal that names the number, as ICU does (toFixed rounds the exact
  // binary value: 9995528297868.385 would give …,38)
  const [ent, frac = ''] = (abs < 1e-6 ? '0' : String(abs)).split('.');
  const unidades =
    BigInt(ent + frac.padEnd(decimales, '0').slice(0, decimales)) + (frac[decimales] !== undefined && frac[decimales] >= '5' ? 1n : 0n);
  const escala = decimales === 2 ? 100n : 1n;
  const entero = String(unidades / escala).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const resto = decimales === 2 ? `,${String(unidades % escala).padStart(2, '0')}` : '';
  // Intl signs every negative amount, -0 and those that round to zero included ("-$ 0,00")
  const signo = amount < 0 || Object.is(amount, -0) ? '-' : '';
  return `${signo}$${ESPACIO_PESOS}${entero}${resto}`;
}

/**
 * ARS amount with centavos, e.g. 15234.5 → "$ 15.234,50" (no-break space after "$"; thousands '.', decimals ',', two
 * decimals rounded half away from zero; negatives "-$ 1,50"). Premiums, cuotas, taxes.
 * @param ars amount in pesos; anything that is not a finite number → '' (a screen shows nothing rather than "NaN")
 */
export function pesos(ars: unknown): string {
  return formatear(ars, 2);
}

/**
 * ARS amount in whole pesos, e.g. 45000000 → "$ 45.000.000" (no-break space after "$"; rounded half away from zero).
 * Sums insured and deductibles, which the tariff states in whole pesos.
 * @param ars amount in pesos; anything that is not a finite number → ''
 */
export function pesosEnteros(ars: unknown): string {
  return formatear(ars, 0);
}
