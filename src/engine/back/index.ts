/** Back, edit, restart and session expiry: the routes they open and what of the journey they keep. */
export { createBackAndRestart, stateAfterBack } from './model.ts';
