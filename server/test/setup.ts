/**
 * Set-up of the `server` Vitest project (vite.config.ts): after each test file, every API process that file started
 * with `startServer` (server/test/processes.ts) and that is still running is killed, so a test that fails or times
 * out before its own `stop()` never leaves a server (and its port and data folder lock) behind.
 */
import { afterAll } from 'vitest';
import { stopAllServers } from './processes.ts';

afterAll(async () => {
  await stopAllServers();
});
