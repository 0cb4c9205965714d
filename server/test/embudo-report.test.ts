/**
 * `npm run report:funnel` on a database filled through the API with the events known journeys produce (issue 7):
 * the printed JSON counts are asserted exactly, with and without --since, and the HTML page carries the chart.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import flowJson from '../../flow/flow.json' with { type: 'json' };
import { createPgliteDb } from '../src/db/index.ts';
import { buildTestApp, post } from './helper.ts';

const REPO = join(import.meta.dirname, '../..');
const STEPS = flowJson.steps.map((s) => s.id);
type Ev = [tipo: 'mostrado' | 'enviado', paso: string];
/** Every step up to (not including) `until`, shown and submitted, in file order. */
const through = (until: string): Ev[] => STEPS.slice(0, STEPS.indexOf(until)).flatMap((p): Ev[] => [['mostrado', p], ['enviado', p]]);
const m = (p: string): Ev => ['mostrado', p];
const e = (p: string): Ev => ['enviado', p];

const JOURNEYS: Record<string, Ev[]> = {
  // bought with a card: every step to the thank-you page
  compra: [...through('gracias'), m('gracias')],
  // left at the contact step
  sinContacto: [...through('contacto'), m('contacto')],
  // went back from metros to permanencia, then left: metros is the drop, not permanencia (already submitted)
  volvio: [...through('metros'), m('metros'), m('permanencia')],
  // emission rejected → error screen → another payment method → success
  rechazo: [...through('confirmacion'), m('confirmacion'), m('error'), m('metodo-de-pago'), e('metodo-de-pago'), m('confirmacion'), e('confirmacion'), m('gracias')],
  // reloaded on propiedad (shown twice, one journey), then left on permanencia
  recargo: [m('inicio'), e('inicio'), m('propiedad'), m('propiedad'), e('propiedad'), m('permanencia')],
  // a step of an older flow version, and left on the landing
  viejo: [m('inicio'), m('paso-de-antes')],
};

let dataDir: string;
let htmlFile: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'fn-embudo-'));
  htmlFile = join(dataDir, 'embudo.html');
  const app = await buildTestApp({ db: await createPgliteDb(join(dataDir, 'pglite')) });
  const send = async (recorrido: string, evs: Ev[]) => {
    const res = await post(app, '/api/embudo/eventos', { versionFlujo: flowJson.version, eventos: evs.map(([tipo, paso], i) => ({ recorrido, paso, tipo, en: new Date(Date.UTC(2026, 10, 20, 15, 0, i)).toISOString() })) });
    expect(res.statusCode).toBe(200);
  };
  for (const evs of Object.values(JOURNEYS)) await send(randomUUID(), evs);
  // a journey received before --since: shown the landing and propiedad, submitted the landing
  const antes = randomUUID();
  await send(antes, [m('inicio'), e('inicio'), m('propiedad')]);
  await app.deps.db.query("UPDATE embudo_eventos SET recibido_en = '2026-01-10T12:00:00Z' WHERE recorrido = $1", [antes]);
  await app.close(); // releases the PGlite folder for the report
}, 60_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function report(...args: string[]) {
  const out = execFileSync(process.execPath, [join(REPO, 'scripts/report-funnel.ts'), '--json', '--html', htmlFile, ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  const json = JSON.parse(out) as { recorridos: number; pasos: { paso: string; mostrados: number; completados: number; abandonos: number; tasaAbandono: number }[]; otrosPasos: Record<string, number> };
  return { ...json, rows: Object.fromEntries(json.pasos.map((p) => [p.paso, [p.mostrados, p.completados, p.abandonos]])) };
}

describe('npm run report:funnel', () => {
  it('counts per step, in flow order: shown, completed, dropped (a branch not taken is no drop)', () => {
    const r = report('--since', '2026-02-01');
    expect(r.recorridos).toBe(6);
    expect(r.pasos.map((p) => p.paso)).toEqual(STEPS);
    expect(r.rows).toEqual({
      inicio: [6, 5, 1],
      propiedad: [5, 5, 0],
      permanencia: [5, 4, 1],
      metros: [4, 3, 1],
      localidad: [3, 3, 0],
      contacto: [3, 2, 1],
      vigencia: [2, 2, 0],
      cotizacion: [2, 2, 0],
      adicionales: [2, 2, 0],
      'datos-personales': [2, 2, 0],
      direccion: [2, 2, 0],
      'confirmar-datos-personales': [2, 2, 0],
      'metodo-de-pago': [2, 2, 0],
      confirmacion: [2, 2, 0],
      gracias: [2, 2, 0],
      error: [1, 1, 0],
    });
    expect(r.pasos.find((p) => p.paso === 'permanencia')?.tasaAbandono).toBe(0.2);
    expect(r.pasos.find((p) => p.paso === 'metros')?.tasaAbandono).toBe(0.25);
    expect(r.otrosPasos).toEqual({ 'paso-de-antes': 1 });
  });

  it('without --since, journeys received earlier count too', () => {
    const r = report();
    expect(r.recorridos).toBe(7);
    expect(r.rows.inicio).toEqual([7, 6, 1]);
    expect(r.rows.propiedad).toEqual([6, 5, 1]);
    expect(r.rows.permanencia).toEqual([5, 4, 1]);
  });

  it('writes a page with the table and a Chart.js chart that works offline', () => {
    report('--since', '2026-02-01');
    const html = readFileSync(htmlFile, 'utf8');
    expect(html).toContain('Chart.js v4'); // the library inlined, no network
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).toContain('"labels":["inicio","propiedad"');
    expect(html).toContain('<tr><td>metros</td><td>4</td><td>3</td><td>1</td><td>25,0 %</td></tr>');
  });

  it('refuses a bad --since with a Spanish message and exit code 1', () => {
    expect(() => execFileSync(process.execPath, [join(REPO, 'scripts/report-funnel.ts'), '--since', '2026-02-30'], { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8', stdio: 'pipe' }))
      .toThrow(/--since tiene que ser una fecha AAAA-MM-DD/);
  });
});
