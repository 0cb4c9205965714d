/**
 * The polling loop shared by this instance's durable-job workers (emission: domain/emision/service.ts; e-mail
 * outbox: domain/correo/outbox.ts). The jobs themselves live in the database; the poller only decides when to look.
 *
 * Semantics:
 * - One round at a time: `tick` never overlaps itself. A round asked for while one is running (by the timer,
 *   `tick()` or `wake()`) joins it instead of starting another.
 * - After each scheduled round the next one starts `nextDelay(result)` ms later (default: `pollMs`). `wake()` asks
 *   for a round now; while a round is running it makes the next round start as soon as that one ends (the work that
 *   prompted it may have been queued too late for the running round to see it).
 * - A round that throws is reported to `onError` and counts as result 0; polling goes on (the database may be
 *   away: a later round retries).
 * - `close()` stops scheduling and resolves once the round in progress (if any) has ended, so a job that round
 *   claims during shutdown is known to the worker and can be waited for or handed back. After `close()`, `tick()`
 *   resolves 0 without running a round and `wake()` does nothing; `closed` tells a round in progress to stop
 *   claiming and hand back what it holds.
 */

export interface PollerOptions {
  /** One round: look for work and do (or start) it. @returns how much work it found (e.g. jobs claimed) */
  tick: () => Promise<number>;
  /** Delay between rounds, ms. */
  pollMs: number;
  /** Delay before the round after one that returned `result`, ms (default: always `pollMs`). */
  nextDelay?: (result: number) => number;
  /** Called with the error of a round that threw; the loop continues. */
  onError: (err: unknown) => void;
}

export interface Poller {
  /** Starts polling (first round at once). No-op when already started or closed. */
  start(): void;
  /** Runs a round now, or joins the one in progress; does not change the schedule. @returns its result (0 on error or after close) */
  tick(): Promise<number>;
  /** Looks for work now (after enqueuing some). No-op unless started. */
  wake(): void;
  /** Stops scheduling and awaits the round in progress. */
  close(): Promise<void>;
  /** True once `close()` was called. */
  readonly closed: boolean;
}

/** Creates a poller for `opts.tick`; nothing runs until `start()` (or a manual `tick()`). */
export function createPoller(opts: PollerOptions): Poller {
  const { pollMs, onError } = opts;
  const nextDelay = opts.nextDelay ?? (() => pollMs);
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let closed = false;
  let ticking: Promise<number> | undefined;
  let looping = false; // a scheduled round is running; its end schedules the next
  let again = false; // wake() during that round: the next one starts right after it

  function runTick(): Promise<number> {
    if (closed) return ticking ?? Promise.resolve(0);
    ticking ??= Promise.resolve()
      .then(() => opts.tick())
      .catch((err: unknown) => {
        try {
          onError(err);
        } catch {
          // a failing error reporter must not stop the loop
        }
        return 0;
      })
      .finally(() => {
        ticking = undefined;
      });
    return ticking;
  }

  /** A scheduled round: runs (or joins) a round, then schedules the next one. */
  function loop(): void {
    timer = undefined;
    const joined = ticking !== undefined; // a manual round already running may have started before the work arrived
    again = false;
    looping = true;
    void runTick().then((result) => {
      looping = false;
      schedule(again || joined ? 0 : nextDelay(result));
    });
  }

  function schedule(ms: number): void {
    if (!running || closed) return;
    clearTimeout(timer);
    timer = setTimeout(loop, ms);
  }

  return {
    start() {
      if (running || closed) return;
      running = true;
      schedule(0);
    },
    tick: runTick,
    wake() {
      if (!running || closed) return;
      if (looping)
        again = true; // its end schedules the next round
      else schedule(0);
    },
    async close() {
      closed = true;
      running = false;
      clearTimeout(timer);
      timer = undefined;
      await ticking;
    },
    get closed() {
      return closed;
    },
  };
}
