/**
 * The fixtures issue's "done when": `npm run replay -- <fixture> --base-url http://host/hogar` passes against the app
 * served under a sub-path, and fails, naming the step, when that server is changed. The app is built for /hogar
 * (`BASE_PATH=/hogar/ BUILD_DIR=… npm run build`), served by the real API (server/src/main.ts) and published under
 * /hogar/ by a front proxy started here (tests/e2e/proxy-subruta.ts: strips the prefix, rewrites nothing in the
 * bodies, answers 404 outside /hogar/). Changes of the server: a tariff with another rate (the pinned money of the
 * quote differs) and the root build (`/`) behind the same proxy (its pages ask for /assets/… outside the sub-path).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { startServer, type ServerProcess } from '../../server/test/processes.ts';
import { startSubPathProxy, type SubPathProxy } from './proxy-subruta';
import { UNA_PANTALLA } from './journey';

const FIXTURE = 'tests/fixtures/journeys/compra-tarjeta-casa.json';
/** A first start creates the embedded database: on a loaded shared machine that alone can take half a minute. */
const READY = { readyTimeoutMs: 120_000 };

function run(cmd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; ms: number }> {
  const started = Date.now();
  return new Promise((ok) => {
    execFile(cmd, args, { env: { ...process.env, ...env }, maxBuffer: 20_000_000 }, (err, stdout, stderr) => {
      ok({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout + stderr, ms: Date.now() - started });
    });
  });
}

const serverEnv = (staticDir: string, dataDir: string, extra: Record<string, string> = {}) => ({
  STATIC_DIR: staticDir,
  DATA_DIR: dataDir,
  NODE_ENV: 'test',
  EMISSION_DELAY_MS: '300',
  RATE_LIMIT_MAX: '100000',
  COTIZACIONES_POR_HORA: '100000',
  EMBUDO_LOTES_POR_MINUTO: '100000',
  ...extra,
});

test(
  'npm run replay --base-url …/hogar pasa contra la app servida bajo /hogar y falla, nombrando el paso, si ese servidor cambia',
  UNA_PANTALLA,
  async () => {
    test.setTimeout(600_000);
    const tmp = mkdtempSync(join(tmpdir(), 'cotizador-subruta-'));
    const servers: ServerProcess[] = [];
    let proxy: SubPathProxy | undefined;
    try {
      const build = await run('npm', ['run', 'build'], { BASE_PATH: '/hogar/', BUILD_DIR: join(tmp, 'dist-hogar') });
      console.log(`build para /hogar: ${build.ms} ms`);
      expect(build.code, build.out).toBe(0);
      // the pages ask for everything under /hogar/: assets, the loader's chunks, the links of the texts
      const page = readFileSync(join(tmp, 'dist-hogar/seguro-hogar/datos-personales/index.html'), 'utf8');
      expect(page).toMatch(/data-app="\/hogar\/assets\/index-[\w-]+\.js"/);
      expect(page).toContain('href="/hogar/terminos"');

      servers.push(await startServer(0, serverEnv(join(tmp, 'dist-hogar'), join(tmp, 'datos-1')), READY));
      proxy = await startSubPathProxy(servers[0].url, 0, '/hogar');

      // 1. green under the sub-path
      const green = await run(process.execPath, ['scripts/replay.ts', FIXTURE, '--base-url', proxy.url]);
      console.log(`replay bajo /hogar (verde): ${green.ms} ms`);
      expect(green.out).toContain('1/1 recorridos verdes');
      expect(green.code, green.out).toBe(0);
      expect(proxy.outside).toEqual([]);

      // 2. the same deployment with another tariff (incendio edificio 0,45 ‰ → 0,50 ‰): red at the pinned quote
      const tariff = JSON.parse(readFileSync('server/tariffs/2026-11.json', 'utf8'));
      tariff.coberturas['101'].tasaAnualPorMil = 0.5;
      writeFileSync(join(tmp, 'tarifa.json'), JSON.stringify(tariff));
      servers.push(
        await startServer(0, serverEnv(join(tmp, 'dist-hogar'), join(tmp, 'datos-2'), { TARIFF_FILE: join(tmp, 'tarifa.json') }), READY),
      );
      proxy.retarget(servers[1].url);
      const tariffRed = await run(process.execPath, ['scripts/replay.ts', FIXTURE, '--base-url', proxy.url]);
      console.log(`replay bajo /hogar, otra tarifa (rojo): ${tariffRed.ms} ms — ${/✗ compra.*/.exec(tariffRed.out)?.[0]}`);
      expect(tariffRed.code, tariffRed.out).toBe(1);
      expect(tariffRed.out).toMatch(
        /✗ compra-tarjeta-casa: paso 7 \(seguro-hogar\/cotizacion\): plan BASICO: premio esperado [\d.]+,\d\d, visto [\d.]+,\d\d/,
      );
      expect(tariffRed.out).toContain('0/1 recorridos verdes');

      // 3. the build for the root behind the same proxy: its pages leave the sub-path, red at the first step
      servers.push(await startServer(0, serverEnv(resolve('dist'), join(tmp, 'datos-3')), READY));
      proxy.retarget(servers[2].url);
      const rootRed = await run(process.execPath, ['scripts/replay.ts', FIXTURE, '--base-url', proxy.url]);
      console.log(`replay bajo /hogar, build para / (rojo): ${rootRed.ms} ms — ${/✗ compra.*/.exec(rootRed.out)?.[0]}`);
      expect(rootRed.code, rootRed.out).toBe(1);
      expect(rootRed.out).toMatch(/✗ compra-tarjeta-casa: paso 0 \(seguro-hogar\): /);
      expect(proxy.outside.some((p) => p.startsWith('/assets/'))).toBe(true);
    } finally {
      await proxy?.close();
      for (const s of servers) await s.stop();
      rmSync(tmp, { recursive: true, force: true });
    }
  },
);
