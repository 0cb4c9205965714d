/** Local calendar dates for the date-rule tests, computed independently from src/form/dates.ts. */
const pad = (n: number) => String(n).padStart(2, '0');

/** ISO `YYYY-MM-DD` of today (local time) shifted by whole days / years. */
export function localIso(days = 0, years = 0): string {
  const now = new Date();
  const d = new Date(now.getFullYear() + years, now.getMonth(), now.getDate() + days);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** `YYYY-MM-DD` → `DD/MM/YYYY`. */
export function ar(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${d}/${m}/${y}`;
}
