// @vitest-environment jsdom -- reads localStorage/sessionStorage and window events as the browser has them
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore, fork, scopeBind } from 'effector';
import { bindActivityListeners, createInactivity, INACTIVITY_TIMEOUT_MS } from './index';

const TEN_MIN = 600_000;

/** A model in a fresh scope, with a counter of `expired` and sync callers for its events. */
function setup() {
  const model = createInactivity();
  const $expiredCount = createStore(0).on(model.expired, (n) => n + 1);
  const scope = fork();
  return {
    expiredCount: () => scope.getState($expiredCount),
    start: scopeBind(model.started, { scope }),
    stop: scopeBind(model.stopped, { scope }),
    act: scopeBind(model.activity, { scope }),
    visibility: scopeBind(model.visibilityChanged, { scope }),
    scope,
    model,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-20T12:00:00-03:00'));
});
afterEach(() => vi.useRealTimers());

describe('createInactivity (SPEC §4, §9)', () => {
  it('uses the 10-minute limit of SPEC §9 by default', () => {
    expect(INACTIVITY_TIMEOUT_MS).toBe(TEN_MIN);
  });

  it('expires at exactly 10 minutes of silence, not at 9:59', async () => {
    const t = setup();
    t.start();
    await vi.advanceTimersByTimeAsync(TEN_MIN - 1_000);
    expect(t.expiredCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(999);
    expect(t.expiredCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.expiredCount()).toBe(1);
  });

  it('restarts the window on every activity', async () => {
    const t = setup();
    t.start();
    await vi.advanceTimersByTimeAsync(9 * 60_000);
    t.act();
    await vi.advanceTimersByTimeAsync(9 * 60_000);
    t.act();
    await vi.advanceTimersByTimeAsync(TEN_MIN - 1);
    expect(t.expiredCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.expiredCount()).toBe(1);
  });

  it('fires once, and stays quiet until started again', async () => {
    const t = setup();
    t.start();
    await vi.advanceTimersByTimeAsync(TEN_MIN);
    t.act(); // activity after expiry does not re-arm
    await vi.advanceTimersByTimeAsync(3 * TEN_MIN);
    expect(t.expiredCount()).toBe(1);

    t.start();
    await vi.advanceTimersByTimeAsync(TEN_MIN);
    expect(t.expiredCount()).toBe(2);
  });

  it('ignores activity before started', async () => {
    const t = setup();
    t.act();
    await vi.advanceTimersByTimeAsync(2 * TEN_MIN);
    expect(t.expiredCount()).toBe(0);
  });

  it('does not fire after stopped', async () => {
    const t = setup();
    t.start();
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    t.stop();
    t.act();
    t.visibility('visible');
    await vi.advanceTimersByTimeAsync(3 * TEN_MIN);
    vi.setSystemTime(Date.now() + 3 * TEN_MIN);
    t.visibility('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(t.expiredCount()).toBe(0);
  });

  it('expires at once when the tab comes back after 10 minutes hidden (timers throttled)', async () => {
    const t = setup();
    t.start();
    await vi.advanceTimersByTimeAsync(60_000);
    t.visibility('hidden');
    // The hidden tab's timers do not run: only the wall clock moves.
    vi.setSystemTime(Date.now() + TEN_MIN);
    expect(t.expiredCount()).toBe(0);
    t.visibility('visible');
    expect(t.expiredCount()).toBe(1);
    // the late debounce timer firing afterwards does not expire twice
    await vi.advanceTimersByTimeAsync(TEN_MIN);
    expect(t.expiredCount()).toBe(1);
  });

  it('keeps the session when the tab comes back before 10 minutes', async () => {
    const t = setup();
    t.start();
    t.visibility('hidden');
    await vi.advanceTimersByTimeAsync(TEN_MIN - 60_000);
    t.visibility('visible');
    expect(t.expiredCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(t.expiredCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1); // the window still ends 10 minutes after the last activity
    expect(t.expiredCount()).toBe(1);
  });

  it('honours a custom timeout and clock', async () => {
    let clock = 1_000;
    const model = createInactivity({ timeoutMs: 5_000, now: () => clock });
    const $count = createStore(0).on(model.expired, (n) => n + 1);
    const scope = fork();
    scopeBind(model.started, { scope })();
    clock += 4_999;
    scopeBind(model.visibilityChanged, { scope })('visible');
    expect(scope.getState($count)).toBe(0);
    clock += 1;
    scopeBind(model.visibilityChanged, { scope })('visible');
    expect(scope.getState($count)).toBe(1);
  });
});

describe('bindActivityListeners', () => {
  it('forwards keydown, click, input and visibility changes until unbound', () => {
    const activity = vi.fn();
    const visibilityChanged = vi.fn();
    const unbind = bindActivityListeners(document, { activity, visibilityChanged });

    const input = document.createElement('input');
    document.body.append(input);
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.click();
    expect(activity).toHaveBeenCalledTimes(3);

    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    visibility.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(visibilityChanged.mock.calls).toEqual([['hidden'], ['visible']]);

    unbind();
    input.click();
    document.dispatchEvent(new Event('visibilitychange'));
    expect(activity).toHaveBeenCalledTimes(3);
    expect(visibilityChanged).toHaveBeenCalledTimes(2);
    input.remove();
  });

  it('counts a key press even when a child stops propagation (capture phase)', () => {
    const activity = vi.fn();
    const unbind = bindActivityListeners(document, { activity, visibilityChanged: vi.fn() });
    const input = document.createElement('input');
    input.addEventListener('keydown', (e) => e.stopPropagation());
    document.body.append(input);
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
    expect(activity).toHaveBeenCalledTimes(1);
    unbind();
    input.remove();
  });

  it('drives a real model: typing keeps the session alive', async () => {
    const t = setup();
    const unbind = bindActivityListeners(document, { activity: t.act, visibilityChanged: t.visibility });
    t.start();
    await vi.advanceTimersByTimeAsync(TEN_MIN - 1);
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'x', bubbles: true }));
    await vi.advanceTimersByTimeAsync(TEN_MIN - 1);
    expect(t.expiredCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.expiredCount()).toBe(1);
    unbind();
  });
});
