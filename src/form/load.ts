/**
 * The form engine (RJSF + StepForm) is its own chunk: step 1 does not load it. Every place that fetches it early
 * (the entry on a form step's page, the first interaction, the lazy form of a step) calls this one import, so they
 * share one request and one chunk.
 */
type StepFormModule = typeof import('./StepForm');

let loaded: StepFormModule | undefined;

/** @returns the StepForm module (its promise settles when the chunk is evaluated). */
export const loadStepForm = (): Promise<StepFormModule> => import('./StepForm').then((m) => (loaded = m));

/**
 * The StepForm module when its chunk has already been evaluated, else undefined: a screen then renders the form in the
 * same pass instead of suspending on an import that has already settled (React shows the fallback of a suspended
 * boundary and throttles revealing its content, up to 300 ms — issue 9, a form step's LCP).
 */
export const loadedStepForm = (): StepFormModule | undefined => loaded;
