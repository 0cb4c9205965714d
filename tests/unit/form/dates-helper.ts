/** Calendar dates for the date-rule tests, computed independently from src/core/dates.ts. */
const pad = (n: number) => String(n).padStart(2, '0');

/** ISO `YYYY-MM-DD` of today in Argentina (the rules' "today") shifted by whole days / years. */
export function localIso(days = 0, years = 0): string {
  const [y, m, d] = new Date().toLocaleDateString('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).split('-').map(Number);
  const t = new Date(Date.UTC(y + years, m - 1, d + days));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** `YYYY-MM-DD` → `DD/MM/YYYY`. */
export function ar(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${d}/${m}/${y}`;
}
