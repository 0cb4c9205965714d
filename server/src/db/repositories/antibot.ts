/**
 * Spent anti-bot challenges (`antibot_usados`, migration 017): the signature of each accepted challenge stays until
 * the challenge expires, so a solution is accepted once across every instance.
 */
import type { Queryable } from '../types.ts';

/** Spent challenges over `db`. */
export function antibotRepository(db: Queryable) {
  return {
    /**
     * Spends challenge `firma` (valid until `venceSeg`, Unix seconds) in one atomic statement that also drops
     * signatures expired over a minute ago. @returns true when it was not spent before (false: a replay)
     */
    async gastar(firma: string | undefined, venceSeg: number): Promise<boolean> {
      const filas = await db.query(
        `WITH limpieza AS (DELETE FROM antibot_usados WHERE vence_en < now() - interval '1 minute')
         INSERT INTO antibot_usados (firma, vence_en) VALUES ($1, to_timestamp($2)) ON CONFLICT (firma) DO NOTHING RETURNING firma`,
        [firma, venceSeg],
      );
      return filas.length === 1;
    },
  };
}
