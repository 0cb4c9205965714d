/**
 * The journey state's shape over time: a fresh state, a restored one made safe, and what survives a restart.
 */
import { counterStart, initialFlags, parsePointer, setGuard, type Flow, type FlowState } from './core/index.ts';

/** Fresh journey state: initial flags, no answers, no data, counter at its start (SPEC §3, §4). */
export function emptyState(flow: Flow): FlowState {
  return { flags: initialFlags(flow), answers: {}, data: {}, numberDetailStep: counterStart(flow), version: flow.version };
}

/**
 * The part of `data` a restart keeps: what the flow's start calls saved (they do not run again, e.g. whether the
 * chat is on). @returns `data` reduced to the top-level keys those calls' `save` pointers write under `/data`
 */
export function startData(flow: Flow, data: FlowState['data']): FlowState['data'] {
  const keys = new Set<string>();
  for (const ref of flow.onStart ?? []) {
    const call = flow.calls[typeof ref === 'string' ? ref : ref.call];
    const targets = call?.save === undefined ? [] : typeof call.save === 'string' ? [call.save] : call.save.map((s) => s.to);
    for (const target of targets) {
      const tokens = parsePointer(target);
      if (tokens?.[0] === 'data' && tokens[1] !== undefined) keys.add(tokens[1]);
    }
  }
  return Object.fromEntries([...keys].filter((k) => data[k] !== undefined).map((k) => [k, data[k]]));
}

export /** Restored state made safe: unknown flags dropped, missing parts filled (old or hand-edited storage). */
function sanitize(flow: Flow, raw: FlowState): FlowState {
  const base = emptyState(flow);
  if (!raw || typeof raw !== 'object') return base;
  const flags = raw.flags && typeof raw.flags === 'object' ? setGuard(flow, raw.flags) : base.flags;
  return {
    flags,
    answers: raw.answers && typeof raw.answers === 'object' ? raw.answers : {},
    data: raw.data && typeof raw.data === 'object' ? raw.data : {},
    numberDetailStep: typeof raw.numberDetailStep === 'number' ? raw.numberDetailStep : base.numberDetailStep,
    version: flow.version,
  };
}
