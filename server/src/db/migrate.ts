/**
 * Applies the SQL migrations in `server/src/db/migrations` (files `NNN-name.sql`, in name order), each once,
 * inside a transaction guarded by a PostgreSQL advisory lock so that two API instances starting together over
 * one database do not race. Idempotent: re-running applies nothing new.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './types.ts';

const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');
const LOCK_ID = 7270011; // arbitrary, constant advisory-lock key for "Cotizador Hogar migrations"

/** @returns the migration files' names, in the order they are applied */
function migrationFiles(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort();
}

/**
 * A fingerprint of the migrations (every file's name and bytes, in order): a database template migrated by another
 * set (db/index.ts › a template cached on disk) has another fingerprint.
 * @returns sha256, hex, first 16 characters
 */
export function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  for (const nombre of migrationFiles())
    hash
      .update(`${nombre}\0`)
      .update(readFileSync(join(MIGRATIONS_DIR, nombre)))
      .update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** @returns names of the migrations applied by this call (empty when up to date). */
export async function migrate(db: Db): Promise<string[]> {
  // Under the same lock: two instances starting together would otherwise race on CREATE TABLE IF NOT EXISTS.
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_ID]);
    await tx.exec('CREATE TABLE IF NOT EXISTS schema_migrations (nombre text PRIMARY KEY, aplicada_en timestamptz NOT NULL DEFAULT now())');
  });
  const files = migrationFiles();
  const applied: string[] = [];
  for (const nombre of files) {
    await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_ID]);
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE nombre = $1', [nombre]);
      if (done.length > 0) return;
      await tx.exec(readFileSync(join(MIGRATIONS_DIR, nombre), 'utf8'));
      await tx.query('INSERT INTO schema_migrations (nombre) VALUES ($1)', [nombre]);
      applied.push(nombre);
    });
  }
  return applied;
}
