/**
 * The API rows' yardsticks (run.ts › the quote API, api.ts › PostgreSQL), each a Fastify app in a process of its own:
 * - `hola`: hello-world, `GET /` → `{ hello: 'world' }` (what the machine gives at best);
 * - `escritura`: the same route plus ONE durable write per request — `INSERT` of a 16-byte row into PGlite through the
 *   app's own adapter on its worker thread (db/index.ts › createPgliteDb with `hilo`, files in a throw-away folder),
 *   as `npm start` runs it. It is what any request that stores something pays on the embedded database, whatever
 *   the app around it does: the floor of `cotizar`, which stores its quote before answering;
 * - `escritura-cotizacion`: the same, but the write is the one `cotizar` makes — a quote's row (the same values: one
 *   quote of server/test/helper.ts › cotizarBody, priced once as the app prices it; a new refId per request) stored
 *   with its count against the hourly limit, in the same statement (db/repositories/cotizaciones.ts › insertConCupos),
 *   into a database migrated as the app's. Not a target's yardstick: it shows how much of `cotizar` over the write
 *   floor is the size of what it stores (20 columns, ~4 KB of JSON, its indexes and count) and how much the rest of
 *   the route (checks, rating, the ~15 KB reply);
 * - `escritura-pg <url>`: the same on PostgreSQL, through the app's pool (db/index.ts › createPostgresDb) into the
 *   database at `<url>`: the floor of `cotizar` on that server;
 * - `escritura-pg-limitada <url>`: that floor behind the app's per-minute limit as it runs on PostgreSQL —
 *   @fastify/rate-limit with the app's store over `limites` (plugins/limits.ts › databaseStore; the database must be
 *   migrated), a count per request shared by every instance — so one more round trip: what an /api request that
 *   stores something pays there, whatever its route does, unless its statement counts the minute too (`cotizar`:
 *   plugins/limits.ts › limiteEnSentencia).
 * `node tests/bench/api-floor.ts <mode> [url]` prints `LISTEN <url>` once it listens; SIGTERM ends it (and removes
 * the folder or the table). {@link startApiFloor} runs it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type ApiFloor = 'hola' | 'escritura' | 'escritura-cotizacion' | 'escritura-pg' | 'escritura-pg-limitada';

/**
 * Starts the yardstick `mode` in a process of its own (so the load generator does not share its event loop).
 * @param databaseUrl the PostgreSQL database of `escritura-pg` and `escritura-pg-limitada`
 * @returns its URL, its process id (for the CPU it uses) and `stop`
 * @throws Error when the process ends before it listens
 */
export async function startApiFloor(
  mode: ApiFloor,
  databaseUrl?: string,
): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const proc = spawn(process.execPath, [import.meta.filename, mode, ...(databaseUrl ? [databaseUrl] : [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const url = await new Promise<string>((ok, fail) => {
    let out = '';
    proc.stdout!.on('data', (d) => {
      out += d;
      const m = /LISTEN (\S+)/.exec(out);
      if (m) ok(m[1]);
    });
    proc.once('exit', (c) => fail(new Error(`el piso ${mode} terminó (${c})`)));
  });
  return { url, pid: proc.pid!, stop: () => (proc.kill('SIGTERM'), exited) };
}

async function serve(mode: ApiFloor, databaseUrl: string | undefined) {
  const { default: Fastify } = await import('fastify');
  const { createPgliteDb, createPostgresDb } = await import('../../server/src/db/index.ts');
  const app = Fastify();
  const embedded = mode === 'escritura' || mode === 'escritura-cotizacion';
  const dir = embedded ? mkdtempSync(join(tmpdir(), 'cotizador-bench-piso-')) : undefined;
  const table = `piso_${process.pid}`;
  const db = embedded
    ? await createPgliteDb(join(dir!, 'pglite'), { hilo: true })
    : mode.startsWith('escritura-pg')
      ? await createPostgresDb(databaseUrl!)
      : undefined;
  if (mode === 'escritura-pg-limitada') {
    const { default: rateLimit } = await import('@fastify/rate-limit');
    const { databaseStore } = await import('../../server/src/plugins/limits.ts');
    // the app's limit (plugins/limits.ts) with a bound no run reaches: every request counted, none refused; a key of
    // its own, so the floor and the app's instances never count on the same row
    await app.register(rateLimit, { max: 1e9, timeWindow: '1 minute', store: databaseStore(db!), keyGenerator: (r) => `piso|${r.ip}` });
  }
  if (mode === 'escritura-cotizacion') {
    const { migrate } = await import('../../server/src/db/migrate.ts');
    const { cotizacionesRepository } = await import('../../server/src/db/repositories/cotizaciones.ts');
    await migrate(db!);
    const [quote, repo] = [await aQuote(), cotizacionesRepository(db!)];
    // the hourly limit's window as the app's (plugins/limits.ts › cupoCotizaciones), a key of its own, a bound no run reaches
    const cupo = { clave: 'cotizar|piso', ventanaMs: 3_600_000, max: 1e9 };
    app.get('/', async () => {
      if (await repo.insertConCupos({ ...quote, refId: crypto.randomUUID() }, [cupo])) throw new Error('cotización no guardada');
      return { hello: 'world' };
    });
  } else if (db) {
    await db.exec(`CREATE TABLE ${table} (id uuid PRIMARY KEY)`);
    app.get('/', async () => {
      await db.query(`INSERT INTO ${table} (id) VALUES ($1)`, [crypto.randomUUID()]);
      return { hello: 'world' };
    });
  } else app.get('/', async () => ({ hello: 'world' }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(`LISTEN ${url}`);
  process.once('SIGTERM', async () => {
    await app.close();
    if (mode.startsWith('escritura-pg')) await db?.exec(`DROP TABLE ${table}`).catch(() => undefined);
    await db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
}

/**
 * A quote as `cotizar` stores it: server/test/helper.ts › cotizarBody quoted once by the app itself (in memory), and
 * read back with the texts of the tariff it was priced with.
 */
async function aQuote() {
  const { buildTestApp, cotizarBody, post } = await import('../../server/test/helper.ts');
  const { textosDeTarifa } = await import('../../server/src/domain/rating/planes-guardados.ts');
  const app = await buildTestApp();
  try {
    const res = await post(app, '/api/cotizacion/cotizar', cotizarBody());
    if (res.statusCode !== 200) throw new Error(`cotizar respondió ${res.statusCode}: ${res.body}`);
    const stored = await app.deps.repos.cotizaciones.get(res.json<{ refId: string }>().refId);
    if (!stored) throw new Error('la cotización no quedó guardada');
    const { codPlan: _c, coberturasOpcionales: _o, planElegido: _p, ...row } = stored;
    return { ...row, textos: textosDeTarifa(app.deps.tariff) };
  } finally {
    await app.close();
  }
}

if (process.argv[1] === import.meta.filename) await serve(process.argv[2] as ApiFloor, process.argv[3]);

/** A visitor: CSRF token and cookie header from GET /api/set-csrf. */
export async function visitor(base: string): Promise<Record<string, string>> {
  const res = await fetch(`${base}/api/set-csrf`);
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .filter((c) => !c.startsWith('XSRF-TOKEN'))
    .join('; ');
  return { 'content-type': 'application/json', 'x-xsrf-token': csrfToken, cookie };
}
