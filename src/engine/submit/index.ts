/** Submitting a step and running the flow's calls (the runner, `callFx`, a step's submit). */
export { createCalls, createSubmit, stateAfterSubmit } from './model.ts';
export { createCallRunner, type CallRunner } from './runner.ts';
