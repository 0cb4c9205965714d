/**
 * First-tap floor for the benchmark (never shipped): the entry step's title and button, and on a tap the first
 * question — its title and its form (the step's own JSON Schema and precompiled validator, RJSF's own widgets) —
 * with nothing else of the app: no router, no engine, no i18n, no lazy chunk. Its tap → question time
 * (first-question.ts › firstTapMs) is what React + RJSF + Effector need at best to show that question on this
 * machine, measured in the same run as the app's first tap. Texts and step come from flow.json and es.json, as the
 * bench's FIRST has them. Sends the app's ready event after its first commit.
 */
import Form from '@rjsf/core';
import { createPrecompiledValidator, type ValidatorFunctions } from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';
import { createEvent, createStore } from 'effector';
import { useUnit } from 'effector-react';
import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import flow from '../../../flow/flow.json';
import es from '../../../src/i18n/es.json';

const texts = es as unknown as Record<string, Record<string, string>>;
const entry = flow.steps.find((s) => s.id === flow.entry)!;
const step = String(entry.next);
const schemas = import.meta.glob<RJSFSchema>('../../../schemas/*.schema.json', { eager: true, import: 'default' });
const validators = import.meta.glob<ValidatorFunctions>('../../../src/form/validators/generated/*.js', { eager: true, import: 'default' });
const schema = schemas[`../../../schemas/${step}.schema.json`];
const validator = createPrecompiledValidator(validators[`../../../src/form/validators/generated/${step}.js`], schema);
// a choice is answered on screen as the app answers it (one tap on an option): RJSF's own radio widget
const uiSchema = Object.fromEntries(
  Object.entries((schema.properties ?? {}) as Record<string, RJSFSchema>)
    .filter(([, p]) => Array.isArray(p.enum))
    .map(([k]) => [k, { 'ui:widget': 'radio' }]),
);

const tapped = createEvent();
const $question = createStore(false).on(tapped, () => true);
const changed = createEvent<Record<string, unknown>>();
const $data = createStore<Record<string, unknown>>({}).on(changed, (_, d) => d);

function App() {
  const [question, tap, data, change] = useUnit([$question, tapped, $data, changed]);
  useEffect(() => void window.dispatchEvent(new Event('cotizador:listo')), []);
  return question ? (
    <main>
      <h1>{texts[step].titulo}</h1>
      <Form schema={schema} uiSchema={uiSchema} validator={validator} formData={data} onChange={(e) => change(e.formData ?? {})} />
    </main>
  ) : (
    <main>
      <h1>{texts[entry.id].titulo}</h1>
      <button type="button" onClick={tap}>
        {texts[entry.id].cta}
      </button>
    </main>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(<App />);
