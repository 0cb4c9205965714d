/**
 * What the journey recorder (src/recorder/recorder.tsx) writes so that a recording replays as is, any day:
 * dates relative to the day (`$hoy±N`, so a start date stays in the future and a birth date keeps its age), the
 * placeholder phone fitted to the area code's length (ENACOM: area + number = 10 digits, server/src/domain/validation/
 * telefono.ts), the step schemas' own example values kept as typed (test data, not a visitor's), only the calls the
 * step's submit declares (never a timer's, a list's or the funnel's), and the result as expectations (the pinned money
 * of src/recorder/pins.ts, the policy number). Pure.
 */
import { DIGITOS_NACIONALES } from '../core/numeracion.ts';
import type { Flow } from '../core/flow/types.ts';
import { stepById } from '../engine/core/guards.ts';
import { observePins, type Pins } from './pins.ts';

type Json = Record<string, unknown>;

const DAY_MS = 86_400_000;

/** Today in Argentina, YYYY-MM-DD. */
function today(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).format(now);
}

/**
 * A typed date as the replay's relative form: `2026-11-27` recorded on 2026-11-25 → `$hoy+2`; a birth date →
 * `$hoy-N` (the same age, to the day, whenever replayed). Anything that is not a YYYY-MM-DD date is returned as is.
 */
export function relativeDate(value: unknown, now = new Date()): unknown {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T12:00:00Z`))) return value;
  const days = Math.round((Date.parse(`${value}T12:00:00Z`) - Date.parse(`${today(now)}T12:00:00Z`)) / DAY_MS);
  return days === 0 ? '$hoy' : `$hoy${days > 0 ? '+' : ''}${days}`;
}

/** A placeholder subscriber number of the length `areaCod` needs (10 national digits), e.g. 11 → 55551234, 3541 → 555512. */
export function phoneFor(areaCod: string, placeholder = '55551234'): string {
  const digits = DIGITOS_NACIONALES - areaCod.trim().length;
  return placeholder.repeat(2).slice(0, digits);
}

/**
 * A step's answers as recorded: every date relative to today (nested objects too); a replaced phone number
 * (`replacedPhone`: the flow's recorder.replace value) fitted to the recorded area code.
 */
export function recordedAnswers(answers: Json, now = new Date(), replacedPhone?: string): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(answers)) {
    out[k] = v && typeof v === 'object' && !Array.isArray(v) ? recordedAnswers(v as Json, now, replacedPhone) : relativeDate(v, now);
  }
  if (replacedPhone !== undefined && typeof out.areaCod === 'string' && out.phoneNumber === replacedPhone)
    out.phoneNumber = phoneFor(out.areaCod, replacedPhone);
  return out;
}

/**
 * Whether `value` is one of the step schema's own `examples` for `field` (spaces ignored): a documented test value —
 * such as the card or the CBU the payment entity refuses at emission — and not a visitor's data, so the recorder keeps
 * it instead of writing the flow's replacement: a recorded refusal then replays as a refusal, not as a purchase.
 * @param schema the step's JSON Schema (schemas/<step>.schema.json), or undefined when not loaded (nothing is kept)
 */
export function isSchemaExample(schema: unknown, field: string, value: unknown): boolean {
  const examples = (schema as { examples?: unknown } | undefined)?.examples;
  if (!Array.isArray(examples) || (typeof value !== 'string' && typeof value !== 'number')) return false;
  const plain = (v: unknown) => String(v).replace(/\s/g, '');
  return examples.some((e) => e && typeof e === 'object' && field in e && plain((e as Json)[field]) === plain(value));
}

/**
 * Whether a request made while `stepId` submits is one its `onSubmit` declares (method and path; `{param}` segments
 * match any value). The funnel, lists, timers and live re-pricing are not, and are never recorded as expectations.
 */
export function declaredCall(flow: Flow, stepId: string, req: { method: string; path: string }): boolean {
  const refs = stepById(flow, stepId).onSubmit ?? [];
  return refs.some((ref) => {
    const def = flow.calls[typeof ref === 'string' ? ref : ref.call];
    if (!def || def.method !== req.method) return false;
    const want = def.path.split('/');
    const got = req.path.split('?')[0].split('/');
    return want.length === got.length && want.every((seg, i) => /^\{.+\}$/.test(seg) || seg === got[i]);
  });
}

/**
 * The expectations a step gets when the recorder opens it: the money pins that changed since the last ones recorded
 * (`planes` where a quote first shows, `plan` each time the chosen plan is priced anew), and `policyNumber` on a result
 * step once the policy is issued.
 * @param last the pins recorded so far (updated in place)
 */
export function resultExpectations(state: unknown, isResult: boolean, last: Pins): Json {
  const seen = observePins(state);
  const exp: Json = {};
  if (seen.planes && JSON.stringify(seen.planes) !== JSON.stringify(last.planes)) exp.planes = last.planes = seen.planes;
  if (seen.plan && JSON.stringify(seen.plan) !== JSON.stringify(last.plan)) exp.plan = last.plan = seen.plan;
  if (isResult && policyIssued(state)) exp.policyNumber = true;
  return exp;
}

/** Whether the state holds an issued policy number (HOG-YYYY-NNNNNN, as the replays expect it). */
export function policyIssued(state: unknown): boolean {
  const n = (state as { data?: { emision?: { numSecuPol?: unknown } } })?.data?.emision?.numSecuPol;
  return typeof n === 'string' && /^HOG-\d{4}-\d{6}$/.test(n);
}
