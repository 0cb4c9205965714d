/**
 * Persistence port: one small interface (`query`, `exec`, `transaction`, `close`) with two adapters,
 * PGlite (embedded PostgreSQL in WASM; default, files in DATA_DIR/pglite, or in memory for tests) and
 * node-postgres (`pg` Pool, when DATABASE_URL is set). Repositories only see `Db`/`Queryable`, so the same
 * SQL runs on both engines.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** Something SQL can be sent to: the database or an open transaction. */
export interface Queryable {
  /** Runs one parameterised statement ($1, $2 …) and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` inside BEGIN/COMMIT; rolls back and rethrows if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Opens a PGlite database.
 * @param dataDir directory for the files, or undefined for an in-memory database (tests)
 */
export async function createPgliteDb(dataDir?: string): Promise<Db> {
  const pglite = dataDir ? new PGlite(dataDir) : new PGlite();
  await pglite.waitReady;
  return {
    kind: 'pglite',
    async query<T>(sql: string, params: unknown[] = []) {
      return (await pglite.query<T>(sql, params)).rows;
    },
    async exec(sql) {
      await pglite.exec(sql);
    },
    transaction(fn) {
      return pglite.transaction((tx) =>
        fn({
          async query<T>(sql: string, params: unknown[] = []) {
            return (await tx.query<T>(sql, params)).rows;
          },
          async exec(sql) {
            await tx.exec(sql);
          },
        }),
      );
    },
    async close() {
      if (!pglite.closed) await pglite.close();
    },
  };
}

/**
 * Opens a PostgreSQL pool.
 * @param connectionString e.g. postgres://user@host:5432/db
 * @param schema optional schema put first on every connection's search_path (test isolation)
 */
export async function createPostgresDb(connectionString: string, schema?: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: 10, ...(schema ? { options: `-c search_path=${schema}` } : {}) });
  const client = await pool.connect(); // fail fast when the server is unreachable
  client.release();
  const wrap = (c: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []) {
      return (await c.query(sql, params)).rows as T[];
    },
    async exec(sql) {
      await c.query(sql);
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        const result = await fn(wrap(c));
        await c.query('COMMIT');
        return result;
      } catch (err) {
        await c.query('ROLLBACK');
        throw err;
      } finally {
        c.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
