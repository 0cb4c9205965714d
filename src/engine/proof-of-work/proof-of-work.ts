/**
 * The runtime's one lazy entry into the proof of work (flow.json › proofOfWork): `forFlow(cfg, callFx)` = a
 * {@link createProofOfWork} whose challenges come from the flow's `challenge` call and are solved in a Web Worker.
 * Imported with `import()` from engine/runtime.ts only once the visitor reaches `startAt`: never a start-up chunk.
 */
import type { Flow } from '../../core/flow/types.ts';
import { createProofOfWork, type Challenge } from './index.ts';
import { solveInBackground } from './solve.ts';

export const forFlow = (cfg: NonNullable<Flow['proofOfWork']>, callFx: (p: { name: string }) => Promise<unknown>) =>
  createProofOfWork({ to: cfg.to, solve: solveInBackground, fetchChallenge: () => callFx({ name: cfg.challenge }) as Promise<Challenge> });
