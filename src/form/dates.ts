/**
 * Date rules of DateWidget's ui:options, shared by the widget (min/max of the picker) and by the
 * form's validation: `minDaysFromToday` / `maxDaysFromToday` (policy start, SPEC §3 initPolicyDate)
 * and `minAgeYears` / `maxAgeYears` (birth date). Dates are ISO `YYYY-MM-DD` in local time.
 */
export function isoDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

export function addDays(base: Date, days: number): Date {
  const d = new Date(base.getFullYear(), base.getMonth(), base.getDate());
  d.setDate(d.getDate() + days);
  return d;
}

function addYears(base: Date, years: number): Date {
  const d = new Date(base.getFullYear(), base.getMonth(), base.getDate());
  d.setFullYear(d.getFullYear() + years);
  return d;
}

export interface DateRules {
  minDaysFromToday?: number;
  maxDaysFromToday?: number;
  minAgeYears?: number;
  maxAgeYears?: number;
}

/** Inclusive ISO bounds implied by the rules on `today`. */
export function dateBounds(rules: DateRules, today: Date): { min?: string; max?: string } {
  const out: { min?: string; max?: string } = {};
  if (rules.minDaysFromToday !== undefined) out.min = isoDate(addDays(today, rules.minDaysFromToday));
  if (rules.maxDaysFromToday !== undefined) out.max = isoDate(addDays(today, rules.maxDaysFromToday));
  if (rules.minAgeYears !== undefined) out.max = isoDate(addYears(today, -rules.minAgeYears));
  if (rules.maxAgeYears !== undefined) out.min = isoDate(addDays(addYears(today, -rules.maxAgeYears - 1), 1));
  return out;
}

/** es-AR long date for messages, e.g. "24/11/2026". */
export function formatDateAr(iso: string): string {
  const [y, m, d] = iso.split('-');
  return y && m && d ? `${d}/${m}/${y}` : iso;
}
