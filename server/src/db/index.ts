/**
 * Persistence port: one small interface (`query`, `exec`, `transaction`, `close`) with two adapters,
 * PGlite (embedded PostgreSQL in WASM; default, files in DATA_DIR/pglite, or in memory for tests) and
 * node-postgres (`pg` Pool, when DATABASE_URL is set). Repositories only see `Db`/`Queryable`, so the same
 * SQL runs on both engines.
 *
 * PGlite is for ONE process: its folder is locked with a PID file (db/lock.ts). Its statements run as prepared
 * statements (pglite-prepared.ts), on the caller's thread or, as `npm start` runs it, on a worker thread of that
 * process (pglite-thread.ts) so that PostgreSQL's work does not hold the HTTP thread. PostgreSQL is for one or many
 * instances: the pool survives dropped connections (an `'error'` handler, connect/statement/idle timeouts) and
 * reports "the database is away" as {@link DatabaseUnavailableError}, which the API answers with 503.
 */
import { PGlite } from '@electric-sql/pglite';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { DEFAULTS } from '../config.ts';
import { acquirePgliteLock, LOCK_FILE } from './lock.ts';
import { migrate, migrationsFingerprint } from './migrate.ts';
import { preparedStatements } from './pglite-prepared.ts';
import { createPgliteThreadDb } from './pglite-thread.ts';
import { DatabaseUnavailableError, type Db, type Queryable } from './types.ts';

export { DatabaseUnavailableError, type Db, type EstadoPool, type Queryable } from './types.ts';

/** SQLSTATE classes/codes meaning "no usable connection" (PostgreSQL Appendix A: 08 connection exception, 57P0x). */
const UNAVAILABLE_SQLSTATE = /^(08...|57P01|57P02|57P03|53300|55000)$/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout|connection timeout|PGlite is closed|not connected/i;

/** @returns whether `err` (from `pg` or PGlite) means the database is unreachable rather than a bad statement */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof DatabaseUnavailableError) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
  return UNAVAILABLE_MESSAGE.test(err.message);
}

/** Rethrows `err`, as {@link DatabaseUnavailableError} when it means the database is away. */
function rethrow(err: unknown): never {
  throw isDatabaseUnavailable(err) && !(err instanceof DatabaseUnavailableError) ? new DatabaseUnavailableError(err) : err;
}

/** Timeouts and size of the PostgreSQL pool (ms; env DB_*, see config.ts). */
export interface PoolSettings {
  /** Connections per instance. Defaults of all four: config.ts › DEFAULTS.db. */
  max?: number;
  /** Give up opening a connection after this long. */
  connectTimeoutMs?: number;
  /** Server-side statement_timeout. */
  statementTimeoutMs?: number;
  /** Close a pooled connection idle this long; also idle_in_transaction_session_timeout. */
  idleTimeoutMs?: number;
}

/**
 * Migrated templates. An in-memory database (tests, the headless replay, the flow walker) used to run PGlite's initdb
 * (its own WASM, ~1.7–4.5 s) and then every migration each time one was opened. It now starts from a dump of a
 * database that ran exactly the current migrations — PGlite's `dumpDataDir` / `loadDataDir` (~0.6 s, no initdb) —
 * made once per process, on first use, by migrate() on a fresh database; migrate() then finds nothing to do. Each
 * database unpacks its own copy of the files, so none sees another's writes (server/src/db/pglite.test.ts).
 *
 * With `PGLITE_PLANTILLA=<folder>` (set by the test helpers — server/test/setup.ts and processes.ts › startServer —
 * and by the staff's and testers' command-line tools, tools/plantilla.ts) the dump is also kept in that folder, named
 * by PGlite's version and the migrations' fingerprint (migrate.ts), so that each process reads it (~40 MB,
 * uncompressed) instead of making its own, and a brand-new data folder (missing, or holding nothing but the lock) is
 * seeded from it instead of running initdb and the migrations. A template made there removes the folder's templates of
 * other versions or migrations not touched for {@link PLANTILLA_VIEJA_MS} (a process still using one has read it
 * whole at its start). Without the variable — production — a data folder is made by PGlite's initdb as always and
 * nothing is written outside it.
 */
export const PLANTILLA_ENV = 'PGLITE_PLANTILLA';

let plantillaDelProceso: Promise<Blob> | undefined;

/** @returns the installed PGlite's version (part of a cached template's name: another PGlite, another template) */
function pgliteVersion(): string {
  const pkg = new URL('../package.json', import.meta.resolve('@electric-sql/pglite'));
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}

/** A fresh PGlite (initdb) with every migration applied, dumped as an uncompressed tar. */
async function crearPlantilla(): Promise<Blob> {
  const pglite = await PGlite.create();
  try {
    await migrate(pgliteAsDb(pglite, () => undefined));
    return await pglite.dumpDataDir('none');
  } finally {
    await pglite.close();
  }
}

/** The template from the folder `dir`; made, and written there when the folder can be written ({@link guardarPlantilla}), when absent. */
async function plantillaEnDisco(dir: string): Promise<Blob> {
  const file = join(dir, `pglite-${pgliteVersion()}-migraciones-${migrationsFingerprint()}.tar`);
  try {
    return new Blob([readFileSync(file)]);
  } catch {
    // absent (or unreadable): made here
  }
  const blob = await crearPlantilla();
  await guardarPlantilla(dir, file, blob);
  return blob;
}

/**
 * Writes `blob` as the template `file` in `dir` (atomically: a temporary name, then a rename), then prunes the folder
 * ({@link podarPlantillas}). Never throws: a folder this process cannot write (a read-only node_modules) leaves the
 * template serving this process only, as without the folder.
 */
export async function guardarPlantilla(dir: string, file: string, blob: Blob): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
    renameSync(tmp, file); // two processes making it at once write the same migrations: either rename is right
    podarPlantillas(dir, file);
  } catch {
    // not cached: the next process makes its own; a partly written copy is removed if there is one
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing was written
    }
  }
}

/** How long a template of other migrations (or another PGlite) is kept after its last change: 1 h (ms). */
export const PLANTILLA_VIEJA_MS = 60 * 60 * 1000;

/** Removes from `dir` the templates other than `actual` not changed for {@link PLANTILLA_VIEJA_MS}; never throws. */
function podarPlantillas(dir: string, actual: string) {
  const limite = Date.now() - PLANTILLA_VIEJA_MS;
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return;
  }
  for (const f of files) {
    const path = join(dir, f);
    if (path === actual || !/^pglite-.+-migraciones-[0-9a-f]+\.tar$/.test(f)) continue;
    try {
      if (statSync(path).mtimeMs < limite) rmSync(path, { force: true });
    } catch {
      // another process removed it meanwhile
    }
  }
}

/**
 * The migrated template of this process (made on the first call; from the `PGLITE_PLANTILLA` folder when set).
 * @returns PGlite's data folder as a tar, to pass as `loadDataDir`
 * @throws Error when a migration fails (the next call tries again)
 */
export function migratedTemplate(): Promise<Blob> {
  if (!plantillaDelProceso) {
    const dir = process.env[PLANTILLA_ENV];
    plantillaDelProceso = dir ? plantillaEnDisco(dir) : crearPlantilla();
    plantillaDelProceso.catch(() => (plantillaDelProceso = undefined));
  }
  return plantillaDelProceso;
}

/**
 * What a database starts from: the migrated template for an in-memory one; for a data folder, the template only with
 * `PGLITE_PLANTILLA` set and a brand-new folder (missing, or nothing in it but the lock file); else nothing (PGlite's
 * own initdb, or the folder's existing database).
 */
function plantillaPara(dataDir: string | undefined): Promise<Blob> | undefined {
  if (!dataDir) return migratedTemplate();
  if (!process.env[PLANTILLA_ENV]) return undefined;
  const nueva = !existsSync(dataDir) || readdirSync(dataDir).every((f) => f === LOCK_FILE);
  return nueva ? migratedTemplate() : undefined;
}

/**
 * Opens a PGlite database.
 * @param dataDir directory for the files, or undefined for an in-memory database (tests, tools), which starts already
 *   migrated (see {@link PLANTILLA_ENV} above)
 * @param opts.hilo run PGlite on a worker thread (pglite-thread.ts; what `npm start` does) instead of on the caller's
 * @param opts.onError with `hilo`: called if that thread dies (every call then fails with DatabaseUnavailableError)
 * @throws Error when the folder is locked by a live process (db/lock.ts) or PGlite cannot open it
 */
export async function createPgliteDb(dataDir?: string, opts: { hilo?: boolean; onError?: (err: Error) => void } = {}): Promise<Db> {
  const release = dataDir ? acquirePgliteLock(dataDir) : () => undefined;
  let loadDataDir: Blob | undefined;
  let pglite: PGlite | undefined;
  try {
    loadDataDir = await plantillaPara(dataDir);
    if (!opts.hilo) {
      pglite = new PGlite({ dataDir, loadDataDir });
      await pglite.waitReady;
    }
  } catch (err) {
    release();
    throw err;
  }
  // the thread's start releases the lock itself when it fails
  return pglite ? pgliteAsDb(pglite, release) : createPgliteThreadDb(dataDir, release, opts.onError, loadDataDir);
}

/**
 * The `Db` port over an open PGlite (what createPgliteDb returns; exported for the template's own test).
 * @param release runs once the database is closed (the folder lock)
 */
export function pgliteAsDb(pglite: PGlite, release: () => void = () => undefined): Db {
  const guard = () => {
    if (pglite.closed) throw new DatabaseUnavailableError(new Error('PGlite is closed'));
  };
  // Statements run as prepared statements (pglite-prepared.ts) under PGlite's own locks, as `PGlite.query` runs: the
  // transaction lock (none may be open by someone else) and the query lock; inside a transaction, the query lock only.
  // `_runExclusiveTransaction`/`_runExclusiveQuery` are PGlite's own (underscored, not public API): package.json pins
  // PGlite's exact version, and server/src/db/pglite.test.ts fails if an upgrade changes them.
  const prepared = preparedStatements(pglite);
  return {
    kind: 'pglite',
    async query<T>(sql: string, params: unknown[] = []) {
      guard();
      const rows = await pglite._runExclusiveTransaction(() =>
        pglite._runExclusiveQuery(async () => {
          const r = await prepared<T>(sql, params);
          if (r) await pglite.syncToFs();
          return r;
        }),
      );
      return rows ?? (await pglite.query<T>(sql, params)).rows;
    },
    async exec(sql) {
      guard();
      await pglite.exec(sql);
    },
    transaction(fn) {
      guard();
      return pglite.transaction((tx) =>
        fn({
          async query<T>(sql: string, params: unknown[] = []) {
            if (tx.closed) throw new Error('Transaction is closed');
            const rows = await pglite._runExclusiveQuery(() => prepared<T>(sql, params));
            return rows ?? (await tx.query<T>(sql, params)).rows;
          },
          async exec(sql) {
            await tx.exec(sql);
          },
        }),
      );
    },
    async close() {
      try {
        if (!pglite.closed) await pglite.close();
      } finally {
        release();
      }
    },
  };
}

/**
 * A `pg` pool with the session settings every connection gets: statement_timeout and
 * idle_in_transaction_session_timeout (ms; DEFAULTS.db unless `settings` says), and `schema` first on the search_path.
 * Queries time out client-side 5 s after the server-side statement timeout. Connects lazily.
 */
function nuevoPool(connectionString: string, schema: string | undefined, settings: PoolSettings): pg.Pool {
  const statementTimeout = settings.statementTimeoutMs ?? DEFAULTS.db.statementTimeoutMs;
  const idle = settings.idleTimeoutMs ?? DEFAULTS.db.idleTimeoutMs;
  const options = [`-c statement_timeout=${statementTimeout}`, `-c idle_in_transaction_session_timeout=${idle}`];
  if (schema) options.push(`-c search_path=${schema}`);
  return new pg.Pool({
    connectionString,
    max: settings.max ?? DEFAULTS.db.max,
    connectionTimeoutMillis: settings.connectTimeoutMs ?? DEFAULTS.db.connectTimeoutMs,
    idleTimeoutMillis: idle,
    query_timeout: statementTimeout + 5_000,
    keepAlive: true,
    options: options.join(' '),
    application_name: 'cotizador-hogar',
  });
}

/** Most statement texts this process prepares (a bound on what each connection keeps; past it, texts go unnamed). */
const PREPARADAS_MAX = 256;
const preparadas = new Map<string, string>();
let preparadasNombradas = 0;
/**
 * The name under which statement `sql` is prepared (the same text, the same name, in this process), or undefined once
 * {@link PREPARADAS_MAX} texts have a name. Named, `pg` has PostgreSQL parse and plan the text once per connection and
 * then sends only its parameters: cotizar's statement (two counts and the quote's row, ~2.5 KB of SQL) is not parsed
 * and planned again on every request. Measured on bench:api (28 November 2026, two interleaved rounds, two instances):
 * cotizar's p50 4.2 / 4.1 ms against 5.8 / 5.0 unnamed, and 455 / 543 against 400 / 369 quotes a second at saturation.
 * A pooler in front of PostgreSQL must keep them (PgBouncer: session pooling, or max_prepared_statements from 1.21).
 */
function nombreDe(sql: string): string | undefined {
  let nombre = preparadas.get(sql);
  if (nombre === undefined && preparadas.size < PREPARADAS_MAX) preparadas.set(sql, (nombre = `cotizador_${preparadasNombradas++}`));
  return nombre;
}

/**
 * Whether `err` is PostgreSQL refusing a prepared statement whose result changed type under it (SQLSTATE 0A000,
 * "cached plan must not change result type"): another instance migrated a column this one reads. Refused before it
 * ran, so the text can be prepared anew under another name and run again.
 */
function planCambiado(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '0A000' && /cached plan must not change result type/.test(e.message ?? '');
}

/**
 * `query`/`exec` over a pool or a checked-out client; connection-level errors become DatabaseUnavailableError (rethrow).
 * A query with parameters is a prepared statement ({@link nombreDe}). `enTransaccion`: `c` is a client inside BEGIN.
 */
function consultasDe(c: pg.Pool | pg.PoolClient, enTransaccion = false): Queryable {
  return {
    async query<T>(sql: string, params: unknown[] = []) {
      try {
        // with parameters, one statement: prepared (nombreDe); without, the text as given (it may hold several)
        const correr = () => {
          const nombre = params.length > 0 ? nombreDe(sql) : undefined;
          return nombre ? c.query({ name: nombre, text: sql, values: params }) : c.query(sql, params);
        };
        try {
          return (await correr()).rows as T[];
        } catch (err) {
          // a table changed under a prepared statement: prepare it again (inside a transaction the transaction has
          // failed, so the error stands: its caller sees it once, the next call is prepared anew)
          if (!planCambiado(err)) throw err;
          preparadas.delete(sql);
          if (enTransaccion) throw err;
          return (await correr()).rows as T[];
        }
      } catch (err) {
        return rethrow(err);
      }
    },
    async exec(sql) {
      try {
        await c.query(sql);
      } catch (err) {
        rethrow(err);
      }
    },
  };
}

/**
 * Opens a PostgreSQL pool that outlives the server going away: pool and client errors are logged (never crash the
 * process), queries fail with {@link DatabaseUnavailableError} while it is away, and new connections are opened
 * when it is back.
 * @param connectionString e.g. postgres://user@host:5432/db
 * @param schema optional schema put first on every connection's search_path (test isolation)
 * @param settings pool size and timeouts (ms)
 * @param onError called with errors of idle connections (e.g. the server terminated them); default: ignored
 * @throws DatabaseUnavailableError when the server cannot be reached at start (fail fast)
 */
export async function createPostgresDb(
  connectionString: string,
  schema?: string,
  settings: PoolSettings = {},
  onError: (err: Error) => void = () => undefined,
): Promise<Db> {
  const pool = nuevoPool(connectionString, schema, settings);
  // An idle pooled connection that dies (server restart, pg_terminate_backend, network) emits 'error' on the pool;
  // without a listener Node would crash the process. The pool drops that client and opens a new one when needed.
  pool.on('error', onError);
  try {
    const client = await pool.connect(); // fail fast when the server is unreachable
    client.release();
  } catch (err) {
    await pool.end().catch(() => undefined);
    rethrow(err);
  }
  const max = settings.max ?? DEFAULTS.db.max;
  return {
    kind: 'postgres',
    ...consultasDe(pool),
    estadoPool: () => ({ total: pool.totalCount, libres: pool.idleCount, esperando: pool.waitingCount, max }),
    async transaction(fn) {
      let c: pg.PoolClient;
      try {
        c = await pool.connect();
      } catch (err) {
        return rethrow(err);
      }
      // A client that errors while checked out must not take the process down either.
      const onClientError = (err: Error) => onError(err);
      c.on('error', onClientError);
      let broken: Error | undefined;
      try {
        await c.query('BEGIN');
        const result = await fn(consultasDe(c, true));
        await c.query('COMMIT');
        return result;
      } catch (err) {
        try {
          await c.query('ROLLBACK');
        } catch (rollbackErr) {
          broken = rollbackErr as Error; // the connection is gone: destroy it instead of returning it to the pool
        }
        return rethrow(err);
      } finally {
        c.off('error', onClientError);
        c.release(broken);
      }
    },
    async close() {
      await pool.end();
    },
  };
}
