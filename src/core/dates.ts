/**
 * Dates relative to today — the ONE implementation of the step schemas' date keywords, used by the web form's
 * precompiled validators (tools/validators/compile.ts), the date picker's bounds (DateWidget) and the API server's
 * Ajv (server/src/plugins/schemas.ts, through ./date-keywords.ts):
 * - `"x-edad": { "min": 18, "max": 99 }` — age in whole years today, from a birth date (SPEC §3 birthDate);
 * - `"x-diasDesdeHoy": { "min": 1, "max": 30 }` — days from today (SPEC §3 initPolicyDate: tomorrow … +30).
 * Dates are calendar dates `YYYY-MM-DD`; "today" is the date in Argentina (America/Argentina/Buenos_Aires), whatever
 * the device's or server's time zone. Pure: no I/O, `now` injectable.
 */

/** Time zone of "today" for every date rule. */
export const ZONA_HORARIA = 'America/Argentina/Buenos_Aires';

/** Created on first use: building it loads the time-zone data, a long task a page that shows no date need not pay. */
let fmt: Intl.DateTimeFormat | undefined;

/**
 * The last answer and the whole second (epoch s) it is for: the server asks once or more per request, and formatting
 * in a time zone costs tens of µs. Exact: a day in any zone begins on a whole second (offsets are whole seconds).
 */
let ultimo: { segundo: number; hoy: string } | undefined;

/** Today's date in Argentina, "YYYY-MM-DD". @param now instant (default: the current time) */
export function hoyArgentina(now: Date = new Date()): string {
  const segundo = Math.floor(now.getTime() / 1000);
  if (ultimo?.segundo === segundo) return ultimo.hoy;
  fmt ??= new Intl.DateTimeFormat('en-CA', { timeZone: ZONA_HORARIA, year: 'numeric', month: '2-digit', day: '2-digit' });
  const hoy = fmt.format(now);
  ultimo = { segundo, hoy };
  return hoy;
}

/** True when `s` is a real calendar date "YYYY-MM-DD" (e.g. rejects 2026-02-30). */
export function esFechaValida(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

/** Adds `dias` calendar days (may be negative) to a "YYYY-MM-DD" date. */
export function sumarDias(fecha: string, dias: number): string {
  const d = new Date(`${fecha}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + dias);
  return d.toISOString().slice(0, 10);
}

/** Adds `anios` years (may be negative) to a "YYYY-MM-DD" date (29 Feb → 28 Feb on non-leap years). */
export function sumarAnios(fecha: string, anios: number): string {
  const y = String(Number(fecha.slice(0, 4)) + anios).padStart(4, '0');
  const candidate = `${y}-${fecha.slice(5)}`;
  return esFechaValida(candidate) ? candidate : `${y}-${fecha.slice(5, 8)}${String(Number(fecha.slice(8, 10)) - 1).padStart(2, '0')}`;
}

/** Age in whole years on `hoy` of someone born on `nacimiento` (both "YYYY-MM-DD"). */
export function edad(nacimiento: string, hoy: string): number {
  const years = Number(hoy.slice(0, 4)) - Number(nacimiento.slice(0, 4));
  return hoy.slice(5) < nacimiento.slice(5) ? years - 1 : years;
}

/** Inclusive bounds of a date keyword: `min`/`max` in years (`x-edad`) or days from today (`x-diasDesdeHoy`). */
export interface Rango {
  min?: number;
  max?: number;
}

/**
 * `x-edad`: the person born on `fecha` is `min`…`max` whole years old today.
 * @returns true also when `fecha` is not a valid date (that is `format: date`'s message, not this one)
 */
export function cumpleEdad(fecha: string, rango: Rango, hoy: string = hoyArgentina()): boolean {
  if (!esFechaValida(fecha)) return true;
  if (fecha > hoy) return false;
  const e = edad(fecha, hoy);
  return (rango.min === undefined || e >= rango.min) && (rango.max === undefined || e <= rango.max);
}

/**
 * `x-diasDesdeHoy`: `fecha` is from today + `min` to today + `max` days, inclusive.
 * @returns true also when `fecha` is not a valid date (left to `format: date`)
 */
export function cumpleDiasDesdeHoy(fecha: string, rango: Rango, hoy: string = hoyArgentina()): boolean {
  if (!esFechaValida(fecha)) return true;
  return (rango.min === undefined || fecha >= sumarDias(hoy, rango.min)) && (rango.max === undefined || fecha <= sumarDias(hoy, rango.max));
}

/**
 * Inclusive "YYYY-MM-DD" bounds the date keywords of a field schema allow today (the date picker's min/max).
 * `x-edad` { min: 18, max: 99 } → max = today − 18 years, min = today − 100 years + 1 day.
 */
export function rangoDeFechas(
  schema: { 'x-edad'?: Rango; 'x-diasDesdeHoy'?: Rango } | undefined,
  hoy: string = hoyArgentina(),
): { min?: string; max?: string } {
  const out: { min?: string; max?: string } = {};
  const dias = schema?.['x-diasDesdeHoy'];
  if (dias?.min !== undefined) out.min = sumarDias(hoy, dias.min);
  if (dias?.max !== undefined) out.max = sumarDias(hoy, dias.max);
  const anios = schema?.['x-edad'];
  if (anios?.min !== undefined) out.max = sumarAnios(hoy, -anios.min);
  if (anios?.max !== undefined) out.min = sumarDias(sumarAnios(hoy, -anios.max - 1), 1);
  return out;
}

/** es-AR date for messages, e.g. "24/11/2026". */
export function formatDateAr(iso: string): string {
  const [y, m, d] = iso.split('-');
  return y && m && d ? `${d}/${m}/${y}` : iso;
}
