/**
 * Types of the flow definition (`flow/flow.json`, described by `flow/flow.schema.json`), of the compiled
 * flow the engine runs (`compileFlow`, graph.ts) and of the engine state. The engine never names a
 * concrete step: everything step-specific is data of these shapes.
 */
import type { Pointer } from './pointer.ts';

export type { Pointer };

/** A compiled condition (conditions.ts): true when it holds on the context `{ answers, data, flags, campaign, meta, response }`. */
export type ConditionTest = (ctx: unknown) => boolean;
export type ConditionTests = Record<string, ConditionTest>;

/** A value for a request field or a review row (see flow.schema.json#/definitions/binding). */
export type Binding =
  Pointer | { const: unknown } | { merge: Binding[] } | { join: Pointer[]; sep?: string } | { [field: string]: Binding };

/** A named condition: `{ field, op, value }` — data, not an expression language (CONVENTIONS §3). */
/** A JSON Schema (draft-07), as a boolean or an object. */
export type JsonSchema = boolean | Record<string, unknown>;

/** A named condition: context pointer → the JSON Schema its value must satisfy (core/conditions.ts). */
export type Condition = Record<Pointer, JsonSchema>;

export type CallRef = string | { call: string; when?: string };

export interface CallDef {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, Binding>;
  params?: Record<string, Binding>;
  body?: Binding;
  save?: Pointer | { from: Pointer; to: Pointer }[];
  /** A validation reply: not ok → the message at `message` on the form field the reply names at `fieldFrom`, else `field`. */
  check?: { ok: Pointer; message?: Pointer; field?: string; fieldFrom?: Pointer };
  poll?: { until: string; intervalMs: number; maxAttempts: number };
  optional?: boolean;
  silent?: boolean;
  /** A call that moves money: sent with an `Idempotency-Key` derived from its request, the same on every retry. */
  idempotent?: boolean;
}

export interface ReviewRow {
  label: string;
  value: Binding;
  format?: 'text' | 'date' | 'currency' | 'cuotas';
}

export type StepKind = 'landing' | 'form' | 'review' | 'result';

/** A step as written in flow.json: everything but `id` has a default derived from the id and the graph. */
export interface StepDef {
  id: string;
  /** Route under `basePath`; default: the step id (`''` = the base path itself). */
  path?: string;
  /** Progress flag guarding the route; default: the step id. */
  flag?: string;
  /** Default `form`. */
  kind?: StepKind;
  /** Progress stage; default: the stage of the step before it in the graph. */
  stage?: string;
  /** Where "Volver" goes; default: the step's only predecessor (`false`: no back button). */
  back?: string | false;
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
  /** Things to do without leaving the step: download an API document or run a call (es.json › <step>.extras.*). */
  extras?: StepExtra[];
}

/** A download link (GET <api><path>, `{param}`s bound like a call's) or a call run in place with a "done" text. */
export type StepExtra =
  { text: string; download: { path: string; params?: Record<string, Binding> } } | { text: string; call: string; done: string };

/** Resume a quote from an e-mailed link (flow `resume`; see flow.schema.json). */
export interface ResumeDef {
  /** Query parameter carrying the token. */
  param: string;
  /** Call that opens the link (reads the token at /meta/enlace). */
  call: string;
  /** Step the visitor lands on. */
  to: string;
  /** Pointers into the reply: the saved answers and the flow version they were saved under. */
  answers: Pointer;
  version: Pointer;
  save?: { from: Pointer; to: Pointer }[];
  /** First notice whose condition holds on { response } (es.json › app.avisos.<text>). */
  notices?: { when?: string; text: string }[];
  /** Notice when the link fails or cannot be brought forward. */
  failed: string;
}

/** A standalone form of a flow (flow.schema.json › forms). */
export interface FormDef {
  schema: string;
  call: string;
}

/** The chat module of a flow (flow.schema.json › chat). */
export interface ChatDef {
  enabledWhen: string;
  phone: Pointer;
  link: string;
  text?: string;
}

/** The flow file as written (flow/flow.json). Flags, guard order, stages and `back` are derived, not declared. */
export interface FlowDef {
  version: number;
  storageKey: string;
  /** URL segment every route sits under (SPEC §2: `seguro-hogar`). */
  basePath: string;
  entry: string;
  /** The house-detail counter (SPEC §3, §9): moves on the form steps of `stage`. */
  detailCounter?: { stage: string; start: number; step: number };
  inactivityMs?: number;
  persist?: { exclude?: Pointer[] };
  /** The journey recorder (src/recorder/recorder.ts): answers replaced by test values or placeholders in a recorded fixture. */
  recorder?: { replace?: Record<Pointer, unknown> };
  onStart?: CallRef[];
  /** The campaign module: the call that records a campaign click (its body reads `/input`). */
  campaign?: { clickLog: string };
  /**
   * The staff's funnel (engine/funnel): the call that takes a batch of step events as `/input`, how often (ms) batches
   * are sent, and `splitBy`: step id → the field (an enum of that step's schema) whose value its `enviado` event carries as `rama`.
   */
  funnel?: { call: string; batchMs: number; splitBy?: Record<string, string> };
  /**
   * A proof of work solved in the background (engine/proof-of-work): from step `startAt` on, the
   * `challenge` call's reply is solved off the main thread; each call in `for` waits for the solution, finds it at
   * pointer `to` (under /meta: never persisted) and spends it — the next of those calls solves a new one.
   */
  proofOfWork?: { challenge: string; startAt: string; to: Pointer; for: string[] };
  /** Standalone forms (e.g. after-sale): form id → its form schema id (schemas/<schema>.schema.json) and the call its answers go through at `/input`. */
  forms?: Record<string, FormDef>;
  /** The chat module (engine/chat): shown while `enabledWhen` holds; `link` with `{phone}` and `{text}` (es.json › app.<text>). */
  chat?: ChatDef;
  resume?: ResumeDef;
  /** Named summaries (pointers to a title, a monthly amount and a total in ARS, and a start date). */
  summaries?: Record<string, { title: Pointer; amount: Pointer; total?: Pointer; since?: Pointer }>;
  conditions: Record<string, Condition>;
  calls: Record<string, CallDef>;
  steps: StepDef[];
}

/** A step with every default resolved (what the engine and the screens read). */
export interface Step extends Omit<StepDef, 'path' | 'flag' | 'kind' | 'stage' | 'back'> {
  /** Full route path without leading slash, e.g. `seguro-hogar/metros`. */
  path: string;
  flag: string;
  kind: StepKind;
  /** Undefined only before the first stage (the landing). */
  stage?: string;
  back?: string;
  /** Moves the house-detail counter (a form step of `detailCounter.stage`). */
  detail: boolean;
  /** Position in the graph order (0 = entry): later steps come after every step that leads to them. */
  order: number;
}

/** The compiled flow: the definition plus everything derived from its graph (graph.ts `compileFlow`). */
export interface Flow extends Omit<FlowDef, 'steps'> {
  /** Steps in graph order (unreachable steps last, in file order). */
  steps: Step[];
  /** Every progress flag: the entry's first, then one per step in graph order. */
  flags: string[];
  /** Flags checked by the guard redirect, in graph order (SPEC §4): every step's flag but the entry's. */
  guardOrder: string[];
  /** The entry step's flag (SPEC §4 houseDetail: initially true). */
  initialFlags: Record<string, boolean>;
  /** Flags of result steps (success, moduleError): the entry does not clear them (SPEC §4). */
  terminalFlags: string[];
  /** Progress stages in graph order. */
  stages: string[];
  /** The definition as written (for the checker and tools). */
  def: FlowDef;
  /** Each named condition, compiled (core/conditions.ts). */
  tests: ConditionTests;
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
  /** The flow version the state was saved under (core/migrations.ts). */
  version?: number;
}

/** What bindings and conditions are evaluated against. */
export interface FlowContext extends FlowState {
  campaign?: Record<string, string> | null;
  meta?: Record<string, unknown>;
  response?: unknown;
  /** What a widget or module passed to a named call (`callFx`), e.g. the campaign click log. */
  input?: unknown;
}
