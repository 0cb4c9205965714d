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
import { createCampaignModel, getSessionKey, type LogPayload } from './campaign/index';
import type { Flow } from '../core/flow/types.ts';
import { stepById } from './core/index.ts';
import type { Migration } from './core/migrations.ts';
import { browserName } from './device';
import { bindActivityListeners, createInactivity } from './inactivity/index';
import { bindFunnel, createFunnel, isSyntheticBrowser, journeyId } from './funnel/index';
import { createFlowEngineInParts, type FlowEngine } from './model';
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
   * Awaited between the parts of the creation and of `start` (issue 9: each part its own task, so that start-up never
   * holds the main thread long on a phone); src/main.tsx passes a yield to the browser. Default: none.
   */
  pause?: () => Promise<void>;
}

/**
 * Creates the runtime in parts, `opts.pause` awaited between them: the engine (itself in parts), persistence, campaign,
 * the funnel, the inactivity timer. Resolves to the engine and its companions plus `start` (nothing runs and no
 * I/O happens before `start`).
 */
export async function createRuntime(opts: RuntimeOptions) {
  const { flow, api } = opts;
  const pause = opts.pause ?? (async () => undefined);
  const storage = () => (typeof window !== 'undefined' ? window.localStorage : undefined);
  const session = () => (typeof window !== 'undefined' ? window.sessionStorage : undefined);
  // the flow's background proof of work (flow.json › proofOfWork): its code is a lazy chunk, loaded from `startAt` on
  const pow = flow.proofOfWork;
  let powModule: Promise<import('./proof-of-work/index.ts').ProofOfWork> | undefined;
  const loadPow = () => (powModule ??= import('./proof-of-work/proof-of-work.ts').then((m) => m.forFlow(pow!, engine.callFx)));
  const engine = await createFlowEngineInParts({
    flow,
    genericError: opts.texts.genericError,
    timeoutError: opts.texts.timeoutError,
    migrations: opts.migrations,
    prepareCall: pow && (async (name, ctx) => (pow.for.includes(name) ? (await loadPow()).prepare(ctx) : ctx)),
    meta: { app: APP_LABEL, version: APP_VERSION, flowVersion: flow.version, sessionKey: getSessionKey(session() as Storage), browser: browserName(navigator.userAgent) },
  }, pause);
  engine.requestFx.use((req) =>
    req.method === 'GET' ? api.get(req.path, req.query) : api.post(req.path, req.body, req.idempotencyKey ? { idempotencyKey: req.idempotencyKey } : undefined),
  );

  // when the visitor reaches the step where solving starts (or a later one), then a challenge is solved in the background
  if (pow) engine.routeEntered.watch(({ stepId }) => {
    if (stepById(flow, stepId).order >= stepById(flow, pow.startAt).order) void loadPow().then((p) => p.warm());
  });

  await pause();
  const persistence = createPersistence({ key: flow.storageKey, $state: engine.$state, exclude: engine.exclude, storage });
  // when the stored journey is read at start-up, then it becomes the state (SPEC §4)
  sample({ clock: persistence.restoreFx.doneData, target: engine.stateRestored });

  await pause();
  // the click log goes through the call the flow names for it (flow.json › campaign.clickLog); none → not sent
  const clickLog = flow.campaign?.clickLog;
  const insertLogFx = createEffect((payload: LogPayload) => (clickLog ? engine.callFx({ name: clickLog, input: payload }) : undefined));
  const campaign = createCampaignModel({ insertLogFx, storage, session, version: APP_VERSION });
  // when campaign parameters change, then the engine's bindings see them
  sample({ clock: campaign.$campaign, target: engine.campaignChanged });

  await pause();
  // the staff's funnel goes through the call the flow names for it (flow.json › funnel); none → nothing recorded
  const funnel = flow.funnel ? createRuntimeFunnel(flow.funnel, engine, session) : null;

  await pause();
  const inactivity = createInactivity({ timeoutMs: flow.inactivityMs });
  // when 10 minutes pass idle, then the session ends and the campaign keys go, in every case (SPEC §4)
  sample({ clock: inactivity.expired, target: [engine.sessionExpired, campaign.cleared, inactivity.started] });

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
