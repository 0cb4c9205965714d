/**
 * Waits until a page has settled — no request in flight and nothing marked busy — as soon as that is true, instead of
 * Playwright's `networkidle`, which only waits on a page's first load (after it, every step of a single-page app got
 * it back at once, having waited for nothing). Works against any deployment: it reads only the page's requests and
 * the DOM's `aria-busy`.
 */
import type { Page, Request } from '@playwright/test';

interface Tracker {
  /** Requests started and not finished or failed yet. */
  inFlight: Set<Request>;
  /** Requests started since tracking began (to see one start while the page is being checked). */
  started: number;
  /** Called on every request event. */
  listeners: Set<() => void>;
}

const trackers = new WeakMap<Page, Tracker>();

/**
 * Starts counting the requests `page` has in flight (once per page). Call it before the page's first navigation so
 * that no request started earlier goes uncounted; {@link settled} calls it too.
 */
export function trackRequests(page: Page): void {
  if (trackers.has(page)) return;
  const tracker: Tracker = { inFlight: new Set(), started: 0, listeners: new Set() };
  const changed = () => [...tracker.listeners].forEach((f) => f());
  page.on('request', (r) => {
    tracker.inFlight.add(r);
    tracker.started += 1;
    changed();
  });
  const done = (r: Request) => {
    tracker.inFlight.delete(r);
    changed();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  trackers.set(page, tracker);
}

/** Resolves when no request is in flight (at once if none is), rejects at `deadline` (ms since epoch). */
function noneInFlight(tracker: Tracker, deadline: number): Promise<void> {
  if (tracker.inFlight.size === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => {
        tracker.listeners.delete(check);
        reject(new Error(`la página no terminó sus pedidos: ${[...tracker.inFlight].map((r) => `${r.method()} ${r.url()}`).join(', ')}`));
      },
      Math.max(0, deadline - Date.now()),
    );
    function check() {
      if (tracker.inFlight.size > 0) return;
      clearTimeout(timer);
      tracker.listeners.delete(check);
      resolve();
    }
    tracker.listeners.add(check);
  });
}

/**
 * Resolves once `page` has settled: no request in flight, the document loaded, no element with `aria-busy="true"`
 * (the app's loading placeholders, a re-pricing summary, a button while it sends) after the page ran its pending
 * tasks, and no request started meanwhile. Background calls (the funnel's batch every 2 s) are waited for while in
 * flight, never between them.
 * @throws Error when it has not settled within `timeoutMs`
 */
export async function settled(page: Page, timeoutMs = 15_000): Promise<void> {
  trackRequests(page);
  const tracker = trackers.get(page)!;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await noneInFlight(tracker, deadline);
    const before = tracker.started;
    // two macrotasks in the page: what a finished reply scheduled (React's render, its effects' calls) runs first
    const busy = await page
      .evaluate(async () => {
        const task = () =>
          new Promise<void>((resolve) => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => resolve();
            channel.port2.postMessage(null);
          });
        await task();
        await task();
        return document.readyState !== 'complete' || document.querySelector('[aria-busy="true"]') !== null;
      })
      .catch((err: Error) => {
        // a navigation replaced the document while it was checked: check the new one
        if (page.isClosed()) throw err;
        return true;
      });
    if (!busy && tracker.inFlight.size === 0 && tracker.started === before) return;
    if (Date.now() > deadline) throw new Error('la página sigue ocupada ([aria-busy="true"] o cargando)');
    if (busy && tracker.inFlight.size === 0) await page.waitForTimeout(20);
  }
}
