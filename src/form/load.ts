/**
 * The form engine (RJSF + StepForm) is its own chunk: step 1 does not load it. Every place that fetches it early
 * (the entry on a form step's page, the first interaction, a form step's screen) calls this one import, so they
 * share one request and one chunk.
 */
import { readableByUse } from './readable.ts';

type StepFormModule = typeof import('./StepForm');

let loading: Promise<StepFormModule> | undefined;

/** @returns the StepForm module, one promise for the life of the page (settles when the chunk is evaluated; readable by `use`). */
export const loadStepForm = (): Promise<StepFormModule> => (loading ??= readableByUse(import('./StepForm')));
