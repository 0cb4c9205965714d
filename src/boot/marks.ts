/**
 * User Timing marks the app sets that the tests and the bench wait for (plain constants: read by Node scripts too).
 */

/** Set, followed by the step's id, when that step's form has been rehearsed (./rehearsal.tsx). */
export const REHEARSAL_MARK = 'cotizador:ensayo:';
