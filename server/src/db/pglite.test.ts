import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgliteDb, DatabaseUnavailableError, pgliteAsDb, type Db } from './index.ts';
import { LOCK_FILE } from './lock.ts';
import { migrate } from './migrate.ts';

/**
 * Both PGlite adapters (on the caller's thread, and on a worker thread as `npm start` runs it) give what
 * `PGlite.query` gives, for every kind of value the code sends, with PGlite's transaction semantics.
 */
describe.each([
  ["on the caller's thread", false],
  ['on a worker thread', true],
])('PGlite adapter %s', (_, hilo) => {
  let db: Db;
  let plain: PGlite;
  beforeAll(async () => {
    db = await createPgliteDb(undefined, { hilo });
    plain = new PGlite();
    const ddl = `CREATE TABLE t (id int PRIMARY KEY, s text, j jsonb, js json, b boolean, d date, ts timestamptz, n numeric, f float8, arr text[], by bytea)`;
    await db.exec(ddl);
    await plain.exec(ddl);
  });
  afterAll(async () => {
    await db.close();
    await plain.close();
  });

  const row = [
    1,
    "ñandú “comillas” 😀 \\ ' ",
    JSON.stringify({ a: [1, 'é'], b: null }),
    '{"x": 1}',
    true,
    '2026-11-30',
    new Date('2026-01-02T03:04:05.678Z'),
    '12.50',
    1.5,
    ['a', 'b,c', null],
    new Uint8Array([0, 1, 255]),
  ];
  const select = 'SELECT id, s, j, js, b, d, ts, n, f, arr, by, $2::int + 1 AS calc, $3::text IS NULL AS nulo FROM t WHERE id = $1';

  it('stores and reads every type as PGlite.query does', async () => {
    const insert = 'INSERT INTO t (id, s, j, js, b, d, ts, n, f, arr, by) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)';
    await db.query(insert, row);
    await plain.query(insert, row);
    for (let i = 0; i < 2; i++) {
      // the second call runs the statement prepared by the first
      const ours = await db.query(select, [1, 41, null]);
      const theirs = (await plain.query(select, [1, 41, null])).rows;
      expect(ours).toEqual(theirs);
      expect(ours[0]).toMatchObject({ s: row[1], j: { a: [1, 'é'], b: null }, calc: 42, nulo: true, arr: ['a', 'b,c', null] });
    }
  });

  it('reports SQL errors as the database does, and keeps working', async () => {
    await expect(db.query('INSERT INTO t (id) VALUES ($1)', [1])).rejects.toMatchObject({ code: '23505' });
    await expect(db.query('SELEC nada', [])).rejects.toMatchObject({ code: '42601' });
    expect(await db.query('SELECT count(*)::int AS n FROM t', [])).toEqual([{ n: 1 }]);
  });

  it('prepares again a statement whose result columns changed after DDL', async () => {
    await db.exec('CREATE TABLE u (a int)');
    await db.query('INSERT INTO u VALUES ($1)', [1]);
    expect(await db.query('SELECT * FROM u', [])).toEqual([{ a: 1 }]);
    await db.exec('ALTER TABLE u ADD COLUMN b text');
    expect(await db.query('SELECT * FROM u', [])).toEqual([{ a: 1, b: null }]);
  });

  it('runs inside transactions, and a rolled-back transaction leaves nothing', async () => {
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id, s) VALUES ($1, $2)', [2, 'dos']);
      expect(await tx.query('SELECT s FROM t WHERE id = $1', [2])).toEqual([{ s: 'dos' }]);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id, s) VALUES ($1, $2)', [3, 'tres']);
        throw new Error('falla');
      }),
    ).rejects.toThrow('falla');
    expect(await db.query('SELECT id FROM t WHERE id >= $1 ORDER BY id', [2])).toEqual([{ id: 2 }]);
  });

  it('a transaction whose statement failed cannot commit, even when the error was caught', async () => {
    const res = db.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id, s) VALUES ($1, $2)', [6, 'seis']);
      await tx.query('INSERT INTO t (id) VALUES ($1)', [1]).catch(() => undefined);
      return 'listo';
    });
    await expect(res).rejects.toThrow();
    expect(await db.query('SELECT id FROM t WHERE id = $1', [6])).toEqual([]);
  });

  it('queries outside a transaction wait for the open one (never run inside it)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const tx = db.transaction(async (t) => {
      await t.query('INSERT INTO t (id, s) VALUES ($1, $2)', [4, 'cuatro']);
      await gate;
      throw new Error('deshacer');
    });
    const outside = db.query('INSERT INTO t (id, s) VALUES ($1, $2)', [5, 'cinco']);
    await new Promise((r) => setTimeout(r, 20));
    release();
    await expect(tx).rejects.toThrow('deshacer');
    await outside;
    expect(await db.query('SELECT id FROM t WHERE id IN (4, 5) ORDER BY id', [])).toEqual([{ id: 5 }]);
  });

  it('a folder PGlite cannot open is refused at start, and its lock released', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cotizador-pglite-mala-'));
    writeFileSync(join(dir, 'PG_VERSION'), '7\n');
    await expect(createPgliteDb(dir, { hilo })).rejects.toThrow();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('once closed, every call fails as "database unavailable"', async () => {
    const otra = await createPgliteDb(undefined, { hilo });
    await otra.close();
    await expect(otra.query('SELECT 1', [])).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await otra.close();
  });
});

/**
 * In-memory databases start from a migrated template (db/index.ts › migrated templates): each is its own database,
 * with exactly what migrate() makes on a fresh one.
 */
describe('in-memory databases from the migrated template', () => {
  const migraciones = readdirSync(join(import.meta.dirname, 'migrations'))
    .filter((f) => f.endsWith('.sql'))
    .sort();
  /** Every column of every table of the public schema, with its type, default and nullability: the schema's shape. */
  const esquema = (db: { query: Db['query'] }) =>
    db.query(
      'SELECT table_name, column_name, data_type, column_default, is_nullable FROM information_schema.columns WHERE table_schema = $1 ORDER BY 1, 2',
      ['public'],
    );

  it('has every migration, and the same tables as migrate() on a fresh database', async () => {
    const db = await createPgliteDb();
    const fresca = new PGlite();
    try {
      expect((await db.query<{ nombre: string }>('SELECT nombre FROM schema_migrations ORDER BY nombre', [])).map((r) => r.nombre)).toEqual(
        migraciones,
      );
      expect(await migrate(db)).toEqual([]);
      const enFresca = pgliteAsDb(fresca);
      expect(await migrate(enFresca)).toEqual(migraciones);
      expect(await esquema(db)).toEqual(await esquema(enFresca));
      expect((await esquema(db)).length).toBeGreaterThan(50);
    } finally {
      await db.close();
      await fresca.close();
    }
  });

  it.each([false, true])('is independent of every other one (hilo: %s): a write to one is not seen in another', async (hilo) => {
    const a = await createPgliteDb(undefined, { hilo });
    const b = await createPgliteDb(undefined, { hilo });
    try {
      await a.query('INSERT INTO schema_migrations (nombre) VALUES ($1)', ['999-solo-en-a.sql']);
      await a.exec('CREATE TABLE solo_en_a (x int)');
      await b.query('INSERT INTO schema_migrations (nombre) VALUES ($1)', ['999-solo-en-b.sql']);
      const c = await createPgliteDb(undefined, { hilo }); // opened after the writes: the template is untouched
      try {
        const nombres = async (db: Db) =>
          (await db.query<{ nombre: string }>('SELECT nombre FROM schema_migrations WHERE nombre LIKE $1', ['999-%'])).map((r) => r.nombre);
        expect(await nombres(a)).toEqual(['999-solo-en-a.sql']);
        expect(await nombres(b)).toEqual(['999-solo-en-b.sql']);
        expect(await nombres(c)).toEqual([]);
        await expect(b.query('SELECT * FROM solo_en_a', [])).rejects.toThrow('solo_en_a');
        await expect(c.query('SELECT * FROM solo_en_a', [])).rejects.toThrow('solo_en_a');
      } finally {
        await c.close();
      }
    } finally {
      await a.close();
      await b.close();
    }
  });

  // the server project's set-up names a template folder (PGLITE_PLANTILLA), as the test helpers do for the API processes
  it('with PGLITE_PLANTILLA, a new data folder starts migrated and keeps its data; a folder with a database is opened as is', async () => {
    expect(process.env.PGLITE_PLANTILLA).toBeTruthy();
    const dir = join(mkdtempSync(join(tmpdir(), 'cotizador-pglite-nueva-')), 'pglite');
    const db = await createPgliteDb(dir);
    expect(await migrate(db)).toEqual([]);
    await db.query('INSERT INTO schema_migrations (nombre) VALUES ($1)', ['999-guardada.sql']);
    await db.close();
    const otra = await createPgliteDb(dir);
    expect(
      (await otra.query<{ nombre: string }>('SELECT nombre FROM schema_migrations WHERE nombre LIKE $1', ['999-%'])).map((r) => r.nombre),
    ).toEqual(['999-guardada.sql']);
    await otra.close();
  });
});
