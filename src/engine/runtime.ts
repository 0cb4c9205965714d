/**
 * The running app's engine: one flow engine wired to the real world — HTTP (wretch client),
 * localStorage persistence (minus card number and CBU), the 10-minute inactivity timer, campaign
 * capture and its click log (SPEC §1, §4, §7, §9). Campaign, funnel and inactivity are wired by `wireSlices`
 * (wire.ts), which the headless replay builds too. Tests build engines with `createFlowEngine` and replace effects instead.
 */
import { sample } from 'effector';
import { postKeepalive, postOnPageExit, type ApiClient } from '../api/client';
import { buildRequest } from './calls.ts';
import { getSessionKey } from './campaign/index';
import type { Flow } from '../core/flow/types.ts';
import { stepById } from './core/index.ts';
import type { Migration } from './core/migrations.ts';
import { browserName } from './device';
import { bindActivityListeners } from './inactivity/index';
import { bindFunnel, isSyntheticBrowser, journeyId, type FunnelBatch } from './funnel/index';
import { engineSlices, type EngineOptions, type FlowEngine } from './model';
import { buildInSlices, whenIdle } from './scheduler.ts';
import { createPersistence } from './persistence/index';
import { resumeFromLink } from './resume/index';
import { wireSlices } from './wire.ts';

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
function engineOptions(
  opts: RuntimeOptions,
  session: () => Storage | undefined,
): EngineOptions & { connectPow: (engine: FlowEngine) => void } {
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
    meta: {
      app: APP_LABEL,
      version: APP_VERSION,
      flowVersion: flow.version,
      sessionKey: getSessionKey(session() as Storage),
      browser: browserName(navigator.userAgent),
    },
    connectPow: (engine) => {
      callFx = engine.callFx;
      // when the visitor reaches the step where solving starts (or a later one), then a challenge is solved in the
      // background, once the browser is idle: its chunk, request and worker never hold up that step's first render
      if (pow)
        engine.routeEntered.watch(({ stepId }) => {
          if (stepById(flow, stepId).order >= stepById(flow, pow.startAt).order) whenIdle(() => void load().then((p) => p.warm()), 1000);
        });
    },
  };
}

/** The engine wired to the app's HTTP client and the flow's proof of work. */
function wireEngine(engine: FlowEngine, api: ApiClient, connectPow: (engine: FlowEngine) => void) {
  engine.requestFx.use((req) =>
    req.method === 'GET'
      ? api.get(req.path, req.query)
      : api.post(req.path, req.body, req.idempotencyKey ? { idempotencyKey: req.idempotencyKey } : undefined),
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
 * The runtime's factories in build order: the engine's features (./model.ts), then persistence, campaign, the
 * funnel (when the flow names its call: flow.json › funnel) and the inactivity timer.
 */
function runtimeSlices(opts: RuntimeOptions, storages: Storages) {
  const { connectPow, ...engineOpts } = engineOptions(opts, storages.session);
  return [
    ...engineSlices(engineOpts),
    (e: FlowEngine) => wireEngine(e, opts.api, connectPow),
    (e: FlowEngine) => persistenceSlice(e, storages),
    // campaign, funnel and inactivity wired as the headless replay wires them (wire.ts): the browser's storage, this
    // tab's journey id; automation or a tab the staff preview / recorder marked is synthetic
    ...wireSlices({
      ...storages,
      journey: { initial: journeyId(storages.session()), renew: () => journeyId(storages.session(), true) },
      synthetic: () => isSyntheticBrowser(typeof navigator !== 'undefined' ? navigator : undefined, storages.session()),
    }),
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
  if (funnel && flow.funnel) {
    // as the page goes away there is no time for the CSRF round trip: the funnel's last batches go with keepalive
    funnel.exitFx.use(exitWithKeepalive(flow.funnel.call, engine));
    // and so do the timer's batches once the page holds a token: one on its way when the visitor leaves still arrives
    funnel.sendFx.use(sendWithKeepalive(flow.funnel.call, engine, funnel.sendFx.use.getCurrent()));
  }

  /** Restores state, captures the campaign, starts the flow's start calls and the inactivity timer. */
  async function start() {
    await persistence.restoreFx();
    // an e-mailed "resume your quote" link (flow `resume`): its answers replace the stored journey
    const resumed = await resumeFromLink({
      flow,
      engine,
      migrations: opts.migrations ?? [],
      location: window.location,
      history: window.history,
    });
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

/** The request of the funnel's call (flow.json › funnel.call) for one batch, as the engine would build it. */
const funnelRequest = (call: string, engine: FlowEngine, batch: unknown) =>
  buildRequest(engine.flow.calls[call], { ...engine.$context.getState(), input: batch });

/** The funnel's batches posted as the page goes away: the same call's request, sent with keepalive (no CSRF round trip). */
function exitWithKeepalive(call: string, engine: FlowEngine) {
  return async (batches: unknown[]) => {
    for (const batch of batches) {
      const req = funnelRequest(call, engine, batch);
      postOnPageExit(req.path, req.body);
    }
  };
}

/**
 * The funnel's batches posted while the page lives: with keepalive and the cookie's CSRF token (a plain fetch still on
 * its way when the visitor leaves is cancelled by the browser, and its events were already taken off the queue); before
 * the page holds a token (no POST yet), through `viaCall` (the flow's call, which fetches one). Rejects when a batch
 * was refused or got no reply, as `viaCall` does.
 */
export function sendWithKeepalive(call: string, engine: FlowEngine, viaCall: (batches: FunnelBatch[]) => Promise<void>) {
  return async (batches: FunnelBatch[]) => {
    const sent = batches.map((batch) => {
      const req = funnelRequest(call, engine, batch);
      return postKeepalive(req.path, req.body) ?? viaCall([batch]);
    });
    await Promise.all(sent);
  };
}

export type Runtime = Awaited<ReturnType<typeof createRuntime>>;
