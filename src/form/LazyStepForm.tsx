/**
 * StepForm from the form engine's own chunk (./load.ts): suspends (inside the caller's boundary) until the chunk is
 * evaluated, and renders in the same pass when it already is (loadStepForm's promise is readable by `use`).
 */
import { use, type ComponentProps } from 'react';
import { loadStepForm } from './load';

export function LazyStepForm(props: ComponentProps<Awaited<ReturnType<typeof loadStepForm>>['StepForm']>) {
  const { StepForm } = use(loadStepForm());
  return <StepForm {...props} />;
}
