/**
 * The shipped fixtures pin the money (expect.planes / expect.plan). A single-value mistake in the tariff —
 * a value per m², a risk factor, a tax rate, a coverage rate — turns at least one fixture red, naming fixture, step,
 * plan, expected and seen premio; `--update` (writeUpdates) rewrites the pins, prints the diff, and the set is green
 * again. Replayed headless against the API in-process priced with a modified copy of the tariff (build › tariffFile).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { failureOf, headlessApi, loadFixtures, loadReplayProduct, runHeadless, writeUpdates } from '../../scripts/replay.ts';
import { showValue } from '../../src/recorder/pins.ts';

const TARIFF = 'server/tariffs/2026-11.json';
const FIXTURES = ['compra-tarjeta-casa', 'compra-cbu-departamento', 'compra-cbu-ph', 'direccion-otra-zona'];
const product = loadReplayProduct('.');
const tmp = mkdtempSync(join(tmpdir(), 'h7-pins-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Tariff = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A copy of the shipped tariff with one value changed, and copies of the fixtures to update. */
function setup(name: string, change: (t: Tariff) => void, only: string[]): { tariffFile: string; files: string[] } {
  const t = JSON.parse(readFileSync(TARIFF, 'utf8')) as Tariff;
  change(t);
  const tariffFile = join(tmp, `${name}.json`);
  writeFileSync(tariffFile, JSON.stringify(t));
  const files = only.map((f) => {
    const to = join(tmp, `${name}--${f}.json`);
    copyFileSync(`tests/fixtures/journeys/${f}.json`, to);
    return to;
  });
  return { tariffFile, files };
}

/** The premio a shipped fixture pins for `plan` on its quote step, as a tester reads it (12.345,67). */
function pinned(fixture: string, plan: string): { step: number; premio: string } {
  const j = JSON.parse(readFileSync(`tests/fixtures/journeys/${fixture}.json`, 'utf8'));
  const step = j.steps.findIndex((s: { expect?: { planes?: unknown } }) => s.expect?.planes);
  return { step, premio: showValue(j.steps[step].expect.planes[plan].premio) };
}

describe('pinned premiums catch a tariff mistake, --update repins', () => {
  it('the shipped fixtures are green on the shipped tariff', async () => {
    const { journeys } = loadFixtures(FIXTURES.map((f) => `tests/fixtures/journeys/${f}.json`));
    const runs = await runHeadless(journeys, product);
    expect(runs.map((r) => [r.name, failureOf(r) ?? 'verde'])).toEqual(FIXTURES.map((f) => [f, 'verde']));
  });

  it.each([
    [
      'valor de reposición por m² de CASA tipeado ×10',
      (t: Tariff) => (t.tiposVivienda.CASA.valorReposicionM2 = 14_000_000),
      'compra-tarjeta-casa',
    ],
    ['valor de contenido por m² de PH ×10', (t: Tariff) => (t.tiposVivienda.PH.valorContenidoM2 = 2_200_000), 'compra-cbu-ph'],
    [
      'factor de la zona Z1 1,15 → 1,5',
      (t: Tariff) => (t.factores.find((f: Tariff) => f.campo === 'zona').valores.Z1.factor = 1.5),
      'compra-tarjeta-casa',
    ],
    [
      'factor de robo de DEPARTAMENTO 0,8 → 0,08',
      (t: Tariff) => (t.factores[0].valores.DEPARTAMENTO.factorRobo = 0.08),
      'compra-cbu-departamento',
    ],
    ['IVA 21 % → 27 %', (t: Tariff) => (t.impuestos.iva.alicuota = 0.27), 'compra-cbu-ph'],
    ['sellos de Buenos Aires 1,2 % → 12 %', (t: Tariff) => (t.impuestos.sellos.porProvincia['06'] = 0.12), 'compra-tarjeta-casa'],
    ['tasa de Incendio edificio 0,45 → 4,5 ‰', (t: Tariff) => (t.coberturas['101'].tasaAnualPorMil = 4.5), 'compra-cbu-departamento'],
  ])(
    '%s: red naming fixture, step, plan, expected and seen premio; --update makes it green with a diff',
    async (name, change, fixture) => {
      const { tariffFile, files } = setup(name.replace(/\W+/g, '-'), change, [fixture]);
      const { journeys } = loadFixtures(files);
      // one API priced with the changed tariff serves the three replays below (each replays the fixture as a new
      // visitor); the CLI starts one per command, but what is under test here is the replay and its pins
      const app = await headlessApi(tariffFile);
      onTestFinished(() => app.close());
      const red = await runHeadless(journeys, product, { app });
      const run = red.find((r) => r.name === fixture)!;
      expect(run.ok).toBe(false);
      const { step, premio } = pinned(fixture, 'BASICO');
      const line = `${run.name} ${failureOf(run)}`;
      // e.g. compra-tarjeta-casa paso 7 (seguro-hogar/cotizacion): plan BASICO: premio esperado 147.816,81, visto 1.018.296,55
      expect(line).toMatch(
        new RegExp(
          `^${fixture} paso ${step} \\(seguro-hogar/cotizacion\\): plan BASICO: premio esperado ${premio.replace(/\./g, '\\.')}, visto [\\d.]+,\\d\\d`,
        ),
      );
      expect(line).not.toContain(`visto ${premio};`);

      // npm run replay -- --headless --tarifa … --update: replayed with pins recording instead of failing, then rewritten
      const diff = writeUpdates(await runHeadless(loadFixtures(files).journeys, product, { update: true, app }));
      expect(diff.some((d) => d.startsWith(`${fixture}: paso ${step} plan BASICO premio: ${premio} → `))).toBe(true);
      const again = await runHeadless(loadFixtures(files).journeys, product, { app });
      expect(again.filter((r) => !r.ok).map((r) => `${r.name}: ${failureOf(r)}`)).toEqual([]);
    },
    120_000,
  );
});
