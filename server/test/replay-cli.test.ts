/**
 * `npm run replay` checks every fixture before anything starts and refuses a bad one at once, naming file#pointer and
 * the nearest valid name, so a typo costs a second instead of a 15–30 s browser timeout; the others still run; a
 * summary table ends every run; `--help` prints usage and starts nothing. The CLI runs as a child process
 * (scripts/replay.ts), headless so no browser is needed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadReplayProduct, tariffOptions } from '../../scripts/replay.ts';
import { checkJourney } from '../../tools/replay/check.ts';
import { unexercisedOptions } from '../../tools/replay/exercised.ts';
import { routeUnder } from '../../tools/replay/fixture.ts';
import { NODE_DE_PRUEBA } from './processes.ts';

const tmp = mkdtempSync(join(tmpdir(), 'h7-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const product = loadReplayProduct('.');
const shipped = (name: string) => JSON.parse(readFileSync(`tests/fixtures/journeys/${name}.json`, 'utf8'));

function replay(args: string[], env: Record<string, string> = {}) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [...NODE_DE_PRUEBA, 'scripts/replay.ts', ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, ...env },
  });
  return { code: r.status, out: r.stdout + r.stderr, ms: Date.now() - started };
}

describe('fixtures checked before they run', () => {
  it('every shipped fixture passes the check', () => {
    const names = readdirSync('tests/fixtures/journeys')
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -5));
    expect(names.length).toBe(20);
    for (const n of names) expect(checkJourney(shipped(n), product, tariffOptions()), n).toEqual([]);
  });

  it('names each misspelt route, field and option value by pointer, with the nearest valid one', () => {
    const j = shipped('compra-tarjeta-casa');
    j.steps[1].answers.tipoVivenda = j.steps[1].answers.tipoVivienda;
    delete j.steps[1].answers.tipoVivienda;
    j.steps[2].answers.usoVivienda = 'PERMANETE';
    j.steps[3].route = 'seguro-hogar/metro';
    j.steps[7].answers.codPlan = 'INTERMEDO';
    j.steps[8].answers.coberturasOpcionales = ['5O1'];
    j.steps[9].answers.ddjj.actividd = 'Docente';
    j.steps[9].expect.premios = 1;
    j.steps[13].actions = [{ goto: '/seguro-hogar/cotizacio' }];
    j.steps[12].actions = ['nxt', { wiat: 5 }, { goto: 'sin-barra' }];
    const problems = checkJourney(j, product, tariffOptions());
    expect(problems.map((p) => `${p.pointer}: ${p.message}`)).toEqual([
      '/steps/9/expect/premios: «premios» no es un campo del formato de fixtures. ¿quisiste decir «premio»?',
      '/steps/12/actions/0: «nxt» no es una acción (next, back, reload, { wait: minutos }, { goto: "/url" }, { click: "texto" }). ¿quisiste decir «next»?',
      '/steps/12/actions/1: «wiat» no es una acción (next, back, reload, { wait: minutos }, { goto: "/url" }, { click: "texto" }). ¿quisiste decir «wait»?',
      '/steps/12/actions/2: valor inválido para goto: wait es un número de minutos > 0, goto una URL que empieza con /, click un texto',
      '/steps/1/answers/tipoVivenda: «tipoVivenda» no es un campo del paso (tipoVivienda, barrioCerrado). ¿quisiste decir «tipoVivienda»?',
      '/steps/2/answers/usoVivienda: «PERMANETE» no es una opción de usoVivienda (PERMANENTE, TEMPORAL). ¿quisiste decir «PERMANENTE»?',
      '/steps/3/route: la ruta «seguro-hogar/metro» no es un paso del flujo. ¿quisiste decir «seguro-hogar/metros»?',
      '/steps/7/answers/codPlan: «INTERMEDO» no es una opción de codPlan (BASICO, INTERMEDIO, INTEGRAL). ¿quisiste decir «INTERMEDIO»?',
      '/steps/8/answers/coberturasOpcionales/0: «5O1» no es una opción de coberturasOpcionales (501, 502, 503, 504, 505). ¿quisiste decir «501»?',
      '/steps/9/answers/ddjj/actividd: «actividd» no es un campo del paso (actividad, ppe, lyt). ¿quisiste decir «actividad»?',
      '/steps/13/actions/0/goto: la ruta «seguro-hogar/cotizacio» no es un paso del flujo. ¿quisiste decir «seguro-hogar/cotizacion»?',
    ]);
  });

  it('--base-url with a sub-path: routes are compared under it, a page outside it never matches', () => {
    const base = 'https://qa.example.com/hogar/';
    expect(routeUnder('https://qa.example.com/hogar/seguro-hogar/metros?x=1', base)).toBe('seguro-hogar/metros');
    expect(routeUnder('https://qa.example.com/hogar', base)).toBe('');
    // the app of another deployment at the root (what a sub-path replay used to call green)
    expect(routeUnder('https://qa.example.com/seguro-hogar/metros', base)).toBeUndefined();
    expect(routeUnder('https://qa.example.com/hogarx/seguro-hogar', base)).toBeUndefined();
    expect(routeUnder('https://otro.example.com/hogar/seguro-hogar', base)).toBeUndefined();
    expect(routeUnder('http://127.0.0.1:3470/seguro-hogar/', 'http://127.0.0.1:3470')).toBe('seguro-hogar');
  });

  it('flow:paths lists the option values, plans and optional coverages no fixture chooses', () => {
    const one = unexercisedOptions(product, [shipped('compra-tarjeta-casa')], tariffOptions());
    const row = (field: string) => one.find((u) => u.field === field);
    expect(row('tipoVivienda')).toEqual({ step: 'propiedad', field: 'tipoVivienda', missing: ['DEPARTAMENTO', 'PH'], total: 3 });
    expect(row('codPlan')).toEqual({ step: 'cotizacion', field: 'codPlan', missing: ['BASICO', 'INTEGRAL'], total: 3 });
    expect(row('coberturasOpcionales')?.missing).toEqual(['501', '502', '503', '504', '505']);
    expect(row('checkTyC')).toBeUndefined(); // const true: nothing else to choose
    const all = unexercisedOptions(
      product,
      ['compra-tarjeta-casa', 'compra-cbu-departamento', 'compra-cbu-ph'].map(shipped),
      tariffOptions(),
    );
    expect(all.find((u) => u.field === 'tipoVivienda')).toBeUndefined();
  });

  it('the CLI reports a bad fixture and a broken file, still runs the good one, and ends with a summary table', () => {
    const bad = shipped('chat-habilitado');
    bad.name = 'mal-escrito';
    bad.steps[1].answers = { tipoVivienda: 'CAZA' };
    writeFileSync(join(tmp, 'mal-escrito.json'), JSON.stringify(bad));
    writeFileSync(join(tmp, 'roto.json'), '{"name": "roto",');
    const junit = join(tmp, 'junit.xml');
    const { code, out } = replay([
      '--headless',
      '--reporter',
      'junit',
      '--output',
      junit,
      join(tmp, 'mal-escrito.json'),
      join(tmp, 'roto.json'),
      'tests/fixtures/journeys/chat-habilitado.json',
    ]);
    expect(code).toBe(1);
    // refused before the good one starts, which still runs to green
    expect(out.indexOf(`✗ ${join(tmp, 'mal-escrito.json')}#`)).toBeGreaterThanOrEqual(0);
    expect(out.indexOf(`✗ ${join(tmp, 'mal-escrito.json')}#`)).toBeLessThan(out.indexOf('✓ chat-habilitado'));
    expect(out).toContain(
      `${join(tmp, 'mal-escrito.json')}#/steps/1/answers/tipoVivienda: «CAZA» no es una opción de tipoVivienda (CASA, DEPARTAMENTO, PH). ¿quisiste decir «CASA»?`,
    );
    expect(out).toContain(`${join(tmp, 'roto.json')}#: no es JSON válido`);
    expect(out).toMatch(/mal-escrito\s+inválido\s+0\/0/);
    expect(out).toMatch(/roto\s+inválido\s+0\/0/);
    expect(out).toMatch(/chat-habilitado\s+verde\s+2\/2\s+\d+ ms/);
    expect(out).toMatch(/1\/3 recorridos verdes — [\d.]+ s en total/);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuite name="replay" tests="3" failures="2" time="[\d.]+">/);
    expect(xml).toMatch(/<testcase classname="recorridos" name="chat-habilitado" file="[^"]+chat-habilitado.json" time="[\d.]+"\/>/);
    expect(xml).toContain(
      '<failure message="' +
        join(tmp, 'mal-escrito.json') +
        '#/steps/1/answers/tipoVivienda: «CAZA» no es una opción de tipoVivienda (CASA, DEPARTAMENTO, PH). ¿quisiste decir «CASA»?">',
    );
  });

  it('refuses a misspelt field, option and route before starting anything: no build, no server, no browser', () => {
    type Step = { route: string; answers: Record<string, unknown> };
    const campo = shipped('compra-tarjeta-casa');
    const m = campo.steps.findIndex((s: Step) => s.route === 'seguro-hogar/metros');
    campo.steps[m].answers = { metro: 80 };
    const opcion = shipped('compra-cbu-ph');
    const c = opcion.steps.findIndex((s: Step) => s.answers?.codPlan);
    opcion.steps[c].answers.codPlan = 'INTEGRALL';
    writeFileSync(join(tmp, 'campo.json'), JSON.stringify(campo));
    writeFileSync(join(tmp, 'opcion.json'), JSON.stringify(opcion));
    writeFileSync(join(tmp, 'ruta.json'), JSON.stringify({ ...shipped('chat-habilitado'), url: '/seguro-hogar/metrosss' }));
    const { code, out } = replay([join(tmp, 'campo.json'), join(tmp, 'opcion.json'), join(tmp, 'ruta.json')]);
    expect(code).toBe(1);
    expect(out).toContain(
      `✗ ${join(tmp, 'campo.json')}#/steps/${m}/answers/metro: «metro» no es un campo del paso (metros). ¿quisiste decir «metros»?`,
    );
    expect(out).toContain(
      `✗ ${join(tmp, 'opcion.json')}#/steps/${c}/answers/codPlan: «INTEGRALL» no es una opción de codPlan (BASICO, INTERMEDIO, INTEGRAL). ¿quisiste decir «INTEGRAL»?`,
    );
    expect(out).toContain(
      `✗ ${join(tmp, 'ruta.json')}#/url: la ruta «seguro-hogar/metrosss» no es un paso del flujo. ¿quisiste decir «seguro-hogar/metros»?`,
    );
    // the refusal comes from reading the flow, the schemas and the tariff: no build, no API (it prints «API escuchando»), no replay
    // (how long that takes is the machine's; the run prints it, and no test asserts a wall-clock time)
    expect(out).toMatch(/0\/3 recorridos verdes — [\d.]+ s en total/);
    expect(out).not.toContain('build');
    expect(out).not.toContain('API escuchando');
    expect(out).not.toContain('▶');
  });

  it('--help prints usage and starts nothing; an unknown option is refused with the usage', () => {
    const help = replay(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Uso: npm run replay -- [fixture.json…] [opciones]');
    expect(help.out).not.toContain('recorridos verdes');
    const typo = replay(['--updte']);
    expect(typo.code).toBe(2);
    expect(typo.out).toContain('opción desconocida: --updte');
  });

  // The local mode's API on a port the system just gave out as free (a fixed one could be taken by a file running beside
  // this one, or by another checkout's run), named with --port so the test can tell it is free again; a stand-in page
  // (STATIC_DIR) so no build is needed.
  const freePort = () =>
    new Promise<number>((ok, ko) => {
      const srv = createServer()
        .once('error', ko)
        .listen(0, '127.0.0.1', () => {
          const { port } = srv.address() as AddressInfo;
          srv.close(() => ok(port));
        });
    });
  const portFree = (port: number) =>
    new Promise<boolean>((ok) => {
      const srv = createServer()
        .once('error', () => ok(false))
        .listen(port, '127.0.0.1', () => srv.close(() => ok(true)));
    });
  const fakeDist = () => {
    const dir = join(tmp, 'dist');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>otra página</title><main>otra página</main>');
    return dir;
  };

  it('the local mode stops its API when it does not answer in time', async () => {
    const PORT = await freePort();
    const { code, out } = replay(['--port', String(PORT), 'tests/fixtures/journeys/chat-habilitado.json'], {
      STATIC_DIR: fakeDist(),
      REPLAY_ARRANQUE_MS: '1',
    });
    expect(code).toBe(1);
    expect(out).toContain(`la API local no respondió en 0.001 s (http://127.0.0.1:${PORT}/api/health/live): detenida`);
    expect(await portFree(PORT)).toBe(true);
  });

  it('Ctrl-C during a local replay stops its API', async () => {
    const PORT = await freePort();
    // a process group of its own (the replay and the API it starts): if the test fails or times out before the replay
    // has stopped its API, both are killed with the group, so no API is left running
    const child = spawn(
      process.execPath,
      [...NODE_DE_PRUEBA, 'scripts/replay.ts', '--port', String(PORT), 'tests/fixtures/journeys/chat-habilitado.json'],
      {
        env: { ...process.env, STATIC_DIR: fakeDist() },
        detached: true,
      },
    );
    onTestFinished(() => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // the group is gone: the replay stopped its API and exited, as the test expects
      }
    });
    let out = '';
    const started = new Promise<void>((ok) =>
      child.stdout.on('data', (d) => {
        out += String(d);
        if (out.includes('▶ chat-habilitado')) ok();
      }),
    );
    const exited = new Promise<number | null>((ok) => child.once('exit', (c) => ok(c)));
    await started;
    expect(await portFree(PORT)).toBe(false);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(await portFree(PORT)).toBe(true);
  });
});
