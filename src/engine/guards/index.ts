/** Routes and guards: what entering a route does to the flags, the counter and the current step. */
export { checkRoute, createGuards, stateAfterHistoryMove } from './model.ts';
