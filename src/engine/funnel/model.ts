/**
 * The staff's step funnel: every step the visitor is SHOWN and every step they SUBMIT
 * (the flow accepted it and moved on) becomes an event, queued in the browser and sent in batches through the call
 * the flow names for it (flow.json › funnel.call; its body reads `/input`, a {@link FunnelBatch}).
 *
 * - No personal data: an event holds the step id, the kind, the browser's time and a random journey id made here
 *   (never the session key, the quote or anything typed).
 * - Never in the visitor's way: recording only appends to a queue; sending happens on a timer (`batchMs`) and when the
 *   page is hidden, and a failed or slow send is only logged to the console — the journey does not wait for it.
 * - Bounded: a batch holds at most `maxBatch` events (schemas/api/embudo.json › EventosBody.eventos.maxItems, passed
 *   in by the runtime); a queue that cannot be sent keeps at most {@link MAX_QUEUED} events (oldest dropped).
 *
 * - Synthetic journeys marked: a journey driven by a replay, the staff preview, the recorder or a test sends its batches
 *   with `sintetico: true` (opts.synthetic; in the browser {@link isSyntheticBrowser}); the report leaves them out.
 * - Branches by a choice: a step named in flow.json › funnel.splitBy carries, on its `enviado`, the value of the named
 *   field (an enum of its schema, never typed text) as `rama` (e.g. TC or CBU on metodo-de-pago).
 *
 * The model names no step: it listens to the engine's `$currentStep` (shown) and `submitFx.done` (submitted).
 */
import { attach, createEffect, createEvent, createStore, sample, type Effect, type EventCallable, type Store } from 'effector';
import { interval } from 'patronum';
import type { FlowEngine } from '../model';

export { isSyntheticBrowser, markSynthetic, SYNTHETIC_STORAGE_KEY } from './synthetic.ts';

/** One funnel event (schemas/api/embudo.json › Evento). `en`: the browser's time, ISO 8601. */
export interface FunnelEvent {
  recorrido: string;
  paso: string;
  tipo: 'mostrado' | 'enviado';
  en: string;
  /** Only on an `enviado` of a step in flow.json › funnel.splitBy: the chosen value. */
  rama?: string;
}

/** The body of the funnel call (schemas/api/embudo.json › EventosBody). */
export interface FunnelBatch {
  versionFlujo: number;
  eventos: FunnelEvent[];
  /** Present (true) only when the journey is a replay's, the staff preview's, the recorder's or a test's. */
  sintetico?: true;
}

/** Events kept while sends keep failing; past it the oldest are dropped (a funnel is statistics, not a ledger). */
export const MAX_QUEUED = 500;

/** Session-storage key of this tab's funnel journey id (a random UUID, renewed when the visitor starts over). */
export const JOURNEY_STORAGE_KEY = 'cotizador-hogar:embudo';

/** A random UUID v4 (`crypto.randomUUID`, or built from `crypto.getRandomValues` outside secure contexts). */
export function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * This tab's journey id: the one in `sessionStorage[JOURNEY_STORAGE_KEY]` (a reload continues the journey), or a new
 * one (stored) when absent or when `renew`. Storage failures are tolerated: a fresh id is returned.
 */
export function journeyId(storage: Storage | undefined, renew = false): string {
  try {
    const existing = renew ? null : storage?.getItem(JOURNEY_STORAGE_KEY);
    if (existing) return existing;
    const id = randomUuid();
    storage?.setItem(JOURNEY_STORAGE_KEY, id);
    return id;
  } catch (error) {
    console.error('[embudo] No se pudo usar el id de recorrido', error);
    return randomUuid();
  }
}

/** Splits `events` into batches of at most `max` events for flow version `version`, marked when `synthetic`. */
export function toBatches(events: FunnelEvent[], max: number, version: number, synthetic = false): FunnelBatch[] {
  const out: FunnelBatch[] = [];
  for (let i = 0; i < events.length; i += max)
    out.push({ versionFlujo: version, eventos: events.slice(i, i + max), ...(synthetic ? { sintetico: true as const } : {}) });
  return out;
}

/** The funnel model returned by {@link createFunnel}. */
export interface FunnelModel {
  /** Time to send what is queued (the `batchMs` timer). */
  flushed: EventCallable<void>;
  /** The page is being hidden or left: what is queued goes through `exitFx` (keepalive). */
  pageHidden: EventCallable<void>;
  /** Events not sent yet. */
  $queue: Store<FunnelEvent[]>;
  /** This journey's random id. */
  $journey: Store<string>;
  /** Sends batches while the page lives: the flow's call through the engine (`callFx`). Rejects when one failed. */
  sendFx: Effect<FunnelBatch[], void>;
  /** Sends batches as the page goes away (runtime: `fetch` with `keepalive`). Default: like `sendFx`. */
  exitFx: Effect<FunnelBatch[], void>;
  /** Renews the journey id (the visitor started over or the session expired). */
  renewJourneyFx: Effect<void, string>;
}

/**
 * Wires the funnel to `engine`.
 * @param opts.call the flow call that takes a {@link FunnelBatch} as `/input` (flow.json › funnel.call)
 * @param opts.maxBatch events per batch (schemas/api/embudo.json › EventosBody.eventos.maxItems)
 * @param opts.journey the journey id to start with, and `renew()` for a new one (see {@link journeyId})
 * @param opts.synthetic whether this journey is synthetic (read as each event is recorded; default: never)
 * @param opts.now clock in ms since epoch (default `Date.now`)
 */
export function createFunnel(opts: {
  engine: Pick<FlowEngine, 'flow' | '$currentStep' | 'submitFx' | 'callFx' | 'restartClicked' | 'sessionExpired'>;
  call: string;
  maxBatch: number;
  journey: { initial: string; renew: () => string };
  synthetic?: () => boolean;
  now?: () => number;
}): FunnelModel {
  const { engine } = opts;
  const now = opts.now ?? (() => Date.now());
  const version = engine.flow.version;

  const flushed = createEvent();
  const pageHidden = createEvent();
  const recorded = createEvent<{ paso: string; tipo: FunnelEvent['tipo']; rama?: string }>();
  const splitBy = engine.flow.funnel?.splitBy ?? {};

  const renewJourneyFx = createEffect(() => opts.journey.renew());
  const $journey = createStore(opts.journey.initial).on(renewJourneyFx.doneData, (_, id) => id);
  const stampFx = createEffect((e: Omit<FunnelEvent, 'en'>) => ({
    event: { ...e, en: new Date(now()).toISOString() },
    synthetic: opts.synthetic?.() === true,
  }));
  const $queue = createStore<FunnelEvent[]>([]).on(stampFx.doneData, (queue, r) => [...queue, r.event].slice(-MAX_QUEUED));
  // once marked, a tab stays marked: the whole journey is left out of the report
  const $synthetic = createStore(false).on(stampFx.doneData, (was, r) => was || r.synthetic);

  const postFx = attach({ effect: engine.callFx, mapParams: (batch: FunnelBatch) => ({ name: opts.call, input: batch }) });
  const sendFx = createEffect(async (batches: FunnelBatch[]) => {
    // every post starts before the first await, so each runs in the caller's scope
    const results = await Promise.allSettled(batches.map((b) => postFx(b)));
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  });
  const exitFx = createEffect((batches: FunnelBatch[]) => sendFx(batches));
  const reportFx = createEffect((error: unknown) => console.error('[embudo] No se pudieron enviar los eventos del embudo', error));

  // when a step is shown, then it is recorded
  sample({
    clock: engine.$currentStep.updates,
    filter: Boolean,
    fn: (paso: string) => ({ paso, tipo: 'mostrado' as const }),
    target: recorded,
  });
  // when a submit is accepted (the flow moves on), then the step is recorded as submitted
  // (with the chosen value of the field flow.json › funnel.splitBy names for that step, when it is a short code)
  sample({
    clock: engine.submitFx.done,
    filter: ({ result }) => result.kind === 'next',
    fn: ({ params }) => {
      const field = splitBy[params.stepId];
      const value = field === undefined ? undefined : params.formData[field];
      const rama = typeof value === 'string' && /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/.test(value) ? value : undefined;
      return { paso: params.stepId, tipo: 'enviado' as const, ...(rama ? { rama } : {}) };
    },
    target: recorded,
  });
  // each event carries this journey's id and the time
  sample({ clock: recorded, source: $journey, fn: (recorrido, e) => ({ recorrido, ...e }), target: stampFx });
  // when the visitor starts over or the session expires, then the next events belong to a new journey
  sample({ clock: [engine.restartClicked, engine.sessionExpired], target: renewJourneyFx });

  // when it is time (timer) or the page goes away, then the queue is taken whole and sent in bounded batches
  const take = (clock: EventCallable<void>) =>
    sample({
      clock,
      source: { q: $queue, synthetic: $synthetic },
      filter: ({ q }) => q.length > 0,
      fn: ({ q, synthetic }) => toBatches(q, opts.maxBatch, version, synthetic),
    });
  const toSend = take(flushed);
  const toSendOnExit = take(pageHidden);
  $queue.reset(toSend, toSendOnExit);
  sample({ clock: toSend, target: sendFx });
  sample({ clock: toSendOnExit, target: exitFx });
  // a failed send is only logged: the events are dropped (they may have arrived), the visitor never notices
  sample({ clock: [sendFx.failData, exitFx.failData], target: reportFx });

  return { flushed, pageHidden, $queue, $journey, sendFx, exitFx, renewJourneyFx };
}

/**
 * Starts the funnel's clock and page listeners: `flushed` every `batchMs` (patronum `interval`), `pageHidden` on
 * `pagehide` and when the document becomes hidden (the last reliable moment on mobile). @returns a function that stops them
 */
export function bindFunnel(target: Window, funnel: Pick<FunnelModel, 'flushed' | 'pageHidden'>, batchMs: number): () => void {
  const clockStarted = createEvent();
  const clockStopped = createEvent();
  const { tick } = interval({ timeout: batchMs, start: clockStarted, stop: clockStopped });
  // when the clock ticks, then the queued events are sent
  sample({ clock: tick, target: funnel.flushed });
  const onHide = () => funnel.pageHidden();
  const onVisibility = () => {
    if (target.document.visibilityState === 'hidden') funnel.pageHidden();
  };
  target.addEventListener('pagehide', onHide);
  target.document.addEventListener('visibilitychange', onVisibility);
  clockStarted();
  return () => {
    clockStopped();
    target.removeEventListener('pagehide', onHide);
    target.document.removeEventListener('visibilitychange', onVisibility);
  };
}
