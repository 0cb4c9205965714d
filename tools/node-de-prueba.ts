/**
 * V8 flags for the server tests' Node processes (Vitest's server workers, vite.config.ts; the API and CLI processes
 * the tests start): PGlite's WebAssembly on the baseline compiler only. Such a process lives seconds, and TurboFan's
 * tier-up of PostgreSQL is CPU it never earns back (an idle API start and what V8 optimises after it: 8.8 CPU-s
 * without the flag, 6.1 with it). The staff's and testers' tools run with it too (package.json: flow:check, replay,
 * flow:paths; `flow:check` 9.4 → 8.4 s). Production and the benches keep V8's defaults. It lives in tools/ because
 * vite.config.ts reads it, and an edited tree's build (tests/support/edited-tree.ts) copies tools/ but no test folder.
 */
export const NODE_DE_PRUEBA = ['--liftoff-only'];
