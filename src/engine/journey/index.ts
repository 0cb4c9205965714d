/** The journey's shared units (events, effects, stores) that every engine feature builds on. */
export { createJourney, type EngineOptions, type Journey, type NavigateRequest, type StepData } from './model.ts';
