/** es-AR dates for documents and e-mails, "DD/MM/AAAA" (money: src/core/money.ts, the one formatter of every screen and document). */

/** @param iso YYYY-MM-DD @returns DD/MM/AAAA */
export function fecha(iso: string): string {
  const [a, m, d] = iso.slice(0, 10).split('-');
  return `${d}/${m}/${a}`;
}
