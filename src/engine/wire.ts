/**
 * The engine's companions wired as every run of the app wires them: the app's runtime (runtime.ts, in the browser)
 * and the headless replay (tools/replay/headless.ts, in Node) both build them from {@link wireSlices}, so a replay's
 * campaign, funnel and session end behave as the app's. What differs between the two — where storage lives, the
 * journey id, what marks a journey synthetic — comes in `io`; nothing here touches `window` or starts a timer.
 */
import { createEffect, createEvent, sample } from 'effector';
import embudoWire from '../../schemas/api/embudo.json' with { type: 'json' };
import { createCampaignModel, type CampaignModel, type ClickLogInput } from './campaign/index.ts';
import { createFunnel } from './funnel/index.ts';
import { createInactivity } from './inactivity/index.ts';
import type { FlowEngine } from './model.ts';
import { buildInSlices } from './scheduler.ts';

/** What the run gives the wiring. */
export interface RuntimeIo {
  /** Local and session storage (the browser's, or one kept in memory); undefined where there is none. */
  storage: () => Storage | undefined;
  session: () => Storage | undefined;
  /** The funnel's journey id: this tab's at start, a new one when the journey starts over. */
  journey: { initial: string; renew: () => string };
  /** True when the journey must be left out of the staff funnel report (automation, a replay, a staff preview). */
  synthetic: () => boolean;
}

/**
 * The campaign module: its parameters go into the engine's bindings; its click log goes through the call the flow
 * names for it (flow.json › campaign.clickLog, whose body binding builds the payload from `/input` and `/meta`; no call
 * named → not sent).
 */
function campaignSlice(engine: FlowEngine, io: RuntimeIo) {
  const clickLog = engine.flow.campaign?.clickLog;
  const clickLogFx = createEffect((input: ClickLogInput) => (clickLog ? engine.callFx({ name: clickLog, input }) : undefined));
  const campaign = createCampaignModel({ clickLogFx, storage: io.storage, session: io.session });
  // when campaign parameters change, then the engine's bindings see them
  sample({ clock: campaign.$campaign, target: engine.campaignChanged });
  return { campaign };
}

/** The staff funnel (flow.json › funnel; none → nothing recorded), batches bounded by the wire schema. */
function funnelSlice(engine: FlowEngine, io: RuntimeIo) {
  const cfg = engine.flow.funnel;
  const funnel = cfg
    ? createFunnel({
        engine,
        call: cfg.call,
        maxBatch: embudoWire.$defs.EventosBody.properties.eventos.maxItems,
        journey: io.journey,
        synthetic: io.synthetic,
      })
    : null;
  return { funnel };
}

/**
 * The inactivity timer (not started here) and `sessionEnded`: it ends the session as the inactivity limit does — the
 * engine's journey and the campaign keys go, in every case (SPEC §4) — and a new window opens.
 */
function sessionSlice(engine: FlowEngine & { campaign: CampaignModel }) {
  const inactivity = createInactivity({ timeoutMs: engine.flow.inactivityMs });
  const sessionEnded = createEvent();
  sample({ clock: sessionEnded, target: [engine.sessionExpired, engine.campaign.cleared] });
  sample({ clock: inactivity.expired, target: [sessionEnded, inactivity.started] });
  return { inactivity, sessionEnded };
}

/** The companions' factories in build order (./scheduler.ts slices): campaign, funnel, inactivity and session end. */
export function wireSlices(io: RuntimeIo) {
  return [
    (engine: FlowEngine) => campaignSlice(engine, io),
    (engine: FlowEngine) => funnelSlice(engine, io),
    (engine: FlowEngine & { campaign: CampaignModel }) => sessionSlice(engine),
  ] as const;
}

/**
 * Creates and wires the companions of an engine built elsewhere (the headless replay), `pause` awaited between them.
 * Resolves to `{ campaign, funnel (null without flow.json › funnel), inactivity, sessionEnded }`.
 */
export async function wireRuntime(engine: FlowEngine, io: RuntimeIo, pause: () => Promise<void> = async () => undefined) {
  const { campaign, funnel, inactivity, sessionEnded } = await buildInSlices([() => engine, ...wireSlices(io)] as const, pause);
  return { campaign, funnel, inactivity, sessionEnded };
}
