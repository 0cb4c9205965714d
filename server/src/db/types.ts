/**
 * The database's interface (PGlite or PostgreSQL through `pg`, db/index.ts) and the one error that means "away":
 * a module of its own so the adapters (index.ts, pglite-thread.ts) both import it without importing each other.
 */

/** The database cannot be reached right now (connection refused/lost/timed out, server shutting down). */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super('La base de datos no está disponible.', { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

/** Something SQL can be sent to: the database or an open transaction. */
export interface Queryable {
  /** Runs one parameterised statement ($1, $2 …) and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** Connections of a `pg` pool right now (metrics). */
export interface EstadoPool {
  total: number;
  libres: number;
  esperando: number;
  max: number;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** PostgreSQL only: the pool's totalCount, idleCount, waitingCount and max (PGlite has no pool). */
  estadoPool?(): EstadoPool;
  /** Runs `fn` inside BEGIN/COMMIT; rolls back and rethrows if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
