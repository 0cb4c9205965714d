/**
 * Test helpers that run the real server (`node server/src/main.ts`) as child processes and a throw-away PostgreSQL
 * database per test file (name `hard_…`, created and dropped here; only its own connections are ever terminated).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { NODE_DE_PRUEBA } from '../../tools/node-de-prueba.ts';

export { NODE_DE_PRUEBA };

export const REPO_DIR = join(import.meta.dirname, '../..');
export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Where the tests keep PGlite's migrated template (server/src/db/index.ts › PGLITE_PLANTILLA): each test process and
 * each API process started here reads it instead of running initdb and the migrations for a new database. The file's
 * name carries PGlite's version and the migrations' fingerprint, so a changed migration makes a new one.
 */
export const PLANTILLA_DIR = process.env.PGLITE_PLANTILLA ?? join(tmpdir(), 'cotizador-hogar-pglite-plantillas');

export interface ServerProcess {
  proc: ChildProcess;
  url: string;
  /** Everything the process printed so far (stdout + stderr). */
  output(): string;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
  /** SIGTERM (or `signal`) and wait for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /**
   * Resolves once the output so far satisfies `done` (checked at each new output, not on a timer).
   * @throws Error with the output when the process exits first or `timeoutMs` (a ceiling, default 60 000) passes
   */
  outputUntil(done: (output: string) => boolean, timeoutMs?: number): Promise<void>;
}

/** The API processes started here that have not exited yet (stopAllServers, and the exit hook below). */
const running = new Set<ChildProcess>();

// The test runner's own process ending (a file done, a run interrupted) takes the servers it started with it, even
// those of a test that failed or timed out before calling stop(). Synchronous: only `kill` may run in an exit hook.
process.once('exit', () => {
  for (const proc of running) proc.kill('SIGKILL');
});

/**
 * Stops every API process started by this process that is still running: SIGTERM, then SIGKILL after 5 s.
 * Called after each server test file (server/test/setup.ts) and by Playwright specs' cleanup.
 */
export async function stopAllServers(): Promise<void> {
  await Promise.all(
    [...running].map(async (proc) => {
      const exited = new Promise((resolve) =>
        proc.exitCode !== null || proc.signalCode !== null ? resolve(null) : proc.once('exit', resolve),
      );
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }),
  );
}

/**
 * Starts the API on `port` (127.0.0.1; 0 = a free port the OS picks, which tests use so that parallel runs in other
 * worktrees never collide) with `env` added to this process's environment. Ready = THIS process printed the address it
 * listens on (never a foreign server that happens to answer on the port) and /api/health/live answers there.
 * ANTIBOT is off unless `env` sets it (tests and benches call cotizar directly).
 * @param opts.waitReady false to return at once (e.g. when the start is expected to fail; `url` is then unknown for port 0)
 * @param opts.readyTimeoutMs ceiling for the start, default 120 000 ms (sized for a loaded 2-core machine; an idle start is ~2 s)
 * @param opts.optimizeWasm true to run PGlite's WebAssembly as production does (benches); by default {@link NODE_DE_PRUEBA}
 * @throws Error (and the process killed) when it exits while starting, does not print its address within the ceiling,
 *   or /api/health/live does not answer 200 once it listens
 */
export async function startServer(
  port: number,
  env: Record<string, string>,
  opts: { waitReady?: boolean; readyTimeoutMs?: number; optimizeWasm?: boolean } = {},
): Promise<ServerProcess> {
  const server = seguirProceso(lanzarApi(port, env, opts.optimizeWasm ?? false), port);
  if (opts.waitReady === false) return server;
  // ready = the address line on this process's output (an event, not a poll); the ceiling is for a loaded machine,
  // where the API's start (PGlite's database, migrations) takes many times its idle ~2 s
  await esperarListo(server, opts.readyTimeoutMs ?? 120_000);
  return server;
}

/**
 * Spawns `node server/src/main.ts` on 127.0.0.1:`port` with this process's environment, the test defaults and `env`,
 * with {@link NODE_DE_PRUEBA}'s V8 flags unless `optimizeWasm` (benches: the API as `npm start` runs it).
 */
function lanzarApi(port: number, env: Record<string, string>, optimizeWasm: boolean): ChildProcess {
  const v8 = optimizeWasm ? [] : NODE_DE_PRUEBA;
  const proc = spawn(
    process.execPath,
    [...v8, '--import', join(import.meta.dirname, 'exit-with-parent.ts'), join(REPO_DIR, 'server/src/main.ts')],
    {
      // ANTIBOT off unless the caller asks: these servers are driven by tests and benches that call cotizar directly
      // PGLITE_PLANTILLA: a new DATA_DIR starts from the migrated template (a server started by a test is in a new folder)
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        STATIC_DIR: '/nonexistent',
        ANTIBOT: 'off',
        PGLITE_PLANTILLA: PLANTILLA_DIR,
        ...env,
      },
      // fd 3: a pipe the server watches (exit-with-parent.ts), closed by the system when this process ends
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    },
  );
  running.add(proc);
  return proc;
}

/** The ServerProcess of a spawned API: collects its output, tracks its exit (leaving `running`), stops it. */
function seguirProceso(proc: ChildProcess, port: number): ServerProcess {
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) =>
    proc.once('exit', (code) => {
      running.delete(proc);
      resolve(code);
    }),
  );
  return {
    proc,
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
    outputUntil(done, timeoutMs = 60_000) {
      return new Promise<void>((resolve, reject) => {
        const look = () => {
          if (!done(out)) return;
          finish();
          resolve();
        };
        const finish = () => {
          clearTimeout(timer);
          proc.stdout!.off('data', look);
          proc.stderr!.off('data', look);
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`el servidor no escribió lo esperado en ${timeoutMs / 1000} s:\n${out}`));
        }, timeoutMs);
        proc.stdout!.on('data', look);
        proc.stderr!.on('data', look);
        void exited.then(() => {
          if (done(out)) return;
          finish();
          reject(new Error(`el servidor terminó sin escribir lo esperado:\n${out}`));
        });
        look();
      });
    },
  };
}

/**
 * Waits until `server` printed the address it listens on (then sets `server.url` to it) and /api/health/live answers 200.
 * @param ceiling ms before giving up
 * @throws Error with the output (and the process killed) when it exits first, the ceiling passes, or live fails
 */
async function esperarListo(server: ServerProcess, ceiling: number): Promise<void> {
  const { proc } = server;
  let timer: NodeJS.Timeout | undefined;
  const listening = await new Promise<string | Error>((resolve) => {
    const look = () => {
      const found = /escuchando en (http:\/\/[^\s]+:\d+)/.exec(server.output());
      if (found) resolve(found[1]);
    };
    proc.stdout!.on('data', look);
    look();
    void server.exited.then((code) => resolve(new Error(`El servidor terminó al iniciar (código ${code}):\n${server.output()}`)));
    timer = setTimeout(() => resolve(new Error(`El servidor no dijo dónde escucha en ${ceiling / 1000} s:\n${server.output()}`)), ceiling);
  });
  clearTimeout(timer);
  if (listening instanceof Error) {
    await server.stop('SIGKILL');
    throw listening;
  }
  server.url = listening.replace('localhost', '127.0.0.1');
  const live = await fetch(`${server.url}/api/health/live`).catch((err: Error) => err);
  if (live instanceof Error || !live.ok) {
    await server.stop('SIGKILL');
    throw new Error(
      `El servidor escucha en ${server.url} pero /api/health/live no respondió 200 (${live instanceof Error ? live.message : live.status}):\n${server.output()}`,
    );
  }
}

/** A cookie-keeping HTTP visitor of one or more servers (the cookies go to whichever base URL is used). */
export class Visitante {
  private cookies = new Map<string, string>();
  private token = '';

  private keep(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
  }

  private get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async get(base: string, path: string): Promise<Response> {
    const res = await fetch(base + path, { headers: { cookie: this.cookieHeader } });
    this.keep(res);
    return res;
  }

  /** POST as a browser would: GET /api/set-csrf first, then the JSON body with x-xsrf-token. */
  async post(base: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const csrf = await this.get(base, '/api/set-csrf');
    this.token = ((await csrf.json()) as { csrfToken: string }).csrfToken;
    const res = await fetch(base + path, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'x-xsrf-token': this.token, cookie: this.cookieHeader, ...headers },
    });
    this.keep(res);
    return res;
  }
}

/** Probes PG_URL. @returns why PostgreSQL is unusable, or undefined */
export async function pgUnavailable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return undefined;
  } catch (err) {
    return `PostgreSQL no disponible en ${PG_URL} (${(err as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A fresh database `<prefix>_<tag>_<pid>_<time>_<random>` (prefix default `hard`) on the test server: the process id
 * keeps the names of test files running side by side apart; `drop()` ends only its own sessions and drops it.
 */
export async function createTestDatabase(tag: string, prefix = 'hard') {
  const name = `${prefix}_${tag}_${process.pid}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    admin,
    /** Terminates the backends connected to this database only. @returns how many */
    async terminate(): Promise<number> {
      const r = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [
        name,
      ]);
      return r.rowCount ?? 0;
    },
    async allowConnections(allow: boolean): Promise<void> {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS ${allow}`);
    },
    async drop(): Promise<void> {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`).catch(() => undefined);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
      await admin.end();
    },
  };
}
