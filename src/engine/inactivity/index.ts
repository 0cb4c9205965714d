/**
 * Session inactivity (SPEC §4 "10 minutes without keydown, click, input, or with the tab hidden, ends
 * the session"; §9 limit 600000 ms).
 * The model only says *that* the session expired; what to clear is decided by whoever listens to
 * `expired` (flags/quote unless in success or error, campaign keys always — SPEC §4).
 */
import { attach, createEffect, createEvent, createStore, sample, type Event, type EventCallable } from 'effector';
import { debounce } from 'patronum';

/** SPEC §9: session inactivity limit, in milliseconds. */
export const INACTIVITY_TIMEOUT_MS = 600_000;

/** Page visibility as reported by `document.visibilityState`. */
export type Visibility = 'visible' | 'hidden';

/** The inactivity model returned by {@link createInactivity}. */
export interface InactivityModel {
  /** A keydown, click or input happened: restarts the window (ignored while disarmed). */
  activity: EventCallable<void>;
  /** The tab became visible or hidden (`visibilitychange`). */
  visibilityChanged: EventCallable<Visibility>;
  /** Arms the timer (session start, e.g. app mounted or a new journey). */
  started: EventCallable<void>;
  /** Disarms the timer; no `expired` until `started` again. */
  stopped: EventCallable<void>;
  /** The session ended: `timeoutMs` without activity. Fires once per `started`. */
  expired: Event<void>;
}

/**
 * Creates the inactivity timer (SPEC §4, §9).
 * `expired` fires `timeoutMs` after the last `started`/`activity` (patronum `debounce`). Hidden tabs
 * throttle timers, so when the tab becomes visible and `now() - lastActivity >= timeoutMs`, `expired`
 * fires at once: time spent hidden counts as inactivity. After `expired` the model is disarmed.
 * @param opts.timeoutMs window in ms, default 600000 (SPEC §9).
 * @param opts.now clock in ms since epoch, default `Date.now`.
 */
export function createInactivity(opts: { timeoutMs?: number; now?: () => number } = {}): InactivityModel {
  const timeoutMs = opts.timeoutMs ?? INACTIVITY_TIMEOUT_MS;
  const now = opts.now ?? (() => Date.now());

  const activity = createEvent<void>();
  const visibilityChanged = createEvent<Visibility>();
  const started = createEvent<void>();
  const stopped = createEvent<void>();
  const expired = createEvent<void>();
  const windowRestarted = createEvent<void>();

  const $armed = createStore(false)
    .on(started, () => true)
    .on([stopped, expired], () => false);

  const readClockFx = createEffect<void, number>(() => now());
  const $lastActivityAt = createStore(0).on(readClockFx.doneData, (_, at) => at);
  const measureSilenceFx = attach({ source: $lastActivityAt, effect: (lastAt: number) => now() - lastAt });

  // when the session starts, then open a new window
  sample({ clock: started, target: windowRestarted });

  // when the user acts while armed, then open a new window
  sample({ clock: activity, filter: $armed, target: windowRestarted });

  // when a window opens, then remember when
  sample({ clock: windowRestarted, target: readClockFx });

  const silenceElapsed = debounce({ source: windowRestarted, timeout: timeoutMs });

  // when the window elapses with no newer activity and the timer is armed, then the session expires
  sample({ clock: silenceElapsed, filter: $armed, target: expired });

  const tabShown = sample({ clock: visibilityChanged, filter: (state) => state === 'visible' });

  // when the tab becomes visible while armed, then measure the silence (hidden tabs delay timers)
  sample({ clock: tabShown, filter: $armed, target: measureSilenceFx });

  // when the measured silence reaches the limit and the timer is still armed, then the session expires
  sample({
    clock: measureSilenceFx.doneData,
    source: $armed,
    filter: (armed, silenceMs) => armed && silenceMs >= timeoutMs,
    target: expired,
  });

  return { activity, visibilityChanged, started, stopped, expired };
}

/** DOM events that count as activity (SPEC §4: keydown, click, input). */
const ACTIVITY_EVENTS = ['keydown', 'click', 'input'] as const;

/**
 * Connects the document to the model: keydown/click/input (capture phase, passive) → `activity`,
 * `visibilitychange` → `visibilityChanged(document.visibilityState)` (SPEC §4).
 * With a forked scope, pass `scopeBind`-ed callbacks.
 * @returns a function that removes every listener it added.
 */
export function bindActivityListeners(
  doc: Document,
  model: { activity: () => void; visibilityChanged: (state: Visibility) => void },
): () => void {
  const onActivity = () => model.activity();
  const onVisibility = () => model.visibilityChanged(doc.visibilityState === 'hidden' ? 'hidden' : 'visible');
  const options = { capture: true, passive: true };
  for (const type of ACTIVITY_EVENTS) doc.addEventListener(type, onActivity, options);
  doc.addEventListener('visibilitychange', onVisibility);
  return () => {
    for (const type of ACTIVITY_EVENTS) doc.removeEventListener(type, onActivity, options);
    doc.removeEventListener('visibilitychange', onVisibility);
  };
}
