/**
 * The form engine (RJSF + StepForm) is its own chunk: step 1 does not load it. Every place that fetches it early
 * (the entry on a form step's page, the first interaction, the lazy form of a step) calls this one import, so they
 * share one request and one chunk.
 * @returns the StepForm module (its promise settles when the chunk is evaluated).
 */
export const loadStepForm = () => import('./StepForm');
