/**
 * Counters shared by every API instance (`limites`): fixed windows that start at the first hit, like
 * @fastify/rate-limit's own stores. One atomic statement per hit (INSERT … ON CONFLICT DO UPDATE), so concurrent
 * requests on any instance never lose a count. A count can also ride in a larger statement ({@link sqlContar}).
 */
import type { Queryable } from '../index.ts';

export interface Contador {
  /** Hits in the current window (0 when none). */
  current: number;
  /** ms until the window ends. */
  ttl: number;
}

/**
 * The statement that counts one hit (the one rule of a window; also used inside a larger statement, e.g.
 * cotizaciones.ts › insertConCupos). Returns the row `n` (hits in the window, this one included) and `ttl` (ms left).
 * @param clave SQL placeholder of the key (e.g. "$1") @param ventanaMs placeholder of the window length in ms
 * @param si inside a larger statement: count only when the row of CTE `si.cte` has `n <= si.max` (a placeholder) —
 *   a hit refused by an earlier counter is not counted on the later ones, and then this returns no row
 */
export function sqlContar(clave: string, ventanaMs: string, si?: { cte: string; max: string }): string {
  const valores = `${clave}::text, 1, now() + make_interval(secs => ${ventanaMs}::float8 / 1000)`;
  return `INSERT INTO limites (clave, n, vence_en)
         ${si ? `SELECT ${valores} FROM ${si.cte} WHERE ${si.cte}.n <= ${si.max}::integer` : `VALUES (${valores})`}
         ON CONFLICT (clave) DO UPDATE SET
           n = CASE WHEN limites.vence_en <= now() THEN 1 ELSE limites.n + 1 END,
           vence_en = CASE WHEN limites.vence_en <= now() THEN EXCLUDED.vence_en ELSE limites.vence_en END
         RETURNING n, greatest(0, ceil(extract(epoch FROM (vence_en - now())) * 1000))::float8 AS ttl`;
}

const CONTAR = sqlContar('$1', '$2');

/** Shared counters over `db`. */
export function limitesRepository(db: Queryable) {
  return {
    /** Counts one hit for `clave` in a window of `ventanaMs` (a new window when the last one ended). */
    async incrementar(clave: string, ventanaMs: number): Promise<Contador> {
      const [row] = await db.query<{ n: number; ttl: number }>(CONTAR, [clave, ventanaMs]);
      return { current: row.n, ttl: row.ttl };
    },
    /** Reads the current window of `clave` without counting. */
    async leer(clave: string): Promise<Contador> {
      const rows = await db.query<{ n: number; ttl: number }>(
        `SELECT n, greatest(0, ceil(extract(epoch FROM (vence_en - now())) * 1000))::float8 AS ttl FROM limites
         WHERE clave = $1 AND vence_en > now()`,
        [clave],
      );
      return rows[0] ? { current: rows[0].n, ttl: rows[0].ttl } : { current: 0, ttl: 0 };
    },
  };
}
export type LimitesRepository = ReturnType<typeof limitesRepository>;
