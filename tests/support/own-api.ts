/**
 * The API a spec starts for itself (beside the suite's shared one, tests/e2e/servidor-e2e.ts) on the built app: a port
 * the system picks, test mode, and limits that no journey of a test reaches (rate limit, hourly quotes, funnel batches).
 */
import { resolve } from 'node:path';
import { startServer, type ServerProcess } from '../../server/test/processes.ts';

/**
 * @param dataDir the API's own data folder (the spec makes it with mkdtemp and removes it)
 * @param env more variables, which win (e.g. an edited tree's SCHEMAS_DIR / TARIFF_FILE, a moved clock)
 * @param dist the built app it serves (default: the repo's dist/)
 * @returns the started API, once it answers (`url`, `stop()`)
 * @throws Error when it does not answer within 2 min (a first start creates the embedded database: seconds idle, half
 * a minute on a loaded machine)
 */
export function startOwnApi(dataDir: string, env: Record<string, string> = {}, dist = resolve('dist')): Promise<ServerProcess> {
  return startServer(
    0,
    {
      STATIC_DIR: dist,
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      EMISSION_DELAY_MS: '200',
      RATE_LIMIT_MAX: '100000',
      COTIZACIONES_POR_HORA: '100000',
      EMBUDO_LOTES_POR_MINUTO: '100000',
      ...env,
    },
    { readyTimeoutMs: 120_000 },
  );
}
