/**
 * A proof of work solved in the background (flow.json › proofOfWork). Loaded lazily by the runtime
 * once the visitor reaches `startAt` — never part of the start-up code. `warm()` fetches a challenge and solves it, once
 * per page (`solve`: a Web Worker in the browser, engine/proof-of-work/solve.ts); `prepare(ctx)` — the engine's `prepareCall`
 * for the calls in `for` — waits for that solution, puts `{ challenge, solution }` at `to` and spends it, so a retry
 * solves a new challenge. A challenge that cannot be fetched or solved leaves the context as it is: the server then
 * refuses the call with its own Spanish message and the visitor's answers stay on the form.
 */
import { setAt, type FlowContext } from '../core/index.ts';

/** An ALTCHA v2 challenge as GET /api/antibot/desafio sends it (schemas/api/antibot.json › Desafio). */
export interface Challenge {
  parameters: { expiresAt?: number; [k: string]: unknown };
  signature?: string;
}
/** What solving found (altcha-lib Solution: counter, derivedKey hex, time ms). */
export interface Solution {
  counter: number;
  derivedKey: string;
  time?: number;
}

export interface ProofOfWorkOptions {
  /** Pointer (under /meta) where the prepared context carries the solution. */
  to: string;
  /** Fetches a fresh challenge (the flow's `challenge` call). */
  fetchChallenge: () => Promise<Challenge>;
  /** Solves it off the main thread; null when it could not. */
  solve: (challenge: Challenge) => Promise<Solution | null>;
  /** A solution is not used this close to its challenge's expiry, ms (default 60 000). */
  marginMs?: number;
  now?: () => number;
}

/** @returns `warm` (start solving now, once) and `prepare` (the engine's prepareCall for the calls that spend it). */
export function createProofOfWork(opts: ProofOfWorkOptions) {
  const now = opts.now ?? Date.now;
  const margin = opts.marginMs ?? 60_000;
  let pending: Promise<{ challenge: Challenge; solution: Solution } | null> | null = null;
  let warmed = false;

  async function obtain() {
    try {
      const challenge = await opts.fetchChallenge();
      const solution = await opts.solve(challenge);
      return solution ? { challenge, solution } : null;
    } catch (err) {
      console.error('Prueba de trabajo: no se pudo resolver', (err as Error)?.message ?? err);
      return null;
    }
  }
  const fresh = (p: { challenge: Challenge } | null) => !!p && (p.challenge.parameters.expiresAt ?? Infinity) * 1000 - margin > now();

  return {
    /**
     * Starts fetching and solving a challenge in the background — once per page: after that, each call that needs
     * a solution (a retry, a new quote) solves one when it runs, so no work is wasted on steps past the quote.
     */
    warm(): void {
      if (warmed) return;
      warmed = true;
      pending ??= obtain();
    },
    /** Waits for the solution (a new one when none is under way or it is about to expire), spends it, returns ctx with it at `to`. */
    async prepare(ctx: FlowContext): Promise<FlowContext> {
      let got = await (pending ?? obtain());
      pending = null;
      if (got && !fresh(got)) got = await obtain();
      return got ? setAt(ctx, opts.to, got) : ctx;
    },
  };
}
export type ProofOfWork = ReturnType<typeof createProofOfWork>;
