/**
 * Persistence suite on a real PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test), isolated
 * in a fresh schema per run (created here, put on the search_path of every pooled connection, dropped at the end).
 * Unreachable server: the suite is skipped with the reason, except when CI is set, where it fails.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createPostgresDb } from '../src/db/index.ts';
import { describeDbSuite } from './db-suite.ts';

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `test_${process.pid}_${Date.now()}_${randomBytes(3).toString('hex')}`;

async function probe(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (err) {
    return `PostgreSQL no disponible en ${url} (${(err as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const unreachable = await probe();

if (unreachable && process.env.CI) {
  describe('PostgreSQL real', () => {
    it('está disponible (CI)', () => {
      throw new Error(unreachable);
    });
  });
} else {
  const admin = new pg.Client({ connectionString: url });
  if (unreachable) console.warn(`Suite PostgreSQL omitida: ${unreachable}. Definí TEST_DATABASE_URL o levantá el servidor.`);
  else {
    beforeAll(async () => {
      await admin.connect();
      await admin.query(`CREATE SCHEMA "${schema}"`);
    });
    afterAll(async () => {
      await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
      await admin.end();
    });
  }
  describeDbSuite(`PostgreSQL real (${url}, esquema ${schema})`, () => createPostgresDb(url, schema), { skip: unreachable });
}
