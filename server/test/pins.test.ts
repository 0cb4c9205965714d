/**
 * Pins compare to the cent and --update (updatePins) rewrites them whole whatever the API's plans become —
 * values changed (e.g. another cuota rounding), a plan added or gone, a field no longer sent — leaving a fixture that
 * is still valid and names every change in its diff.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadReplayProduct, tariffOptions } from '../../scripts/replay.ts';
import { checkJourney } from '../../tools/replay/check.ts';
import { comparePins, describeMismatch, observePins, updatePins } from '../../src/recorder/pins.ts';

const text = readFileSync('tests/fixtures/journeys/compra-tarjeta-casa.json', 'utf8');
const shipped = JSON.parse(text);
const planesAt = shipped.steps.findIndex((s: { expect?: { planes?: unknown } }) => s.expect?.planes);
const planAt = shipped.steps.findIndex((s: { expect?: { plan?: unknown } }) => s.expect?.plan);
const pinned = shipped.steps[planesAt].expect.planes;

describe('pins', () => {
  it('one cent off is a mismatch naming plan, field, expected and seen', () => {
    const seen = { planes: { ...pinned, BASICO: { ...pinned.BASICO, premioCuota: pinned.BASICO.premioCuota + 0.01 } } };
    expect(comparePins({ planes: pinned }, seen).map(describeMismatch)).toEqual([
      'plan BASICO: premioCuota esperado 12.318,07, visto 12.318,08',
    ]);
    expect(comparePins({ planes: pinned }, { planes: pinned })).toEqual([]);
    expect(comparePins({ planes: {} }, seen)).toEqual([]); // an empty pin waits for --update
  });

  it('observes the chosen plan with the sums insured of the selected coverages only', () => {
    const state = {
      data: {
        planElegido: {
          codPlan: 'BASICO',
          premio: 10,
          premioCuota: 1,
          coberturas: {
            primary: [{ codCobertura: '101', sumaAsegurada: 5, selecc: 'S' }],
            optional: [{ codCobertura: '501', sumaAsegurada: 7, selecc: 'N' }],
          },
        },
      },
    };
    expect(observePins(state)).toEqual({ plan: { codPlan: 'BASICO', premio: 10, premioCuota: 1, coberturas: { 101: 5 } } });
  });

  it('--update rewrites the pins whole after the plans change shape, and the fixture stays valid', () => {
    // a new rounding: premioCuota no longer sent, a plan gone, another added; the chosen plan repriced
    const seenPlanes = { BASICO: { premio: 150000 }, INTERMEDIO: { premio: 330000 }, PREMIUM: { premio: 600000 } };
    const seenPlan = { codPlan: 'INTERMEDIO', premio: 330000, premioCuota: 27500, coberturas: { 101: 90000000 } };
    const { text: after, diff } = updatePins(text, [
      { index: planesAt, seen: { planes: seenPlanes as never } },
      { index: planAt, seen: { plan: seenPlan } },
    ]);
    const j = JSON.parse(after);
    expect(j.steps[planesAt].expect.planes).toEqual(seenPlanes);
    expect(j.steps[planAt].expect.plan).toEqual(seenPlan);
    expect(diff).toContain(`paso ${planesAt} plan BASICO premio: 147.816,81 → 150.000,00`);
    expect(diff).toContain(`paso ${planesAt} plan BASICO premioCuota: 12.318,07 → nada`);
    expect(diff).toContain(`paso ${planesAt} plan INTEGRAL plan: INTEGRAL → nada`);
    expect(diff).toContain(`paso ${planesAt} plan PREMIUM plan: nada → PREMIUM`);
    expect(diff).toContain(`paso ${planAt} plan INTERMEDIO suma asegurada 102: 16.000.000,00 → nada`);
    // everything else in the file is as it was
    expect({ ...j, steps: j.steps.map((s: { expect?: object }, i: number) => (i === planesAt || i === planAt ? null : s)) }).toEqual({
      ...shipped,
      steps: shipped.steps.map((s: object, i: number) => (i === planesAt || i === planAt ? null : s)),
    });
    expect(
      checkJourney(j, loadReplayProduct('.'), { ...tariffOptions(), '/data/cotizacion/planes': ['BASICO', 'INTERMEDIO', 'PREMIUM'] }),
    ).toEqual([]);
  });
});
