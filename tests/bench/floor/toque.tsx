/**
 * First-tap floor for the benchmark (never shipped): the entry step's title and button, and on a tap the first
 * question (./toque-pregunta.tsx), its form engine evaluated with the page. Its tap → question time
 * (first-question.ts › firstTapMs) is what React + RJSF + Effector need at best to show that question on this
 * machine, measured in the same run as the app's first tap.
 */
import { montarPiso } from './toque-app';
import { Pregunta } from './toque-pregunta';

montarPiso(() => Pregunta);
