import { describe, expect, it } from 'vitest';
import { cumpleDiasDesdeHoy, cumpleEdad, edad, esFechaValida, hoyArgentina, rangoDeFechas, sumarAnios, sumarDias } from './dates.ts';

describe('dates relative to today (one module for web and API)', () => {
  it('"today" is the date in Argentina (UTC−3), whatever the machine zone', () => {
    expect(hoyArgentina(new Date('2026-11-23T02:30:00Z'))).toBe('2026-11-22');
    expect(hoyArgentina(new Date('2026-11-23T03:30:00Z'))).toBe('2026-11-23');
  });
  it('calendar helpers', () => {
    expect(esFechaValida('2026-02-29')).toBe(false);
    expect(esFechaValida('2028-02-29')).toBe(true);
    expect(sumarDias('2026-12-31', 1)).toBe('2027-01-01');
    expect(sumarAnios('2028-02-29', 1)).toBe('2029-02-28');
    expect(sumarAnios('2026-12-01', 1)).toBe('2027-12-01');
    expect(edad('2000-11-24', '2026-11-23')).toBe(25);
    expect(edad('2000-11-23', '2026-11-23')).toBe(26);
  });
  it('x-edad 18–99: the 18th birthday is in, the 100th is out; a future date is out; an invalid date is left to format', () => {
    const r = { min: 18, max: 99 };
    expect(cumpleEdad('2008-11-23', r, '2026-11-23')).toBe(true);
    expect(cumpleEdad('2008-11-24', r, '2026-11-23')).toBe(false);
    expect(cumpleEdad('1927-11-24', r, '2026-11-23')).toBe(true);
    expect(cumpleEdad('1926-11-23', r, '2026-11-23')).toBe(false);
    expect(cumpleEdad('2027-01-01', r, '2026-11-23')).toBe(false);
    expect(cumpleEdad('2026-02-30', r, '2026-11-23')).toBe(true);
  });
  it('x-diasDesdeHoy 1–30: tomorrow … today + 30', () => {
    const r = { min: 1, max: 30 };
    expect(cumpleDiasDesdeHoy('2026-11-24', r, '2026-11-23')).toBe(true);
    expect(cumpleDiasDesdeHoy('2026-12-23', r, '2026-11-23')).toBe(true);
    expect(cumpleDiasDesdeHoy('2026-11-23', r, '2026-11-23')).toBe(false);
    expect(cumpleDiasDesdeHoy('2026-12-24', r, '2026-11-23')).toBe(false);
  });
  it('the date picker bounds follow the same keywords', () => {
    expect(rangoDeFechas({ 'x-diasDesdeHoy': { min: 1, max: 30 } }, '2026-11-23')).toEqual({ min: '2026-11-24', max: '2026-12-23' });
    expect(rangoDeFechas({ 'x-edad': { min: 18, max: 99 } }, '2026-11-23')).toEqual({ min: '1926-11-24', max: '2008-11-23' });
    expect(rangoDeFechas(undefined, '2026-11-23')).toEqual({});
  });
});
