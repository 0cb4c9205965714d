/**
 * The running app's engine: one flow engine wired to the real world — HTTP (wretch client),
 * localStorage persistence (minus card number and CBU), the 10-minute inactivity timer, campaign
 * capture and its click log (SPEC §1, §4, §7, §9). Tests build engines with `createFlowEngine`
 * and replace effects instead.
 */
import { createEffect, sample } from 'effector';
import { postOnPageExit, type ApiClient } from '../api/client';
import embudoWire from '../../schemas/api/embudo.json' with { type: 'json' };
import { buildRequest } from './calls.ts';
import { createCampaignModel, getSessionKey, type CampaignModel, type ClickLogInput } from './campaign/index';
import type { Flow } from './core/types.ts';
import { stepById } from './core/index.ts';
import type { Migration } from './core/migrations.ts';
import { browserName } from './device';
import { bindActivityListeners, createInactivity } from './inactivity/index';
import { bindFunnel, createFunnel, isSyntheticBrowser, journeyId } from './funnel/index';
import { engineSlices, type EngineOptions, type FlowEngine } from './model';
import { buildInSlices } from './scheduler.ts';
import { createPersistence } from './persistence/index';
import { resumeFromLink } from './resume/index';

export const APP_VERSION = '1.2.7';
export const APP_LABEL = 'cotizador-hogar';

/** Options of `createRuntime`. */
export interface RuntimeOptions {
  flow: Flow;
  api: ApiClient;
  texts: { genericError: string; timeoutError: string };
  migrations?: Migration[];
  /**
   * Awaited between the slices of the creation and the phases of `start` (each its own task, so that start-up never
   * holds the main thread long on a phone); src/main.tsx passes a yield to the browser. Default: none.
   */
  pause?: () => Promise<void>;
}

type Storages = { storage: () => Storage | undefined; session: () => Storage | undefined };

/**
 * The engine's options for the running app (texts, migrations, `meta` for bindings), and `connectPow`: links the
 * flow's proof of work to the engine once built.
 */
function engineOptions(opts: RuntimeOptions, session: () => Storage | undefined): EngineOptions & { connectPow: (engine: FlowEngine) => void } {
  const { flow } = opts;
  // the flow's background proof of work (flow.json › proofOfWork): its code is a lazy chunk, loaded from `startAt` on
  const pow = flow.proofOfWork;
  let powModule: Promise<import('./proof-of-work/index.ts').ProofOfWork> | undefined;
  let callFx: FlowEngine['callFx'] | undefined;
  const load = () => (powModule ??= import('./proof-of-work/proof-of-work.ts').then((m) => m.forFlow(pow!, callFx!)));
  return {
    flow,
    genericError: opts.texts.genericError,
    timeoutError: opts.texts.timeoutError,
    migrations: opts.migrations,
    prepareCall: pow && (async (name, ctx) => (pow.for.includes(name) ? (await load()).prepare(ctx) : ctx)),
    meta: { app: APP_LABEL, version: APP_VERSION, flowVersion: flow.version, sessionKey: getSessionKey(session() as Storage), browser: browserName(navigator.userAgent) },
    connectPow: (engine) => {
      callFx = engine.callFx;
      // when the visitor reaches the step where solving starts (or a later one), then a challenge is solved in the background
      if (pow) engine.routeEntered.watch(({ stepId }) => {
        if (stepById(flow, stepId).order >= stepById(flow, pow.startAt).order) void load().then((p) => p.warm());
      });
    },
  };
}

/** The engine wired to the app's HTTP client and the flow's proof of work. */
function wireEngine(engine: FlowEngine, api: ApiClient, connectPow: (engine: FlowEngine) => void) {
  engine.requestFx.use((req) =>
    req.method === 'GET' ? api.get(req.path, req.query) : api.post(req.path, req.body, req.idempotencyKey ? { idempotencyKey: req.idempotencyKey } : undefined),
  );
  connectPow(engine);
  return {};
}

/** Persistence of the journey in local storage; when the stored journey is read at start-up, it becomes the state (SPEC §4). */
function persistenceSlice(engine: FlowEngine, { storage }: Storages) {
  const persistence = createPersistence({ key: engine.flow.storageKey, $state: engine.$state, exclude: engine.exclude, storage });
  sample({ clock: persistence.restoreFx.doneData, target: engine.stateRestored });
  return { persistence };
}

/**
 * The campaign module; its click log goes through the call the flow names for it (flow.json › campaign.clickLog),
 * whose body binding builds the payload from the module's input at `/input` and `/meta`. No call named → not sent.
 */
function campaignSlice(engine: FlowEngine, { storage, session }: Storages) {
  const clickLog = engine.flow.campaign?.clickLog;
  const clickLogFx = createEffect((input: ClickLogInput) => (clickLog ? engine.callFx({ name: clickLog, input }) : undefined));
  const campaign = createCampaignModel({ clickLogFx, storage, session });
  // when campaign parameters change, then the engine's bindings see them
  sample({ clock: campaign.$campaign, target: engine.campaignChanged });
  return { campaign };
}

/** The inactivity timer: when it runs out, the session ends and the campaign keys go, in every case (SPEC §4). */
function inactivitySlice(engine: FlowEngine, campaign: CampaignModel) {
  const inactivity = createInactivity({ timeoutMs: engine.flow.inactivityMs });
  sample({ clock: inactivity.expired, target: [engine.sessionExpired, campaign.cleared, inactivity.started] });
  return { inactivity };
}

/**
 * The runtime's factories in build order: the engine's features (./model.ts), then persistence, campaign, the
 * funnel (when the flow names its call: flow.json › funnel) and the inactivity timer.
 */
function runtimeSlices(opts: RuntimeOptions, storages: Storages) {
  const { connectPow, ...engineOpts } = engineOptions(opts, storages.session);
  return [
    ...engineSlices(engineOpts),
    (e: FlowEngine) => wireEngine(e, opts.api, connectPow),
    (e: FlowEngine) => persistenceSlice(e, storages),
    (e: FlowEngine) => campaignSlice(e, storages),
    (e: FlowEngine) => ({ funnel: e.flow.funnel ? createRuntimeFunnel(e.flow.funnel, e, storages.session) : null }),
    (e: FlowEngine & { campaign: CampaignModel }) => inactivitySlice(e, e.campaign),
  ] as const;
}

/**
 * Creates the runtime slice by slice (./scheduler.ts), `opts.pause` awaited between two slices. Resolves to the engine
 * and its companions plus `start` (nothing runs and no I/O happens before `start`).
 */
export async function createRuntime(opts: RuntimeOptions) {
  const pause = opts.pause ?? (async () => undefined);
  const storages: Storages = {
    storage: () => (typeof window !== 'undefined' ? window.localStorage : undefined),
    session: () => (typeof window !== 'undefined' ? window.sessionStorage : undefined),
  };
  const built = await buildInSlices(runtimeSlices(opts, storages), pause);
  const { persistence, campaign, funnel, inactivity } = built;
  const engine: FlowEngine = built;
  const { flow } = opts;

  /** Restores state, captures the campaign, starts the flow's start calls and the inactivity timer. */
  async function start() {
    await persistence.restoreFx();
    // an e-mailed "resume your quote" link (flow `resume`): its answers replace the stored journey
    const resumed = await resumeFromLink({ flow, engine, migrations: opts.migrations ?? [], location: window.location, history: window.history });
    await pause();
    campaign.landed({ search: window.location.search, userAgent: navigator.userAgent, maxTouchPoints: navigator.maxTouchPoints });
    await pause();
    engine.started();
    await pause();
    if (resumed) engine.navigateFx({ stepId: resumed.to, replace: true });
    inactivity.started();
    bindActivityListeners(document, inactivity);
    if (funnel && flow.funnel) bindFunnel(window, funnel, flow.funnel.batchMs);
  }

  return { engine, campaign, inactivity, funnel, start };
}

/** The funnel (engine/funnel) with this tab's journey id, batches bounded by the wire schema, and keepalive on exit. */
function createRuntimeFunnel(cfg: NonNullable<Flow['funnel']>, engine: FlowEngine, session: () => Storage | undefined) {
  const funnel = createFunnel({
    engine,
    call: cfg.call,
    maxBatch: embudoWire.$defs.EventosBody.properties.eventos.maxItems,
    journey: { initial: journeyId(session()), renew: () => journeyId(session(), true) },
    // automation (navigator.webdriver: replays, e2e) or a tab the staff preview / recorder marked
    synthetic: () => isSyntheticBrowser(typeof navigator !== 'undefined' ? navigator : undefined, session()),
  });
  // as the page goes away there is no time for the CSRF round trip: the same call's request, sent with keepalive
  funnel.exitFx.use(async (batches) => {
    for (const batch of batches) {
      const req = buildRequest(engine.flow.calls[cfg.call], { ...engine.$context.getState(), input: batch });
      postOnPageExit(req.path, req.body);
    }
  });
  return funnel;
}

export type Runtime = Awaited<ReturnType<typeof createRuntime>>;
