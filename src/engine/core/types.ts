/**
 * Types of the flow definition (`flow/flow.json`, described by `flow/flow.schema.json`) and of the
 * engine state. The engine never names a concrete step: everything step-specific is data of this shape.
 */

/** RFC 6901 JSON pointer into the engine context, e.g. `/answers/contacto/email`. */
export type Pointer = string;

/** A value for a request field or a review row (see flow.schema.json#/definitions/binding). */
export type Binding =
  | Pointer
  | { const: unknown }
  | { merge: Binding[] }
  | { join: Pointer[]; sep?: string }
  | { [field: string]: Binding };

/** A named condition: `{ field, op, value }` — data, not an expression language (CONVENTIONS §3). */
export interface Condition {
  field: Pointer;
  op: 'eq' | 'neq' | 'in' | 'present' | 'absent';
  value?: unknown;
}

export type CallRef = string | { call: string; when?: string };

export interface CallDef {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, Binding>;
  params?: Record<string, Binding>;
  body?: Binding;
  save?: Pointer | { from: Pointer; to: Pointer }[];
  check?: { ok: Pointer; message?: Pointer; field?: string };
  poll?: { until: string; intervalMs: number; maxAttempts: number };
  optional?: boolean;
  silent?: boolean;
}

export interface ReviewRow {
  label: string;
  value: Binding;
  format?: 'text' | 'date' | 'currency';
}

export interface StepDef {
  id: string;
  path: string;
  flag?: string;
  kind: 'landing' | 'form' | 'review' | 'result';
  stage: string;
  detail?: boolean;
  back?: string;
  next?: string | { when?: string; to: string }[];
  onSubmit?: CallRef[];
  onChange?: Record<string, CallRef[]>;
  onError?: string;
  defaults?: Record<string, Binding>;
  forget?: Pointer[];
  review?: { title: string; edit?: string; rows: ReviewRow[] }[];
  result?: { tone: 'success' | 'error'; rows?: Record<string, Binding>; values?: Record<string, Binding>; message?: Pointer[] };
  /** Name of a flow-level summary shown beside the form. */
  summary?: string;
  /** Informational messages shown when their condition holds (text: es.json › <step>.avisos.<text>). */
  notices?: { when: string; text: string }[];
  loadingMessage?: string;
  /** Extra buttons that open another step with its flag set (text: es.json › <step>.acciones.<text>). */
  actions?: { text: string; to: string }[];
}

export interface FlowDef {
  version: number;
  storageKey: string;
  flags: string[];
  guardOrder: string[];
  initialFlags: Record<string, boolean>;
  terminalFlags?: string[];
  detailCounter?: { start: number; step: number };
  entry: string;
  errorStep: string;
  inactivityMs?: number;
  persist?: { exclude?: Pointer[] };
  onStart?: CallRef[];
  chat?: { enabledWhen: string; phone?: Pointer };
  stages?: string[];
  /** Named summaries (pointers to a title, a monthly amount and a total in ARS, and a start date). */
  summaries?: Record<string, { title: Pointer; amount: Pointer; total?: Pointer; since?: Pointer }>;
  conditions: Record<string, Condition>;
  calls: Record<string, CallDef>;
  steps: StepDef[];
}

export type Flags = Record<string, boolean>;

/** The whole journey state: persisted to localStorage on every change (SPEC §4), minus `persist.exclude`. */
export interface FlowState {
  flags: Flags;
  /** Form data per step id, exactly as the visitor typed it. */
  answers: Record<string, Record<string, unknown>>;
  /** Replies of API calls saved by `save` (quote, chosen plan, payment token, policy…). */
  data: Record<string, unknown>;
  /** House-detail sub-step counter: starts at 1.1, −0.1 per back (SPEC §3, §9). */
  numberDetailStep: number;
}

/** What bindings and conditions are evaluated against. */
export interface FlowContext extends FlowState {
  campaign?: Record<string, string> | null;
  meta?: Record<string, unknown>;
  response?: unknown;
}
