/** es-AR formats for documents and e-mails: money "$ 1.234,56" (ARS) and dates "DD/MM/AAAA". */
const PESOS = new Intl.NumberFormat('es-AR', { style: 'currency', currency: 'ARS', minimumFractionDigits: 2 });
const ENTERO = new Intl.NumberFormat('es-AR', { style: 'currency', currency: 'ARS', maximumFractionDigits: 0 });

/** @param ars amount in pesos @returns e.g. "$ 183.406,24" (no-break space after the sign) */
export function pesos(ars: number): string {
  return PESOS.format(ars);
}

/** @param ars whole pesos (sumas aseguradas) @returns e.g. "$ 45.000.000" */
export function pesosEnteros(ars: number): string {
  return ENTERO.format(ars);
}

/** @param iso YYYY-MM-DD @returns DD/MM/AAAA */
export function fecha(iso: string): string {
  const [a, m, d] = iso.slice(0, 10).split('-');
  return `${d}/${m}/${a}`;
}
