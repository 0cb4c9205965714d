/** Start-up of a journey: restore (with migrations and the notice) and the flow's start calls. */
export { createStart } from './model.ts';
