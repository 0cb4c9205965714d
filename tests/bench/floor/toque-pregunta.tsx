/**
 * The first question of the first-tap floors (./toque.tsx, ./toque-diferido.tsx; never shipped): the step after the
 * entry step and its title (the bench's FIRST) and its form — its own JSON Schema and precompiled validator, RJSF's own
 * widgets, a choice as RJSF's radio buttons — with nothing of the app. What the app's form engine chunk holds for that
 * question: ./toque-diferido.tsx loads this module as the app loads that chunk.
 */
import Form from '@rjsf/core';
import { createPrecompiledValidator, type ValidatorFunctions } from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';
import { createEvent, createStore } from 'effector';
import { useUnit } from 'effector-react';
import { FIRST } from '../first-question.ts';

const step = FIRST.step;
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

const changed = createEvent<Record<string, unknown>>();
const $data = createStore<Record<string, unknown>>({}).on(changed, (_, d) => d);

/** The first question: its title and its form, the answers in an Effector store. */
export function Pregunta() {
  const [data, change] = useUnit([$data, changed]);
  return (
    <main>
      <h1>{FIRST.question}</h1>
      <Form schema={schema} uiSchema={uiSchema} validator={validator} formData={data} onChange={(e) => change(e.formData ?? {})} />
    </main>
  );
}
