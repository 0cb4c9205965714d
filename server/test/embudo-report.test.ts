/**
 * `npm run report:funnel` on a database filled through the API with the events known journeys produce: M = 9 real journeys and N = 4 marked synthetic (replays); the printed JSON counts only the real
 * ones (unless --incluir-sinteticos), per step and per move (card 3 / CBU 2, one back loop), with and without --since,
 * and the HTML page draws the same numbers on the flow diagram's nodes and edges.
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
import { NODE_DE_PRUEBA } from './processes.ts';

const REPO = join(import.meta.dirname, '../..');
const STEPS = flowJson.steps.map((s) => s.id);
type Ev = [tipo: 'mostrado' | 'enviado', paso: string, rama?: string];
/** Every step up to (not including) `until`, shown and submitted, in file order. */
const through = (until: string): Ev[] =>
  STEPS.slice(0, STEPS.indexOf(until)).flatMap((p): Ev[] => [
    ['mostrado', p],
    ['enviado', p],
  ]);
const m = (p: string): Ev => ['mostrado', p];
const e = (p: string, rama?: string): Ev => (rama ? ['enviado', p, rama] : ['enviado', p]);

/** Shown metodo-de-pago, submitted it paying by `rama` (TC card / CBU), shown confirmacion. */
const pago = (rama: 'TC' | 'CBU'): Ev[] => [m('metodo-de-pago'), e('metodo-de-pago', rama), m('confirmacion')];
const compra = (rama: 'TC' | 'CBU'): Ev[] => [...through('metodo-de-pago'), ...pago(rama), e('confirmacion'), m('gracias')];

/** Real visitors' journeys (M = 9 received from --since on). */
const JOURNEYS: Record<string, Ev[]> = {
  // bought paying by card, twice
  tarjeta1: compra('TC'),
  tarjeta2: compra('TC'),
  // card, emission rejected → error screen → "otro medio" back to metodo-de-pago → card again → bought
  rechazo: [...through('metodo-de-pago'), ...pago('TC'), m('error'), ...pago('TC'), e('confirmacion'), m('gracias')],
  // paid by CBU: one bought, one left on confirmacion
  cbu: compra('CBU'),
  cbuSeFue: [...through('metodo-de-pago'), ...pago('CBU')],
  // went back from metros to permanencia (a back loop), then left: the drop is permanencia, where they were last
  volvio: [...through('metros'), m('metros'), m('permanencia')],
  // left at the contact step
  sinContacto: [...through('contacto'), m('contacto')],
  // reloaded on propiedad (shown twice, one visit), then left on permanencia
  recargo: [m('inicio'), e('inicio'), m('propiedad'), m('propiedad'), e('propiedad'), m('permanencia')],
  // a step of an older flow version, and left on the landing
  viejo: [m('inicio'), m('paso-de-antes')],
};
/** Replays, the staff preview, tests (N = 4): every one bought by card; marked `sintetico`, left out by default. */
const SINTETICOS = 4;

let dataDir: string;
let htmlFile: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'fn-embudo-'));
  htmlFile = join(dataDir, 'embudo.html');
  const app = await buildTestApp({ db: await createPgliteDb(join(dataDir, 'pglite')) });
  const send = async (recorrido: string, evs: Ev[], sintetico?: true) => {
    const eventos = evs.map(([tipo, paso, rama], i) => ({
      recorrido,
      paso,
      tipo,
      en: new Date(Date.UTC(2026, 10, 20, 15, 0, i)).toISOString(),
      ...(rama ? { rama } : {}),
    }));
    const res = await post(app, '/api/embudo/eventos', { versionFlujo: flowJson.version, eventos, ...(sintetico ? { sintetico } : {}) });
    expect(res.statusCode).toBe(200);
  };
  for (const evs of Object.values(JOURNEYS)) await send(randomUUID(), evs);
  for (let i = 0; i < SINTETICOS; i++) await send(randomUUID(), compra('TC'), true);
  // a journey received before --since: shown the landing and propiedad, submitted the landing
  const antes = randomUUID();
  await send(antes, [m('inicio'), e('inicio'), m('propiedad')]);
  await app.deps.db.query("UPDATE embudo_eventos SET recibido_en = '2026-01-10T12:00:00Z' WHERE recorrido = $1", [antes]);
  await app.close(); // releases the PGlite folder for the report
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type Json = {
  recorridos: number;
  sinteticosExcluidos: number;
  pasos: { paso: string; mostrados: number; completados: number | null; abandonos: number | null; tasaAbandono: number | null }[];
  aristas: { desde: string; hasta: string; tipo: string; rama?: string; recorridos: number; proporcion: number }[];
  otrosPasos: Record<string, number>;
};
function report(...args: string[]) {
  const out = execFileSync(
    process.execPath,
    [...NODE_DE_PRUEBA, join(REPO, 'scripts/report-funnel.ts'), '--json', '--html', htmlFile, ...args],
    {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    },
  );
  const json = JSON.parse(out) as Json;
  return {
    ...json,
    rows: Object.fromEntries(json.pasos.map((p) => [p.paso, [p.mostrados, p.completados, p.abandonos]])),
    /** "desde>hasta tipo[ rama]" → journeys */
    edges: Object.fromEntries(json.aristas.map((a) => [`${a.desde}>${a.hasta} ${a.tipo}${a.rama ? ` ${a.rama}` : ''}`, a.recorridos])),
  };
}

/** The texts drawn in each node / edge of the report's SVG, by Graphviz title ("metros", "metros->permanencia"). */
function svgTexts(html: string, kind: 'node' | 'edge'): Record<string, string[][]> {
  const svg = html.slice(html.indexOf('<svg'), html.indexOf('</svg>'));
  const out: Record<string, string[][]> = {};
  const unescape = (t: string) =>
    t
      .replace(/&#45;/g, '-')
      .replace(/&gt;/g, '>')
      .replace(/&lt;/g, '<')
      .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
      .replace(/&amp;/g, '&');
  for (const g of svg.matchAll(new RegExp(`<g id="[^"]+" class="${kind}">\\s*<title>(.*?)</title>([\\s\\S]*?)</g>`, 'g'))) {
    const texts = [...g[2].matchAll(/<text[^>]*>(.*?)<\/text>/g)].map((t) => unescape(t[1]));
    (out[unescape(g[1])] ??= []).push(texts);
  }
  return out;
}

describe('npm run report:funnel', () => {
  it(`counts only the real journeys, per step in flow order: visitors, completed, dropped (none for result steps)`, () => {
    const r = report('--since', '2026-02-01');
    expect(r.recorridos).toBe(9);
    expect(r.sinteticosExcluidos).toBe(SINTETICOS);
    expect(r.pasos.map((p) => p.paso)).toEqual(STEPS);
    expect(r.rows).toEqual({
      inicio: [9, 8, 1],
      propiedad: [8, 8, 0],
      permanencia: [8, 7, 2], // volvio submitted it, came back and left there; recargo left there
      metros: [7, 6, 0], // volvio went back from it: neither completed nor dropped
      localidad: [6, 6, 0],
      contacto: [6, 5, 1],
      vigencia: [5, 5, 0],
      cotizacion: [5, 5, 0],
      adicionales: [5, 5, 0],
      'datos-personales': [5, 5, 0],
      direccion: [5, 5, 0],
      'confirmar-datos-personales': [5, 5, 0],
      'metodo-de-pago': [5, 5, 0],
      confirmacion: [5, 4, 1],
      gracias: [4, null, null],
      error: [1, null, null],
    });
    expect(r.pasos.find((p) => p.paso === 'permanencia')?.tasaAbandono).toBe(0.25);
    expect(r.pasos.find((p) => p.paso === 'confirmacion')?.tasaAbandono).toBe(0.2);
    expect(r.pasos.find((p) => p.paso === 'error')?.tasaAbandono).toBeNull();
    expect(r.otrosPasos).toEqual({ 'paso-de-antes': 1 });
  });

  it('counts each way out of a step: the card/CBU split, the error and its retry, the back loop', () => {
    const r = report('--since', '2026-02-01');
    expect(r.edges).toEqual({
      'inicio>propiedad siguiente': 8,
      'propiedad>permanencia siguiente': 8,
      'permanencia>metros siguiente': 7,
      'metros>permanencia atras': 1,
      'metros>localidad siguiente': 6,
      'localidad>contacto siguiente': 6,
      'contacto>vigencia siguiente': 5,
      'vigencia>cotizacion siguiente': 5,
      'cotizacion>adicionales siguiente': 5,
      'adicionales>datos-personales siguiente': 5,
      'datos-personales>direccion siguiente': 5,
      'direccion>confirmar-datos-personales siguiente': 5,
      'confirmar-datos-personales>metodo-de-pago siguiente': 5,
      'metodo-de-pago>confirmacion siguiente CBU': 2,
      'metodo-de-pago>confirmacion siguiente TC': 3,
      'confirmacion>gracias siguiente': 4,
      'confirmacion>error error': 1,
      'error>metodo-de-pago accion': 1,
    });
    const share = (desde: string, hasta: string, rama?: string) =>
      r.aristas.find((a) => a.desde === desde && a.hasta === hasta && a.rama === rama)?.proporcion;
    expect(share('metodo-de-pago', 'confirmacion', 'TC')).toBe(0.6);
    expect(share('metodo-de-pago', 'confirmacion', 'CBU')).toBe(0.4);
    expect(share('metros', 'permanencia')).toBe(1 / 7);
  });

  it('--incluir-sinteticos counts the replays too', () => {
    const r = report('--since', '2026-02-01', '--incluir-sinteticos');
    expect(r.recorridos).toBe(9 + SINTETICOS);
    expect(r.sinteticosExcluidos).toBe(0);
    expect(r.rows.gracias).toEqual([4 + SINTETICOS, null, null]);
    expect(r.edges['metodo-de-pago>confirmacion siguiente TC']).toBe(3 + SINTETICOS);
    expect(r.edges['metodo-de-pago>confirmacion siguiente CBU']).toBe(2);
  });

  it('without --since, journeys received earlier count too', () => {
    const r = report();
    expect(r.recorridos).toBe(10);
    expect(r.rows.inicio).toEqual([10, 9, 1]);
    expect(r.rows.propiedad).toEqual([9, 8, 1]);
    expect(r.rows.permanencia).toEqual([8, 7, 2]);
  });

  it('writes a page with the counts drawn on the flow diagram (offline) and the branch-aware table', () => {
    report('--since', '2026-02-01');
    const html = readFileSync(htmlFile, 'utf8');
    expect(html).not.toMatch(/<script/);
    const nodes = svgTexts(html, 'node');
    expect(Object.keys(nodes).sort()).toEqual([...STEPS].sort()); // the same graph as docs/flow.svg: one box per step
    expect(nodes['metodo-de-pago'][0]).toEqual(expect.arrayContaining(['visitantes 5', 'completados 5 · abandonos 0 (0,0 %)']));
    expect(nodes.permanencia[0]).toEqual(expect.arrayContaining(['visitantes 8', 'completados 7 · abandonos 2 (25,0 %)']));
    expect(nodes.error[0]).toContain('visitantes 1');
    expect(nodes.error[0].some((t) => t.startsWith('completados'))).toBe(false);
    const edges = svgTexts(html, 'edge');
    expect(edges['metodo-de-pago->confirmacion']).toEqual([['CBU: 2 · 40,0 %'], ['TC: 3 · 60,0 %']]);
    expect(edges['metros->permanencia']).toEqual([['volvió: 1 · 14,3 %']]);
    expect(edges['metros->localidad']).toEqual([['6 · 85,7 %']]);
    expect(edges['confirmacion->gracias']).toEqual([['polizaEmitida: 4 · 80,0 %']]);
    expect(edges['confirmacion->error']).toEqual([['si no: 0'], ['si falla: 1 · 20,0 %']]);
    expect(edges['error->metodo-de-pago']).toEqual([['otroMedio: 1 · 100,0 %']]);
    expect(html).toContain('<tr><td>permanencia</td><td>8</td><td>7</td><td>2</td><td>25,0 %</td></tr>');
    expect(html).toContain('<tr><td>gracias</td><td>4</td><td>—</td><td>—</td><td>—</td></tr>');
    expect(html).toContain('<tr><td>metodo-de-pago</td><td>confirmacion</td><td>siguió (TC)</td><td>3</td><td>60,0 %</td></tr>');
    expect(html).toContain('Se dejaron afuera 4 recorridos sintéticos');
  });

  it('refuses a bad --since with a Spanish message and exit code 1', () => {
    expect(() =>
      execFileSync(process.execPath, [...NODE_DE_PRUEBA, join(REPO, 'scripts/report-funnel.ts'), '--since', '2026-02-30'], {
        env: { ...process.env, DATA_DIR: dataDir },
        encoding: 'utf8',
        stdio: 'pipe',
      }),
    ).toThrow(/--since tiene que ser una fecha AAAA-MM-DD/);
  });
});
