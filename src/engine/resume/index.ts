/**
 * Resume a quote from an e-mailed link (flow `resume`). When the page opens with `?<param>=<token>`, the
 * flow's resume call (its bindings read the token at `/meta/enlace`) returns the answers the visitor had given and
 * the flow version they were saved under; they are brought forward with the flow migrations, the reply's `save`
 * parts land in the state (e.g. the re-priced quote), the flags open the `to` step, and the first notice whose
 * condition holds on `{ response }` is shown. A failed call or a version no migration reaches shows the `failed`
 * notice and the visitor starts fresh — never a crash. The token leaves the address bar at once (history.replaceState).
 * Knows no step: everything comes from the flow.
 */
import {
  counterForward,
  counterStart,
  flagsForRoute,
  getAt,
  migrateState,
  setAt,
  stepById,
  when,
  type Flow,
  type FlowState,
  type Migration,
} from '../core/index.ts';
import { buildRequest } from '../calls';
import { startData } from '../state.ts';
import type { FlowEngine } from '../model';

export interface ResumeOptions {
  flow: Flow;
  engine: Pick<FlowEngine, 'requestFx' | 'stateRestored' | 'noticeShown' | '$state'>;
  migrations: Migration[];
  location: { pathname: string; search: string; hash: string };
  history: { replaceState(data: unknown, unused: string, url?: string): void };
}

/** @returns the step to open when the link resumed a quote, else null (no link, or it failed: notice shown) */
export async function resumeFromLink(opts: ResumeOptions): Promise<{ to: string } | null> {
  const { flow, engine } = opts;
  const r = flow.resume;
  if (!r) return null;
  const params = new URLSearchParams(opts.location.search);
  const token = params.get(r.param);
  if (token === null) return null;
  params.delete(r.param);
  const rest = params.toString();
  opts.history.replaceState(null, '', `${opts.location.pathname}${rest ? `?${rest}` : ''}${opts.location.hash}`);

  const current = engine.$state.getState();
  const empty: FlowState = { flags: {}, answers: {}, data: {}, numberDetailStep: counterStart(flow) };
  let reply: unknown;
  try {
    reply = await engine.requestFx(buildRequest(flow.calls[r.call], { ...empty, meta: { enlace: token } }));
  } catch {
    engine.noticeShown(r.failed);
    return null;
  }
  const target = stepById(flow, r.to); // checked by the flow check (resume.to names a step)
  const answers = getAt(reply, r.answers);
  const version = getAt(reply, r.version);
  if (!answers || typeof answers !== 'object' || typeof version !== 'number') {
    engine.noticeShown(r.failed);
    return null;
  }
  // the house-detail counter as if the visitor had walked every detail step before the target
  let counter = counterStart(flow);
  for (const s of flow.steps) if (s.detail && s.order < target.order) counter = counterForward(flow, counter);
  const saved = {
    flags: flagsForRoute(flow, target.id),
    answers: answers as FlowState['answers'],
    data: startData(flow, current.data),
    numberDetailStep: counter,
    version,
  }; // like a restart: only the start calls' data stays
  let state = migrateState(saved, flow, opts.migrations) as FlowState | null;
  if (!state) {
    engine.noticeShown(r.failed);
    return null;
  }
  for (const { from, to } of r.save ?? []) {
    const v = getAt(reply, from);
    if (v !== undefined) state = setAt(state, to, v);
  }
  engine.stateRestored(state);
  const notice = (r.notices ?? []).find((n) => when(flow, n.when, { ...state, response: reply }));
  if (notice) engine.noticeShown(notice.text);
  return { to: target.id };
}
