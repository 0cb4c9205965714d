/**
 * What widgets and templates read from RJSF's `formContext`: its own module, so StepForm imports the widgets and
 * the widgets import only this (no import cycle between StepForm and its widgets/templates).
 */
import type { FlowContext } from '../core/flow/types.ts';

type Json = Record<string, unknown>;

/** Runs a call of the flow by name (flow.json › calls) with `input` at `/input`; resolves with its reply. */
export type CallFlow = (name: string, input?: Json) => Promise<unknown>;

/**
 * Work a widget still owes the answers (e.g. text typed before its parser arrived, not yet written to the form data):
 * a submit made meanwhile waits for it and then goes through, so the visitor's tap is never lost to a slow chunk.
 */
export type HoldSubmit = (work: Promise<unknown>) => void;

/** The step, the engine context and the flow's calls (what widgets may ask the API). */
export interface FormContext {
  stepId: string;
  context: FlowContext;
  call: CallFlow;
  /** See {@link HoldSubmit}. */
  holdSubmit: HoldSubmit;
}
