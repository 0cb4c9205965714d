/**
 * What widgets and templates read from RJSF's `formContext`: its own module, so StepForm imports the widgets and
 * the widgets import only this (no import cycle between StepForm and its widgets/templates).
 */
import type { ApiClient } from '../api/client';
import type { FlowContext } from '../engine/core/types.ts';

type Json = Record<string, unknown>;

/** The step, the live form data, the engine context and the API client. */
export interface FormContext {
  stepId: string;
  formData: Json;
  context: FlowContext;
  api: Pick<ApiClient, 'get'>;
}
