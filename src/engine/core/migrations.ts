/**
 * Saved journeys from an older flow version (CONVENTIONS §2: "a `version` field with migrations").
 * The flow's `version` is stamped into the saved state; a declared migration — `flow/migrations/<to>.json`, data:
 * `{ "from": n, "to": n + 1, "operations": [...] }` — brings an older state forward one version at a time. Operations:
 * - `{ "op": "move", "from": "/answers/a/x", "to": "/answers/b/y" }`: rename or move an answer (or any part of the state);
 * - `{ "op": "drop", "path": "/answers/a" }`: forget it;
 * - `{ "op": "mapFlag", "from": "step3", "to": "datos-personales" }`: a visitor standing on a removed step (its flag
 *   `from`) continues at the step `to` (by id).
 * Without a migration for every version in between, the state is not used: the visitor restarts at step 1 with a
 * notice — never a crash.
 */
import { flagsForRoute } from './guards.ts';
import { getAt, setAt } from '../../core/flow/pointer.ts';
import type { Flow, FlowState } from '../../core/flow/types.ts';

export type MigrationOp =
  { op: 'move'; from: string; to: string } | { op: 'drop'; path: string } | { op: 'mapFlag'; from: string; to: string };

export interface Migration {
  from: number;
  to: number;
  operations: MigrationOp[];
}

/** A saved state with the flow version it was saved under (states saved before versions were stamped are version 1). */
export type SavedState = FlowState & { version?: number };

/**
 * Brings `saved` forward to `flow.version`.
 * @returns the migrated state (stamped with the current version), `saved` itself when it is current, or null when
 *   it is newer than the flow or a migration in between is missing
 */
export function migrateState(saved: SavedState, flow: Flow, migrations: Migration[]): SavedState | null {
  let version = typeof saved.version === 'number' ? saved.version : 1;
  if (version === flow.version) return saved;
  if (version > flow.version) return null;
  let state: SavedState = { ...saved };
  while (version < flow.version) {
    const m = migrations.find((x) => x.from === version && x.to === version + 1);
    if (!m) return null;
    for (const op of m.operations) {
      if (op.op === 'move') {
        const value = getAt(state, op.from);
        state = setAt(setAt(state, op.from, undefined), op.to, value);
      } else if (op.op === 'drop') state = setAt(state, op.path, undefined);
      else if (op.op === 'mapFlag' && state.flags?.[op.from]) {
        state = { ...state, flags: flagsForRoute(flow, op.to) };
      }
    }
    version = m.to;
  }
  return { ...state, version };
}
