/**
 * es-AR formats (SPEC: premium shown in es-AR currency format).
 * Written out rather than with `Intl.NumberFormat('es-AR', { style: 'currency' })`: on a phone, creating that
 * formatter loads the locale's ICU data in one ~90 ms (4× CPU: ~350 ms) task while the page starts (issue 9). The
 * output is Intl's (tests/unit/format.test.ts compares both over random amounts), except that a negative amount that
 * rounds to zero is "$ 0,00", not Intl's "-$ 0,00".
 */

/**
 * ARS amount as es-AR currency, e.g. 15234.5 → "$ 15.234,50" (thousands '.', decimals ',', two decimals rounded half away
 * from zero, a leading '-' on negative amounts: "-$ 1,50"). Non-numbers, non-finite and ≥ 1e21 → ''.
 */
export function formatCurrency(amount: unknown): string {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return '';
  const abs = Math.abs(amount);
  if (abs >= 1e21) return '';
  // rounded half away from zero on the shortest decimal that names the number, as ICU does (toFixed rounds the exact
  // binary value: 9995528297868.385 would give …,38)
  const [ent, frac = ''] = (abs < 1e-6 ? '0' : String(abs)).split('.');
  const centavos = BigInt(ent + `${frac}00`.slice(0, 2)) + (frac[2] !== undefined && frac[2] >= '5' ? 1n : 0n);
  const entero = String(centavos / 100n);
  const decimales = String(centavos % 100n).padStart(2, '0');
  return `${amount < 0 && centavos > 0n ? '-' : ''}$ ${entero.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${decimales}`;
}
