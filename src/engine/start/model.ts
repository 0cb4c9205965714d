/**
 * Start-up of a journey (SPEC §4): a restored journey replaces the fresh state (migrated to the flow's version, or
 * dropped with a notice when no migration reaches it), and the flow's `onStart` calls run once (e.g. the chat flag).
 */
import { attach, createEffect, createStore, sample } from 'effector';
import { migrateState, type FlowContext, type FlowState } from '../core/index.ts';
import type { EngineOptions, Journey } from '../journey/index.ts';
import type { CallRunner } from '../submit/index.ts';
import { sanitize } from '../state.ts';

/** Restore, migration notice and start calls over `journey`; `$notice` is an es.json › app.avisos key or null. */
export function createStart(journey: Journey, runner: CallRunner, opts: Pick<EngineOptions, 'migrations'>) {
  const { flow, $state, stateRestored, noticeShown, stepSubmitted, started } = journey;
  const startCallsFx = attach({
    source: journey.$context,
    effect: createEffect(async (ctx: FlowContext) => runner.runCalls(flow.onStart ?? [], ctx)),
  });
  // when restored state arrives, then it replaces the fresh one (SPEC §4: restored at start-up)
  const migrated = sample({
    clock: stateRestored,
    filter: (restored): restored is FlowState => !!restored && typeof restored === 'object',
    fn: (restored) => ({ restored, state: migrateState(restored as FlowState, flow, opts.migrations ?? []) }),
  });
  $state.on(migrated, (state, { state: current }) => (current ? sanitize(flow, current) : state));
  // when a saved journey is from a flow version no migration reaches, then the visitor starts over, and is told so
  const $notice = createStore<string | null>(null)
    .on(migrated, (_, { state }) => (state ? null : 'flujoActualizado'))
    .on(noticeShown, (_, notice) => notice)
    .reset(stepSubmitted);
  // when the app starts, then the flow's start calls run (chat flag)
  sample({ clock: started, target: startCallsFx });
  // when start calls end, then their saved data lands in the state
  $state.on(startCallsFx.doneData, (state, outcome) => ({ ...state, data: { ...state.data, ...outcome.ctx.data } }));
  return { $notice };
}
