/**
 * Web Worker that solves one ALTCHA challenge (altcha-lib v2 `solveChallenge`, SHA-256 on Web Crypto) off the main
 * thread. Message in: the challenge; message out: the solution, or null when it could not be solved.
 */
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import type { Challenge } from 'altcha-lib/types';

self.onmessage = async (event: MessageEvent<Challenge>) => {
  let solution = null;
  try {
    solution = await solveChallenge({ challenge: event.data, deriveKey });
  } catch {
    solution = null;
  }
  self.postMessage(solution);
};
