/**
 * The engine's companions wired as every run of the app wires them: the app's runtime (runtime.ts, in the browser)
 * and the headless replay (tools/replay/headless.ts, in Node) both call {@link wireRuntime}, so a replay's campaign,
 * funnel and session end behave as the app's. What differs between the two — where storage lives, the journey id,
 * what marks a journey synthetic — comes in `io`; nothing here touches `window` or starts a timer.
 */
import { createEffect, createEvent, sample } from 'effector';
import embudoWire from '../../schemas/api/embudo.json' with { type: 'json' };
import { createCampaignModel, type LogPayload } from './campaign/index.ts';
import { createFunnel } from './funnel/index.ts';
import { createInactivity } from './inactivity/index.ts';
import type { FlowEngine } from './model.ts';

/** What the run gives the wiring. */
export interface RuntimeIo {
  /** Local and session storage (the browser's, or one kept in memory); undefined where there is none. */
  storage: () => Storage | undefined;
  session: () => Storage | undefined;
  /** Product version sent with the campaign's click log. */
  version: string;
  /** The funnel's journey id: this tab's at start, a new one when the journey starts over. */
  journey: { initial: string; renew: () => string };
  /** True when the journey must be left out of the staff funnel report (automation, a replay, a staff preview). */
  synthetic: () => boolean;
  /** Awaited between the parts (start-up in short tasks on a phone); default none. */
  pause?: () => Promise<void>;
}

/**
 * Creates and wires, `io.pause` awaited between them: the campaign module (its parameters into the engine's bindings;
 * its click log through the call flow.json › campaign.clickLog names, none → not sent), the staff funnel (flow.json ›
 * funnel, none → nothing recorded; batches bounded by the wire schema) and the inactivity timer (not started here).
 * `sessionEnded` ends the session as the inactivity limit does: the engine's journey and the campaign keys go (SPEC §4).
 */
export async function wireRuntime(engine: FlowEngine, io: RuntimeIo) {
  const { flow } = engine;
  const pause = io.pause ?? (async () => undefined);
  const clickLog = flow.campaign?.clickLog;
  const insertLogFx = createEffect((payload: LogPayload) => (clickLog ? engine.callFx({ name: clickLog, input: payload }) : undefined));
  const campaign = createCampaignModel({ insertLogFx, storage: io.storage, session: io.session, version: io.version });
  // when campaign parameters change, then the engine's bindings see them
  sample({ clock: campaign.$campaign, target: engine.campaignChanged });

  await pause();
  const funnel = flow.funnel
    ? createFunnel({ engine, call: flow.funnel.call, maxBatch: embudoWire.$defs.EventosBody.properties.eventos.maxItems, journey: io.journey, synthetic: io.synthetic })
    : null;

  await pause();
  const inactivity = createInactivity({ timeoutMs: flow.inactivityMs });
  const sessionEnded = createEvent();
  // when the session ends (10 minutes idle), then the journey and the campaign keys go, in every case (SPEC §4)
  sample({ clock: sessionEnded, target: [engine.sessionExpired, campaign.cleared] });
  // when the inactivity limit passes, then the session ends and a new window opens
  sample({ clock: inactivity.expired, target: [sessionEnded, inactivity.started] });

  return { campaign, funnel, inactivity, sessionEnded };
}
