/**
 * The form engine (RJSF + StepForm) is its own chunk: step 1 does not load it. Every place that fetches it early
 * (the entry on a form step's page, the first interaction, a form step's screen) calls this one import, so they
 * share one request and one chunk.
 */
type StepFormModule = typeof import('./StepForm');

/**
 * `promise`, marked as React's `use` reads a promise (`status`, `value` / `reason`) once it settles: `use` then returns
 * its value in the same render instead of suspending. React cannot otherwise know that a promise has settled; it
 * suspends, shows the boundary's fallback and throttles revealing its content, up to 300 ms (issue 9, a form step's
 * LCP). Keep the returned promise and pass that same object to `use` on every render.
 */
export function readableByUse<T>(promise: Promise<T>): Promise<T> {
  promise.then(
    (value) => Object.assign(promise, { status: 'fulfilled', value }),
    (reason: unknown) => Object.assign(promise, { status: 'rejected', reason }),
  );
  return promise;
}

let loading: Promise<StepFormModule> | undefined;

/** @returns the StepForm module, one promise for the life of the page (settles when the chunk is evaluated; readable by `use`). */
export const loadStepForm = (): Promise<StepFormModule> => (loading ??= readableByUse(import('./StepForm')));
