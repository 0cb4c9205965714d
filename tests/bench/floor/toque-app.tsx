/**
 * The first-tap floors' page (never shipped): the entry step's title and button (the bench's FIRST, from flow.json
 * and es.json) and, on a tap, the first question ({@link Pregunta}, ./toque-pregunta.tsx), with React + RJSF +
 * Effector and nothing else of the app: no router, no engine, no i18n. Sends the app's ready event
 * (`cotizador:listo`) after its first commit.
 */
import { createEvent, createStore } from 'effector';
import { useUnit } from 'effector-react';
import { useEffect, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { FIRST } from '../first-question.ts';

/**
 * Mounts the page in #root. `pregunta` gives the question's component on a tap: at once (its module already
 * evaluated with the page's) or as a promise (its module fetched apart), shown when it settles.
 */
export function montarPiso(pregunta: () => ComponentType | Promise<ComponentType>) {
  const shown = createEvent<ComponentType>();
  const $question = createStore<ComponentType | null>(null).on(shown, (_, c) => c);
  const tap = () => {
    const c = pregunta();
    if (c instanceof Promise) void c.then(shown);
    else shown(c);
  };

  function App() {
    const Question = useUnit($question);
    useEffect(() => void window.dispatchEvent(new Event('cotizador:listo')), []);
    return Question ? (
      <Question />
    ) : (
      <main>
        <h1>{FIRST.entryTitle}</h1>
        <button type="button" onClick={tap}>
          {FIRST.cta}
        </button>
      </main>
    );
  }

  createRoot(document.getElementById('root') as HTMLElement).render(<App />);
}
