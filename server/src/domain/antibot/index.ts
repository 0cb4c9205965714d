/**
 * The anti-bot proof of work that makes scripted quoting costly, self-hosted with ALTCHA (altcha-lib, v2 challenges): the server hands
 * out HMAC-signed challenges (`desafio`) that cost a browser about `dificultad / 2` SHA-256 rounds on average to solve,
 * and `verificar` accepts each solved challenge once. Stateless for issuing (the signature is the proof that this
 * deployment issued it: the key must be the same on every instance); single-use through `antibot_usados`
 * (migration 017), where the signature of each accepted challenge stays until the challenge expires.
 */
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Challenge, Solution } from 'altcha-lib/types';
import type { Queryable } from '../../db/index.ts';
import { antibotRepository } from '../../db/repositories/antibot.ts';

/** What the browser sends back: the challenge it was given and its solution (wire: schemas/api/antibot.json#/$defs/Solucion). */
export interface SolucionAntibot {
  challenge: Challenge;
  solution: Solution;
}

/** Why a solution was refused (`ok: true` when accepted). */
export type ResultadoAntibot = { ok: true } | { ok: false; motivo: 'FALTA' | 'VENCIDO' | 'INVALIDO' | 'REPETIDO' };

export interface AntibotOptions {
  /** Where used signatures are kept (the app's database). */
  db: Queryable;
  /** HMAC secret (the same on every instance): signs the challenges and the expected keys. */
  secreto: string;
  /** Largest counter a challenge may need (uniform in [dificultad/2, dificultad]); config.ts › DEFAULTS: 50 000. */
  dificultad: number;
  /** How long a challenge can be solved and used, seconds (DEFAULTS: 1800, as the house questions can take a while). */
  vidaSeg: number;
}

/** The anti-bot service of one app instance. */
export function createAntibot(opts: AntibotOptions) {
  const { dificultad, vidaSeg } = opts;
  // Two secrets derived from one: the challenge signature and the key signature (altcha's fast verification path).
  const firma = `${opts.secreto}:desafio`;
  const firmaClave = `${opts.secreto}:clave`;
  const usados = antibotRepository(opts.db);
  return {
    /** A new signed challenge (SHA-256, deterministic counter in [dificultad/2, dificultad], expiring in `vidaSeg`). */
    async desafio(): Promise<Challenge> {
      return createChallenge({
        algorithm: 'SHA-256',
        cost: 1,
        counter: randomInt(dificultad, Math.max(1, Math.floor(dificultad / 2))),
        deriveKey,
        expiresAt: Math.floor(Date.now() / 1000) + vidaSeg,
        hmacSignatureSecret: firma,
        hmacKeySignatureSecret: firmaClave,
      });
    },
    /**
     * Checks a solution and, when good, spends it (an atomic insert of its challenge's signature: two instances
     * receiving the same solution at once accept it once). Never throws for what a client sends.
     */
    async verificar(payload: SolucionAntibot | undefined): Promise<ResultadoAntibot> {
      if (!payload?.challenge || !payload.solution) return { ok: false, motivo: 'FALTA' };
      let r;
      try {
        r = await verifySolution({
          challenge: payload.challenge,
          solution: payload.solution,
          deriveKey,
          hmacSignatureSecret: firma,
          hmacKeySignatureSecret: firmaClave,
        });
      } catch {
        return { ok: false, motivo: 'INVALIDO' };
      }
      if (r.expired) return { ok: false, motivo: 'VENCIDO' };
      if (!r.verified) return { ok: false, motivo: 'INVALIDO' };
      const vence = payload.challenge.parameters.expiresAt ?? Math.floor(Date.now() / 1000) + vidaSeg;
      // one round trip: expired signatures go (they cannot be replayed anyway) and this one is spent
      return (await usados.gastar(payload.challenge.signature, vence)) ? { ok: true } : { ok: false, motivo: 'REPETIDO' };
    },
  };
}
export type Antibot = ReturnType<typeof createAntibot>;
