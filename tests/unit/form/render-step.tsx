/**
 * Shared helper of the form widget tests: renders StepForm for a real step (schemas/*.json, the
 * step's precompiled validator, the real es.json texts) and waits until the form replaces the skeleton.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, vi } from 'vitest';
import type { FlowContext } from '../../../src/core/flow/types.ts';
import { StepForm, type StepFormProps } from '../../../src/form/StepForm';
import { buildRequest } from '../../../src/engine/calls';
import { compileFlowNode } from '../../../tools/check/conditions.ts';
import flowJson from '../../../flow/flow.json';
import type { FlowDef } from '../../../src/core/flow/types.ts';
import { stepSchema } from '../../../src/form/validators/schemas';
import { i18n } from '../../../src/i18n';

type Json = Record<string, unknown>;

const flow = compileFlowNode(flowJson as unknown as FlowDef);

// Vitest runs without globals, so Testing Library cannot register its automatic cleanup.
afterEach(cleanup);

// RJSF logs every failed submit with console.error("Form validation failed", …); the tests assert
// what the visitor sees instead, so only that line is dropped and everything else still prints.
const consoleError = console.error.bind(console);
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    if (args[0] !== 'Form validation failed') consoleError(...args);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

export const SUBMIT = 'Continuar';

export function makeContext(data: Json = {}): FlowContext {
  return { flags: {}, answers: {}, data, numberDetailStep: 1.1 };
}

/** What the widget tests stub: the HTTP GET a flow call ends in. */
export type TestApi = { get: (path: string, query?: Record<string, string | number | undefined>) => Promise<unknown> };

export const noApi: TestApi = {
  get: () => Promise.reject(new Error('api no esperada en este test')),
};

/** Runs a call of the shipped flow by name as the engine does (its bindings, /input), ending in `api.get`. */
function flowCall(api: TestApi, context: FlowContext): StepFormProps['call'] {
  return (name, input) => {
    const req = buildRequest(flow.calls[name], { ...context, input });
    return req.query ? api.get(req.path, req.query) : api.get(req.path);
  };
}

export interface RenderStepOptions {
  formData?: Json;
  serverErrors?: Record<string, string>;
  context?: FlowContext;
  api?: TestApi;
}

/** Renders step `stepId` and resolves once its submit button is on screen. */
export async function renderStep(stepId: string, opts: RenderStepOptions = {}) {
  const schema = stepSchema(stepId);
  if (!schema) throw new Error(`sin schema para ${stepId}`);
  const onSubmit = vi.fn<(d: Json) => void>();
  const onChange = vi.fn<(d: Json) => void>();
  const user = userEvent.setup();
  const props = (serverErrors = opts.serverErrors): StepFormProps => ({
    stepId,
    formData: opts.formData ?? {},
    serverErrors,
    context: opts.context ?? makeContext(),
    call: flowCall(opts.api ?? noApi, opts.context ?? makeContext()),
    submitLabel: SUBMIT,
    onChange,
    onSubmit,
  });
  // awaited act: the form suspends until its step's validator chunk is loaded (React's `use`), as in the app
  let view!: ReturnType<typeof render>;
  await act(async () => {
    view = render(
      <I18nextProvider i18n={i18n}>
        <Suspense fallback={null}>
          <StepForm {...props()} />
        </Suspense>
      </I18nextProvider>,
    );
  });
  const submit = await screen.findByRole('button', { name: SUBMIT });
  return { ...view, user, onSubmit, onChange, submit };
}

/** The element whose id is referenced by `el`'s aria-describedby and holds `text`. */
export function describedByTexts(el: Element): string[] {
  const ids = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '');
}
