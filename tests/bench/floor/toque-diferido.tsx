/**
 * First-tap floor with the form engine fetched as the app fetches it (never shipped): the same page as ./toque.tsx,
 * but the question's module (./toque-pregunta.tsx: RJSF, its schema and validator) is a chunk of its own, requested
 * at the visitor's first press, key or focus (src/boot/boot-ui.tsx › prefetchOnFirstInteraction) and awaited by the
 * tap before the question renders (› moveWhenFormReady). The app defers that chunk so that step 1 stays within the
 * stack floor's bytes (bench target); the time this page takes over ./toque.tsx is what that deferral costs the
 * first tap on this machine, measured in the same run.
 */
import { montarPiso } from './toque-app';

let pregunta: Promise<typeof import('./toque-pregunta')> | undefined;
const cargar = () => (pregunta ??= import('./toque-pregunta'));
const events = ['pointerdown', 'keydown', 'touchstart', 'focusin'] as const;
const primera = () => {
  for (const e of events) window.removeEventListener(e, primera, true);
  void cargar();
};
for (const e of events) window.addEventListener(e, primera, { capture: true, passive: true });

montarPiso(() => cargar().then((m) => m.Pregunta));
