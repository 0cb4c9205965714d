/**
 * Runs the flow's calls through the journey's effects: one call with its polling, or a step's list of calls in order
 * with their checks, saves and errors. Plain async functions, awaited only inside effect handlers (so a fork's scope
 * follows every `requestFx`).
 */
import { getAt, when, type CallDef, type CallRef, type FlowContext } from '../core/index.ts';
import { applySave, buildRequest, callName, callWhen, fieldErrorsOf, type MessageError, type RunOutcome } from '../calls.ts';
import type { EngineOptions, Journey } from '../journey/index.ts';

/** The journey units a call runner goes through. */
type RunnerUnits = Pick<Journey, 'flow' | 'requestFx' | 'waitFx' | 'prepareFx'>;

/** What a failed call means for the step: its field errors when the server blamed this step's fields, else a banner. */
function failedOutcome(call: CallDef, error: unknown, ctx: FlowContext, genericError: string, stepId?: string): RunOutcome {
  const err = error as MessageError;
  if (stepId && Array.isArray(err?.errors) && err.errors.length) {
    const { fields, rest } = fieldErrorsOf(call, stepId, err.errors);
    if (Object.keys(fields).length && !rest.length) return { kind: 'failed', ctx, message: err.message || genericError, fields };
  }
  return { kind: 'failed', ctx, message: err?.message || genericError };
}

/** A reply its call's `check` refuses, as the step's outcome (message and field from the reply when it names them); else null. */
function checkOutcome(call: CallDef, reply: unknown, ctx: FlowContext, genericError: string): RunOutcome | null {
  if (!call.check || getAt(reply, call.check.ok) === true) return null;
  const message = call.check.message ? getAt(reply, call.check.message) : undefined;
  const named = call.check.fieldFrom ? getAt(reply, call.check.fieldFrom) : undefined;
  const field = typeof named === 'string' && named ? named : call.check.field;
  return { kind: 'invalid', ctx, field, message: typeof message === 'string' && message ? message : genericError };
}

/**
 * Creates the call runner of one engine.
 * - `runCall(name, call, ctx)`: the call's request (after `prepareCall`), repeated every `poll.intervalMs` until
 *   `poll.until` holds on `{ response }` or `poll.maxAttempts` is spent. @returns the reply. @throws the request's
 *   error, or `{ message: timeoutError }` when polling ran out.
 * - `runCalls(refs, ctx, stepId?)`: `refs` in order (each under its `when`); stops at the first refused check or
 *   failed required call (optional ones are logged and skipped). @returns the outcome with the context their saves built.
 */
export function createCallRunner(units: RunnerUnits, opts: Pick<EngineOptions, 'genericError' | 'timeoutError' | 'prepareCall'>) {
  const { flow, requestFx, waitFx, prepareFx } = units;

  async function runCall(name: string, call: CallDef, plain: FlowContext): Promise<unknown> {
    const ctx = opts.prepareCall ? await prepareFx({ name, ctx: plain }) : plain;
    const request = buildRequest(call, ctx);
    if (!call.poll) return requestFx(request);
    for (let attempt = 1; attempt <= call.poll.maxAttempts; attempt++) {
      const reply = await requestFx(request);
      if (when(flow, call.poll.until, { ...ctx, response: reply })) return reply;
      if (attempt < call.poll.maxAttempts) await waitFx(call.poll.intervalMs);
    }
    throw { message: opts.timeoutError } satisfies MessageError;
  }

  async function runCalls(refs: CallRef[], start: FlowContext, stepId?: string): Promise<RunOutcome> {
    let ctx = start;
    for (const ref of refs) {
      if (!when(flow, callWhen(ref), ctx)) continue;
      const call = flow.calls[callName(ref)];
      let reply: unknown;
      try {
        reply = await runCall(callName(ref), call, ctx);
      } catch (error) {
        if (!call.optional) return failedOutcome(call, error, ctx, opts.genericError, stepId);
        console.error(`Llamada opcional "${callName(ref)}" falló`, (error as MessageError)?.message ?? error);
        continue;
      }
      const refused = checkOutcome(call, reply, ctx, opts.genericError);
      if (refused) return refused;
      ctx = applySave(call, reply, ctx);
    }
    return { kind: 'next', ctx, to: null };
  }

  return { runCall, runCalls };
}

export type CallRunner = ReturnType<typeof createCallRunner>;
