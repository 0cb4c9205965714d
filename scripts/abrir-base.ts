/**
 * The database of the environment, for the staff's commands (report:funnel, correo:reencolar): PostgreSQL when
 * DATABASE_URL is set, else the embedded one under DATA_DIR (server/src/config.ts reads both; stop the API first —
 * PGlite is for one process).
 * @throws Error with a Spanish message when a variable is wrong or the database cannot be opened
 */
import { join } from 'node:path';
import { readConfig } from '../server/src/config.ts';
import { createPgliteDb, createPostgresDb, type Db } from '../server/src/db/index.ts';

export async function abrirBaseDelEntorno(env: Record<string, string | undefined> = process.env): Promise<Db> {
  const config = readConfig(env);
  try {
    return config.databaseUrl ? await createPostgresDb(config.databaseUrl) : await createPgliteDb(join(config.dataDir, 'pglite'));
  } catch (err) {
    throw new Error(`No se pudo abrir la base de datos: ${(err as Error).message}`);
  }
}
