/**
 * Solves an ALTCHA challenge without blocking the page: in a Web Worker (its own chunk, loaded only when solving
 * starts); where there is no Worker (Node tools), with altcha-lib directly, which yields to the event loop.
 * @returns the solution, or null when the challenge could not be solved (timeout, bad challenge, worker error)
 */
import type { Challenge, Solution } from './index.ts';

export async function solveInBackground(challenge: Challenge): Promise<Solution | null> {
  if (typeof Worker === 'undefined') {
    const [{ solveChallenge }, { deriveKey }] = await Promise.all([import('altcha-lib'), import('altcha-lib/algorithms/web/sha')]);
    return solveChallenge({ challenge: challenge as never, deriveKey });
  }
  const worker = new Worker(new URL('./pow.worker.ts', import.meta.url), { type: 'module' });
  try {
    return await new Promise<Solution | null>((resolve) => {
      worker.onmessage = (e: MessageEvent<Solution | null>) => resolve(e.data);
      worker.onerror = () => resolve(null);
      worker.postMessage(challenge);
    });
  } finally {
    worker.terminate();
  }
}
