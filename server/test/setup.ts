/**
 * Set-up of the `server` Vitest project (vite.config.ts): after each test file, every API process that file started
 * with `startServer` (server/test/processes.ts) and that is still running is killed, so a test that fails or times
 * out before its own `stop()` never leaves a server (and its port and data folder lock) behind. In-memory PGlite
 * databases start from the migrated template kept on disk (PGLITE_PLANTILLA, processes.ts › PLANTILLA_DIR).
 */
import { afterAll } from 'vitest';
import { PLANTILLA_DIR, stopAllServers } from './processes.ts';

// in-memory databases (buildTestApp, the headless replay, the flow walker) start from the template kept on disk, made
// by the first test process that needs it, instead of each test process making its own (server/src/db/index.ts)
process.env.PGLITE_PLANTILLA = PLANTILLA_DIR;

afterAll(async () => {
  await stopAllServers();
});
