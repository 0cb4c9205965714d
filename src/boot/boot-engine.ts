/**
 * Boot phase "engine" (loaded by ./start.ts as its own chunk, evaluated in its own task, so a phone's start-up has no
 * long task): the flow compiled
 * with its precompiled conditions, the texts, and the runtime (Effector engine, persistence, campaign, funnel,
 * inactivity) — everything the app needs before React renders, and nothing of React.
 * In development the flow is also checked here (a staffer editing flow.json under `npm run dev` sees what to fix);
 * a production bundle is built only from a flow the checker passed (tools/validators/compile.ts fails the build),
 * so it carries neither the checker nor its cost.
 */
import flowJson from '../../flow/flow.json';
import { api } from '../api/instance';
import { compileFlow } from '../core/flow/graph.ts';
import type { Flow, FlowDef } from '../core/flow/types.ts';
import type { Migration } from '../engine/core/migrations.ts';
import { createRuntime, type Runtime } from '../engine/runtime';
import { conditionTests } from '../form/validators';
import { i18n } from '../i18n';

export { api, i18n };
export type { Runtime } from '../engine/runtime';

const def = flowJson as unknown as FlowDef;

/**
 * Problems that stop the flow from running, as text for the developer; `null` when there are none. Always `null` in
 * production (checked at build).
 */
export async function flowProblems(): Promise<string | null> {
  if (!import.meta.env.DEV) return null;
  const [{ checkFlow, errorsOnly, formatProblems }, { allUiSchemas }, { callsNamedInUi }] = await Promise.all([
    import('../core/flow/check-flow.ts'),
    import('../form/validators/schemas'),
    import('../form/widgets/registry'),
  ]);
  const problems = errorsOnly(checkFlow(def, undefined, { callsUsedElsewhere: callsNamedInUi(allUiSchemas()).map((c) => c.call) }));
  return problems.length ? formatProblems(problems) : null;
}

/** The flow of flow/flow.json compiled with its precompiled conditions (src/form/validators/generated/__conditions.js). */
export const loadFlow = (): Flow => compileFlow(def, conditionTests());

/** The app's runtime for `flow` (Effector units created; nothing started, no I/O yet); `pause` between its parts. */
export function buildRuntime(flow: Flow, pause: () => Promise<void>): Promise<Runtime> {
  const migrations = Object.values(import.meta.glob<Migration>('../../flow/migrations/*.json', { eager: true, import: 'default' }));
  return createRuntime({
    flow,
    api,
    migrations,
    texts: { genericError: i18n.t('errors.generic'), timeoutError: i18n.t('errors.timeout') },
    pause,
  });
}
