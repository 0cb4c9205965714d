/**
 * Playwright: Debian's Chromium (Playwright's own download does not work here) against the built
 * app served by the real reference API on a throw-away embedded database.
 */
import { defineConfig } from '@playwright/test';
import { resolve } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tools/chromium.ts';

const PORT = Number(process.env.E2E_PORT ?? 3199);
const DATA_DIR = process.env.E2E_DATA_DIR ?? `/tmp/cotizador-e2e-${process.pid}`;
process.env.E2E_DATA_DIR = DATA_DIR;

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 90_000,
  // ceilings for a loaded 2-core machine: waits end when the page shows the thing (tests/README.md › busy machine)
  expect: { timeout: 20_000 },
  // every test may run beside any other: each reads only the mail sent to its own address, starts its own servers on
  // ports the system picks, and the edited trees are built once across workers (tests/README.md › Playwright).
  // 3 workers: the run mostly waits (API, browser, builds), and on a loaded 2-core machine 4 were slower than 3
  fullyParallel: true,
  workers: 3,
  retries: 0,
  reporter: [['list']],
  // the edited trees built for flow-edit specs, shared by the specs and workers of one run (tests/support/edited-tree.ts)
  globalTeardown: './tests/support/e2e-teardown.ts',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: 'es-AR',
    timezoneId: 'America/Argentina/Buenos_Aires',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: ['--headless', ...CHROMIUM_ARGS],
    },
    trace: 'off',
  },
  projects: [
    {
      name: 'mobile',
      use: {
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        userAgent:
          'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      },
    },
    {
      name: 'desktop',
      use: { viewport: { width: 1280, height: 800 } },
      // tests that check nothing a viewport changes run once, on the phone (tests/e2e/journey.ts › UNA_PANTALLA)
      grepInvert: /@una-pantalla/,
    },
  ],
  webServer: {
    command: `rm -rf ${DATA_DIR} && node tests/e2e/servidor-e2e.ts`,
    url: `http://127.0.0.1:${PORT}/api/chat/habilitar`,
    reuseExistingServer: false,
    // a ceiling for a loaded machine (the API starts in ~2 s idle); Playwright starts the tests as soon as it answers
    timeout: 180_000,
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR,
      STATIC_DIR: resolve('dist'),
      EMISSION_DELAY_MS: '300',
      NODE_ENV: 'test',
      GRABADOR: '1',
      VISTA_PREVIA: '1',
      RATE_LIMIT_MAX: '100000',
      COTIZACIONES_POR_HORA: '100000',
      TRAMITES_POR_HORA: '100000',
      EMBUDO_LOTES_POR_MINUTO: '100000',
      CORREO_POLL_MS: '100',
      PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      // the anti-bot proof of work is on, as in production: every browser journey proves the visitor never notices it
      ANTIBOT: 'on',
    },
  },
});
