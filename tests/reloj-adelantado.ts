/**
 * Test-only: a Node process on a later day. Preload it (`node --import ./tests/reloj-adelantado.ts …`) with
 * `RELOJ_ADELANTO_DIAS=N` (fractions allowed: 200.25 is 200 days and 6 hours) and every `Date` of that process —
 * `new Date()`, `Date.now()`, so the API's and the engine's "today" (src/core/dates.ts › hoyArgentina) and the
 * fixtures' `$hoy+N` (tools/replay/fixture.ts › resolveAnswer) — is N days later than the machine's clock, and keeps
 * ticking. Timers, `performance.now()` and explicit dates (`new Date(ms)`, `new Date('2026-01-01')`) are untouched.
 * No product code reads anything of this: production never loads it. Used by tests/e2e/recorder-otro-dia.spec.ts
 * (the recorded journey replayed 200 days later).
 */
const dias = Number(process.env.RELOJ_ADELANTO_DIAS ?? 0);
if (!Number.isFinite(dias)) throw new Error(`RELOJ_ADELANTO_DIAS: «${process.env.RELOJ_ADELANTO_DIAS}» no es un número de días`);

if (dias !== 0) {
  const RealDate = Date;
  const offset = dias * 86_400_000;
  /** Date with the clock moved `dias` days on (only when built without arguments, and `Date.now()`). */
  const Adelantada = function (this: unknown, ...args: unknown[]) {
    if (!new.target) return new RealDate(RealDate.now() + offset).toString();
    return Reflect.construct(RealDate, args.length ? args : [RealDate.now() + offset], new.target);
  } as unknown as DateConstructor;
  Object.setPrototypeOf(Adelantada, RealDate);
  Object.defineProperty(Adelantada, 'prototype', { value: RealDate.prototype });
  Adelantada.now = () => RealDate.now() + offset;
  globalThis.Date = Adelantada;
}
