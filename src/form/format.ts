/** es-AR formats (SPEC: premium shown in es-AR currency format). */
const currency = new Intl.NumberFormat('es-AR', { style: 'currency', currency: 'ARS', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** ARS amount as es-AR currency, e.g. 15234.5 → "$ 15.234,50". Non-numbers → ''. */
export function formatCurrency(amount: unknown): string {
  return typeof amount === 'number' && Number.isFinite(amount) ? currency.format(amount).replace(/\u00a0/g, ' ') : '';
}
