/** The shared polling loop of the durable-job workers (poller.ts): one round at a time, close awaits, errors logged. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPoller } from './poller.ts';

/** A tick whose rounds end when the test says so; counts rounds and the most that ever ran at once. */
function controlledTick() {
  const pending: Array<(n: number) => void> = [];
  const s = { rounds: 0, active: 0, maxActive: 0 };
  const tick = () => {
    s.rounds++;
    s.active++;
    s.maxActive = Math.max(s.maxActive, s.active);
    return new Promise<number>((resolve) => pending.push(resolve)).finally(() => {
      s.active--;
    });
  };
  /** Ends the oldest round in progress with result `n`. */
  const finish = async (n = 0) => {
    pending.shift()?.(n);
    await vi.advanceTimersByTimeAsync(0);
  };
  return { tick, finish, s, pending };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createPoller', () => {
  it('close() awaits the round in progress, then nothing more runs', async () => {
    const t = controlledTick();
    const poller = createPoller({ tick: t.tick, pollMs: 100, onError: () => undefined });
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(t.s.rounds).toBe(1);

    let closed = false;
    const closing = poller.close().then(() => {
      closed = true;
    });
    expect(poller.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(closed).toBe(false); // the round (which may have claimed jobs) is still running

    await t.finish(3);
    await closing;
    expect(closed).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    poller.wake();
    expect(await poller.tick()).toBe(0);
    expect(t.s.rounds).toBe(1);
  });

  it('never runs two rounds at once: timer, tick() and wake() during a round join it', async () => {
    const t = controlledTick();
    const poller = createPoller({ tick: t.tick, pollMs: 10, onError: () => undefined });
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    const manual = poller.tick();
    for (let i = 0; i < 5; i++) poller.wake();
    await vi.advanceTimersByTimeAsync(500);
    expect(t.s.rounds).toBe(1);
    await t.finish(2);
    expect(await manual).toBe(2); // the manual tick got the result of the round it joined

    for (let i = 0; i < 20; i++) {
      await vi.advanceTimersByTimeAsync(10);
      poller.wake();
      await t.finish();
    }
    expect(t.s.maxActive).toBe(1);
    expect(t.s.rounds).toBeGreaterThan(5);
    const closing = poller.close();
    while (t.pending.length) await t.finish();
    await closing;
  });

  it('a round that throws goes to onError and polling continues', async () => {
    const errores: unknown[] = [];
    let rounds = 0;
    const poller = createPoller({
      tick: async () => {
        rounds++;
        if (rounds <= 2) throw new Error(`base caída ${rounds}`);
        return 0;
      },
      pollMs: 100,
      onError: (err) => errores.push(err),
    });
    poller.start();
    await vi.advanceTimersByTimeAsync(250);
    expect(errores.map((e) => (e as Error).message)).toEqual(['base caída 1', 'base caída 2']);
    expect(rounds).toBe(3);
    await vi.advanceTimersByTimeAsync(100);
    expect(rounds).toBe(4);
    await poller.close();
  });

  it('a synchronous throw and a throwing onError do not stop the loop; tick() resolves 0 on error', async () => {
    let rounds = 0;
    const poller = createPoller({
      tick: () => {
        rounds++;
        throw new Error('síncrono');
      },
      pollMs: 100,
      onError: () => {
        throw new Error('el registro también falla');
      },
    });
    expect(await poller.tick()).toBe(0);
    poller.start();
    await vi.advanceTimersByTimeAsync(200);
    expect(rounds).toBe(4); // the manual one, then at 0, 100 and 200 ms
    await poller.close();
  });

  it('waits pollMs between rounds, or nextDelay(result)', async () => {
    const results = [5, 5, 1, 1];
    const at: number[] = [];
    const poller = createPoller({
      tick: async () => {
        at.push(Date.now());
        return results.shift() ?? 0;
      },
      pollMs: 1_000,
      nextDelay: (n) => (n === 5 ? 0 : 1_000),
      onError: () => undefined,
    });
    const t0 = Date.now();
    poller.start();
    await vi.advanceTimersByTimeAsync(2_500);
    // (a 0 ms timer fires 1 ms later under fake timers, as in Node)
    expect(at.map((t) => Math.round((t - t0) / 100) * 100)).toEqual([0, 0, 0, 1_000, 2_000]);
    await poller.close();
  });

  it('wake() starts a round now; during a round, the next one starts right after it', async () => {
    const t = controlledTick();
    const poller = createPoller({ tick: t.tick, pollMs: 60_000, onError: () => undefined });
    poller.wake(); // not started: nothing
    await vi.advanceTimersByTimeAsync(0);
    expect(t.s.rounds).toBe(0);

    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    await t.finish();
    expect(t.s.rounds).toBe(1);
    poller.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(t.s.rounds).toBe(2);
    poller.wake(); // work queued while round 2 runs
    await t.finish();
    expect(t.s.rounds).toBe(3);
    await t.finish();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(t.s.rounds).toBe(3); // back to pollMs
    const closing = poller.close();
    await vi.advanceTimersByTimeAsync(0);
    await closing;
  });
});
