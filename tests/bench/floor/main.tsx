/**
 * Stack floor for the benchmark (never shipped): the smallest page our stack makes — React 19, RJSF with a
 * precompiled validator (the metros step's, one field) and Effector — built and measured by `npm run bench`
 * next to the app, so "as fast as our stack can be" is a figure of the same run.
 */
import Form from '@rjsf/core';
import { createPrecompiledValidator, type ValidatorFunctions } from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';
import { createEvent, createStore } from 'effector';
import { useUnit } from 'effector-react';
import { createRoot } from 'react-dom/client';
import schema from '../../../schemas/metros.schema.json';

const changed = createEvent<{ metros?: number }>();
const $data = createStore<{ metros?: number }>({}).on(changed, (_, d) => d);
// the metros step's validator as the build precompiles it (one field)
const [validateFns] = Object.values(
  import.meta.glob<ValidatorFunctions>('../../../src/form/validators/generated/metros.js', { eager: true, import: 'default' }),
);
const validator = createPrecompiledValidator(validateFns, schema as RJSFSchema);

function App() {
  const [data, change] = useUnit([$data, changed]);
  return (
    <main>
      <h1>Asegurá tu hogar en minutos</h1>
      <Form schema={schema as RJSFSchema} validator={validator} formData={data} onChange={(e) => change(e.formData ?? {})} />
    </main>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(<App />);
