/**
 * A flow call as HTTP, and its reply as what the visitor sees — pure functions the engine model runs:
 * bindings → request (with a stable idempotency key), reply → saved data, a server's 400 → errors on the form
 * fields that fed it, an outcome → the step's errors.
 */
import {
  escapeToken,
  getAt,
  parsePointer,
  resolveBinding,
  setAt,
  sourceOf,
  type Binding,
  type CallDef,
  type CallRef,
  type FlowContext,
} from './core/index.ts';

/** One HTTP request of a flow call, already resolved. */
export interface ApiRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** For calls the flow marks `idempotent`: the same request always carries the same key (retries, reloads, double clicks). */
  idempotencyKey?: string;
}

/**
 * A stable key for a request: two 32-bit FNV-1a hashes (different offsets) of `method path body`, hex. The server
 * keeps keys per visitor session, so collisions between different purchases of one session are what matters: 2⁻⁶⁴.
 */
export function requestKey(method: string, path: string, body: unknown): string {
  const text = `${method} ${path} ${JSON.stringify(body ?? null)}`;
  const fnv = (seed: number) => {
    let h = seed >>> 0;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(16).padStart(8, '0');
  };
  return `${fnv(0x811c9dc5)}${fnv(0x050c5d1f)}`;
}

/** Errors a form shows: per field (from `check` calls) and a banner (failed calls). */
export interface StepErrors {
  fields: Record<string, string>;
  banner: string | null;
}

/** Outcome of running a step's calls. */
export type RunOutcome =
  | { kind: 'next'; ctx: FlowContext; to: string | null }
  | { kind: 'invalid'; ctx: FlowContext; field?: string; message: string }
  | { kind: 'failed'; ctx: FlowContext; message: string; fields?: Record<string, string> };

/** Error carrying a Spanish message for the visitor (an `ApiError` from the client qualifies), with the wire fields it blames. */
export interface MessageError {
  message: string;
  errors?: { field: string; message: string }[];
}

/** The call a step reference names. */
export const callName = (ref: CallRef) => (typeof ref === 'string' ? ref : ref.call);
/** The condition a step reference runs its call under (none: always). */
export const callWhen = (ref: CallRef) => (typeof ref === 'string' ? undefined : ref.when);

/**
 * What a step shows after its calls ran: a check's message on its field (or as a banner when it
 * names none), a failed call's message as a banner, nothing when they went through.
 */
export function errorsOf(result: RunOutcome): StepErrors {
  if (result.kind === 'invalid' && result.field) return { fields: { [result.field]: result.message }, banner: null };
  if (result.kind === 'failed' && result.fields && Object.keys(result.fields).length) return { fields: result.fields, banner: null };
  if (result.kind === 'invalid' || result.kind === 'failed') return { fields: {}, banner: result.message };
  return { fields: {}, banner: null };
}

/** Applies a call's `save` to the context: whole reply to a pointer, or `{ from, to }` pairs (missing `from` skipped). */
export function applySave(call: CallDef, response: unknown, ctx: FlowContext): FlowContext {
  if (call.save === undefined) return ctx;
  if (typeof call.save === 'string') return setAt(ctx, call.save, response);
  let out = ctx;
  for (const { from, to } of call.save) {
    const v = getAt(response, from);
    if (v !== undefined) out = setAt(out, to, v);
  }
  return out;
}

/**
 * A server's 400 `errors[]` mapped back to the form fields of step `stepId` through the call's bindings (SPEC-free:
 * the `field` is a JSON pointer into the body, or the query for GET). Errors that map to no field of that step
 * are returned in `rest` (for the banner).
 */
export function fieldErrorsOf(
  call: CallDef,
  stepId: string,
  errors: { field: string; message: string }[],
): { fields: Record<string, string>; rest: string[] } {
  return fieldErrorsUnder(call, ['answers', stepId], errors);
}

/**
 * A server's 400 `errors[]` mapped back to the fields of a standalone form (flow › forms), whose answers the call
 * reads at `/input`: as {@link fieldErrorsOf}, for the fields under `/input/`.
 */
export function inputFieldErrors(
  call: CallDef,
  errors: { field: string; message: string }[],
): { fields: Record<string, string>; rest: string[] } {
  return fieldErrorsUnder(call, ['input'], errors);
}

/** Errors whose wire field was fed from a pointer under `at` (tokens), by the next token (the form field); the rest apart. */
function fieldErrorsUnder(
  call: CallDef,
  at: string[],
  errors: { field: string; message: string }[],
): { fields: Record<string, string>; rest: string[] } {
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  const prefix = `/${at.map(escapeToken).join('/')}/`;
  for (const e of errors) {
    const source =
      typeof e.field === 'string' ? sourceOf((call.method === 'GET' ? call.query : call.body) as Binding | undefined, e.field) : undefined;
    if (source?.startsWith(prefix)) {
      const field = (parsePointer(source) as string[])[at.length];
      fields[field] ??= e.message;
    } else rest.push(e.message);
  }
  return { fields, rest };
}

/** Resolves a call's bindings into an HTTP request (path params URL-encoded). */
export function buildRequest(call: CallDef, ctx: FlowContext): ApiRequest {
  const params = call.params ? (resolveBinding(call.params, ctx) as Record<string, unknown>) : {};
  const path = call.path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(String(params[k] ?? '')));
  const req: ApiRequest = { method: call.method, path };
  if (call.query) req.query = resolveBinding(call.query, ctx) as ApiRequest['query'];
  if (call.body !== undefined) req.body = resolveBinding(call.body, ctx);
  if (call.idempotent) req.idempotencyKey = requestKey(req.method, req.path, req.body);
  return req;
}
