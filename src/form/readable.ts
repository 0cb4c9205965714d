/**
 * A promise React's `use` can read without suspending once it has settled. Its own module because both the form
 * engine's loader (load.ts) and the step loader (validators/index.ts, which StepForm imports) use it: in load.ts it
 * made validators → load → StepForm → validators a cycle.
 */

/**
 * `promise`, marked as React's `use` reads a promise (`status`, `value` / `reason`) once it settles: `use` then returns
 * its value in the same render instead of suspending. React cannot otherwise know that a promise has settled; it
 * suspends, shows the boundary's fallback and throttles revealing its content, up to 300 ms (a form step's LCP).
 * Keep the returned promise and pass that same object to `use` on every render.
 */
export function readableByUse<T>(promise: Promise<T>): Promise<T> {
  promise.then(
    (value) => Object.assign(promise, { status: 'fulfilled', value }),
    (reason: unknown) => Object.assign(promise, { status: 'rejected', reason }),
  );
  return promise;
}
