/**
 * Pinned expectations of a journey fixture: the exact money a step shows, so a tariff mistake turns a
 * fixture red. Pure: both replays (headless and browser) observe the flow state the same way, compare it here, and
 * `npm run replay -- --update` rewrites the pins from what was seen.
 *
 * What a step can pin (`expect`, flow/journey.schema.json):
 * - `planes`: `{ <codPlan>: { premio, premioCuota } }` — every plan of the quote the step shows
 *   (state `/data/cotizacion/planes`), ARS to the cent;
 * - `plan`: `{ codPlan, premio, premioCuota, coberturas: { <codCobertura>: sumaAsegurada } }` — the chosen plan as
 *   last priced (state `/data/planElegido`), with every coverage it includes or the visitor chose (`selecc: "S"`).
 * An empty pin (`"planes": {}`) is filled in by `--update`.
 */
import { getAt } from '../core/flow/pointer.ts';

type Json = Record<string, unknown>;

export interface PlanPin {
  premio: number;
  premioCuota: number;
}

export interface ChosenPlanPin extends PlanPin {
  codPlan: string;
  /** Sum insured (ARS) by coverage code, for every coverage selected in the chosen plan. */
  coberturas: Record<string, number>;
}

export interface Pins {
  planes?: Record<string, PlanPin>;
  plan?: ChosenPlanPin;
}

/** One value that differs from its pin. `plan` is the plan code; `field` e.g. `premio` or `cobertura 101`. */
export interface PinMismatch {
  pin: 'planes' | 'plan';
  plan: string;
  field: string;
  expected: number | string | undefined;
  seen: number | string | undefined;
}

const ars = new Intl.NumberFormat('es-AR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A value as a tester reads it in a message: ARS with cents (`12.345,67`), a code as is, or «nada». */
export function showValue(v: number | string | undefined): string {
  return v === undefined ? 'nada' : typeof v === 'number' ? ars.format(v) : v;
}

/** `plan INTERMEDIO: premio esperado 12.345,67, visto 123.456,78` */
export function describeMismatch(m: PinMismatch): string {
  return `plan ${m.plan}: ${m.field} esperado ${showValue(m.expected)}, visto ${showValue(m.seen)}`;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/**
 * What the pins would hold, read from a flow state (`{ data: … }`, as the engine keeps it and localStorage persists it).
 * @returns `planes` when a quote is in the state, `plan` when a plan was chosen; absent otherwise
 */
export function observePins(state: unknown): Pins {
  const out: Pins = {};
  const planes = getAt(state, '/data/cotizacion/planes');
  if (Array.isArray(planes)) {
    out.planes = Object.fromEntries(
      // a field the API no longer sends is left out (never written as null), so --update keeps a valid fixture
      (planes as Json[]).map((p) => [
        String(p.codPlan),
        JSON.parse(JSON.stringify({ premio: num(p.premio), premioCuota: num(p.premioCuota) })) as PlanPin,
      ]),
    );
  }
  const chosen = getAt(state, '/data/planElegido') as Json | undefined;
  if (chosen && typeof chosen === 'object' && chosen.codPlan) {
    const coberturas: Record<string, number> = {};
    for (const list of Object.values((chosen.coberturas ?? {}) as Record<string, Json[]>)) {
      for (const c of Array.isArray(list) ? list : [])
        if (c.selecc === 'S') coberturas[String(c.codCobertura)] = num(c.sumaAsegurada) as number;
    }
    out.plan = {
      codPlan: String(chosen.codPlan),
      premio: num(chosen.premio) as number,
      premioCuota: num(chosen.premioCuota) as number,
      coberturas,
    };
  }
  return out;
}

/**
 * Compares a step's pins with what was observed.
 * @returns every value that differs (empty when the pins hold; a pin left empty, `{}`, is never a mismatch)
 */
export function comparePins(pins: Pins, seen: Pins): PinMismatch[] {
  const out: PinMismatch[] = [];
  if (pins.planes && Object.keys(pins.planes).length) {
    const codes = new Set([...Object.keys(pins.planes), ...Object.keys(seen.planes ?? {})]);
    for (const cod of codes) {
      const want = pins.planes[cod];
      const got = seen.planes?.[cod];
      if (!want || !got) {
        out.push({ pin: 'planes', plan: cod, field: 'plan', expected: want ? cod : undefined, seen: got ? cod : undefined });
        continue;
      }
      for (const f of ['premio', 'premioCuota'] as const)
        if (want[f] !== got[f]) out.push({ pin: 'planes', plan: cod, field: f, expected: want[f], seen: got[f] });
    }
  }
  if (pins.plan && Object.keys(pins.plan).length) {
    const want = pins.plan;
    const got = seen.plan;
    if (!got || got.codPlan !== want.codPlan) {
      out.push({ pin: 'plan', plan: want.codPlan, field: 'plan elegido', expected: want.codPlan, seen: got?.codPlan });
    } else {
      for (const f of ['premio', 'premioCuota'] as const)
        if (want[f] !== got[f]) out.push({ pin: 'plan', plan: want.codPlan, field: f, expected: want[f], seen: got[f] });
      const codes = new Set([...Object.keys(want.coberturas ?? {}), ...Object.keys(got.coberturas)]);
      for (const cod of [...codes].sort()) {
        if (want.coberturas?.[cod] !== got.coberturas[cod]) {
          out.push({
            pin: 'plan',
            plan: want.codPlan,
            field: `suma asegurada ${cod}`,
            expected: want.coberturas?.[cod],
            seen: got.coberturas[cod],
          });
        }
      }
    }
  }
  return out;
}

/** The pins a step declares (`expect.planes`, `expect.plan`), or undefined when it declares none. */
export function pinsOf(expect: Json | undefined): Pins | undefined {
  if (!expect || (expect.planes === undefined && expect.plan === undefined)) return undefined;
  return { planes: expect.planes as Pins['planes'], plan: expect.plan as Pins['plan'] };
}

/** What a replay saw at one pinned step, for `--update`. */
export interface SeenPins {
  index: number;
  seen: Pins;
}

/**
 * Rewrites the pins of a fixture's JSON text from what a replay saw, keeping every other field as it was (the file is
 * re-serialised with 2-space indentation, as the fixtures are written).
 * @param text the fixture file's text
 * @param seenAt per pinned step index, what was observed
 * @returns the new text and one line per changed value: `paso 7 plan INTERMEDIO premio: 12.345,67 → 13.000,00`
 */
export function updatePins(text: string, seenAt: SeenPins[]): { text: string; diff: string[] } {
  const journey = JSON.parse(text) as { steps: { route: string; expect?: Json }[] };
  const diff: string[] = [];
  for (const { index, seen } of seenAt) {
    const exp = journey.steps[index]?.expect;
    const pins = pinsOf(exp);
    if (!exp || !pins) continue;
    if (pins.planes !== undefined && seen.planes) {
      const before = Object.keys(pins.planes).length ? pins.planes : {};
      for (const m of comparePins({ planes: before }, { planes: seen.planes })) diff.push(`paso ${index} ${describeChange(m)}`);
      if (!Object.keys(before).length) diff.push(`paso ${index} planes: fijados ${Object.keys(seen.planes).join(', ')}`);
      exp.planes = seen.planes;
    }
    if (pins.plan !== undefined && seen.plan) {
      if (Object.keys(pins.plan).length)
        for (const m of comparePins({ plan: pins.plan }, { plan: seen.plan })) diff.push(`paso ${index} ${describeChange(m)}`);
      else diff.push(`paso ${index} plan: fijado ${seen.plan.codPlan}`);
      exp.plan = seen.plan;
    }
  }
  return { text: `${JSON.stringify(journey, null, 2)}\n`, diff };
}

function describeChange(m: PinMismatch): string {
  return `plan ${m.plan} ${m.field}: ${showValue(m.expected)} → ${showValue(m.seen)}`;
}

/** Driver options for pins: `update` records what was seen (`onPins`) instead of failing the step. */
export interface PinOptions {
  update?: boolean;
  onPins?: (seen: SeenPins) => void;
}

/**
 * The pin check both replays run when a step starts: observes `state`, reports it to `opts.onPins`, and unless
 * `opts.update`, throws when a pin does not hold.
 * @throws Error listing every differing value (`plan INTERMEDIO: premio esperado 12.345,67, visto 123.456,78; …`)
 */
export function checkPinsAt(index: number, expect: Json | undefined, state: unknown, opts: PinOptions): void {
  const pins = pinsOf(expect);
  if (!pins) return;
  const seen = observePins(state);
  opts.onPins?.({ index, seen });
  if (opts.update) return;
  const bad = comparePins(pins, seen);
  if (bad.length) throw new Error(bad.map(describeMismatch).join('; '));
}
