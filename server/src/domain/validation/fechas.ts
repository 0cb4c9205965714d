/**
 * Date rules. All dates are "YYYY-MM-DD" calendar dates in Argentina's time zone (America/Argentina/Buenos_Aires, UTC−3).
 */
import { invalido, type Validacion } from './result.ts';

const fmt = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Argentina/Buenos_Aires', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today's date in Argentina, "YYYY-MM-DD". @param now instant (default: the current time) */
export function hoyArgentina(now: Date = new Date()): string {
  return fmt.format(now);
}

/** True when `s` is a real calendar date "YYYY-MM-DD" (e.g. rejects 2026-02-30). */
export function esFechaValida(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

/** Adds `dias` calendar days to a "YYYY-MM-DD" date. */
export function sumarDias(fecha: string, dias: number): string {
  const d = new Date(`${fecha}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + dias);
  return d.toISOString().slice(0, 10);
}

/** Adds `anios` years to a "YYYY-MM-DD" date (29 Feb → 28 Feb on non-leap years). */
export function sumarAnios(fecha: string, anios: number): string {
  const [y, m, d] = fecha.split('-').map(Number);
  const candidate = `${String(y + anios).padStart(4, '0')}-${fecha.slice(5, 7)}-${fecha.slice(8, 10)}`;
  return esFechaValida(candidate) ? candidate : `${String(y + anios).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d - 1).padStart(2, '0')}`;
}

export const EDAD_MINIMA = 18;
export const EDAD_MAXIMA = 99;
export const MENSAJE_EDAD = `Para contratar tenés que tener entre ${EDAD_MINIMA} y ${EDAD_MAXIMA} años.`;

/** Age in whole years on `hoy` of someone born on `nacimiento` (both "YYYY-MM-DD"). */
export function edad(nacimiento: string, hoy: string): number {
  const years = Number(hoy.slice(0, 4)) - Number(nacimiento.slice(0, 4));
  return hoy.slice(5) < nacimiento.slice(5) ? years - 1 : years;
}

/**
 * Buyer's age must be 18–99 on `hoy` (legal age of majority, Código Civil y Comercial art. 25; 99 = product limit).
 * @returns `{ valido: true }` or invalid with the Spanish message
 */
export function validarEdad(birthDate: string, hoy: string): Validacion {
  if (!esFechaValida(birthDate) || birthDate > hoy) return invalido('Ingresá una fecha de nacimiento válida.');
  const e = edad(birthDate, hoy);
  return e >= EDAD_MINIMA && e <= EDAD_MAXIMA ? { valido: true } : invalido(MENSAJE_EDAD);
}

export const VIGENCIA_MAX_DIAS = 30;
export const MENSAJE_VIGENCIA = `La cobertura tiene que empezar entre mañana y dentro de ${VIGENCIA_MAX_DIAS} días.`;

/**
 * Policy start date (initPolicyDate): from tomorrow to today + 30 days, inclusive.
 * @returns `{ valido: true }` or invalid with the Spanish message
 */
export function validarInicioVigencia(initPolicyDate: string, hoy: string): Validacion {
  if (!esFechaValida(initPolicyDate)) return invalido('Ingresá una fecha válida.');
  return initPolicyDate >= sumarDias(hoy, 1) && initPolicyDate <= sumarDias(hoy, VIGENCIA_MAX_DIAS) ? { valido: true } : invalido(MENSAJE_VIGENCIA);
}
