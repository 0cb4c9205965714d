/**
 * The API rows' yardsticks (run.ts › the quote API), each a Fastify app in a process of its own:
 * - `hola`: hello-world, `GET /` → `{ hello: 'world' }` (what the machine gives at best);
 * - `escritura`: the same route plus ONE durable write per request — `INSERT` of a 16-byte row into PGlite through the
 *   app's own adapter on its worker thread (db/index.ts › createPgliteDb with `hilo`, files in a throw-away folder),
 *   as `npm start` runs it. It is what any request that stores something pays on the embedded database, whatever
 *   the app around it does: the floor of `cotizar`, which stores its quote before answering.
 * `node tests/bench/api-floor.ts hola|escritura` prints `LISTEN <url>` once it listens; SIGTERM ends it (and removes
 * the folder).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { createPgliteDb, type Db } from '../../server/src/db/index.ts';

export type ApiFloor = 'hola' | 'escritura';

const mode = process.argv[2] as ApiFloor;
const app = Fastify();
let db: Db | undefined;
const dir = mode === 'escritura' ? mkdtempSync(join(tmpdir(), 'cotizador-bench-piso-')) : undefined;
if (dir) {
  db = await createPgliteDb(join(dir, 'pglite'), { hilo: true });
  await db.exec('CREATE TABLE piso (id uuid PRIMARY KEY)');
  const escribe = db;
  app.get('/', async () => {
    await escribe.query('INSERT INTO piso (id) VALUES ($1)', [crypto.randomUUID()]);
    return { hello: 'world' };
  });
} else app.get('/', async () => ({ hello: 'world' }));
const url = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`LISTEN ${url}`);
process.once('SIGTERM', async () => {
  await app.close();
  await db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
