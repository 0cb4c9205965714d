/**
 * The staff's and testers' command-line tools (`npm run flow:check`, `npm run replay`, `npm run flow:paths`) open
 * their in-memory databases, and the throw-away data folder of a replay's server, from PGlite's migrated template kept
 * on disk (server/src/db/index.ts › PLANTILLA_ENV) instead of running PGlite's initdb and every migration in each
 * run (`flow:check` 15.7 → 9.4 s on this machine, 8.4 with package.json's --liftoff-only; the rest is mostly the walk
 * itself). The template lives in this checkout's `node_modules/.cache/cotizador-hogar/pglite` (where build tools keep
 * their caches: removed with node_modules, never committed); one is made by the first run after a migration changes,
 * and the ones it replaced are removed. A folder already named by `PGLITE_PLANTILLA` (the tests') is kept. The product's server (`npm start`)
 * never reads this: a production data folder is made by initdb as always.
 */
import { join, resolve } from 'node:path';
import { PLANTILLA_ENV } from '../server/src/db/index.ts';

/** This checkout's cache folder for the template (the code's own root, not a `--root` copy being checked). */
export const PLANTILLA_HERRAMIENTAS = join(resolve(import.meta.dirname, '..'), 'node_modules/.cache/cotizador-hogar/pglite');

/**
 * Sets `PGLITE_PLANTILLA` for this process and the processes it starts, unless already set.
 * @returns the folder in use
 */
export function usarPlantillaDeHerramientas(): string {
  process.env[PLANTILLA_ENV] ||= PLANTILLA_HERRAMIENTAS;
  return process.env[PLANTILLA_ENV];
}
