/**
 * `npm run report:funnel -- [--since YYYY-MM-DD] [--incluir-sinteticos] [--json] [--html FILE]`: the staff's step
 * funnel. Reads the funnel events (table embudo_eventos, filled by POST /api/embudo/eventos)
 * from the database the API uses — DATABASE_URL, else the embedded PGlite under DATA_DIR (default ./data; stop the API
 * first: that folder is locked to one process) — and the flow (flow/flow.json, of the product copy at FLOW_ROOT when set), then:
 * - prints per step, in flow order: visitors, completed, dropped, drop rate, then every move between steps with its
 *   journeys and share (tools/funnel/report.ts defines each); with `--json`, the same as JSON on stdout;
 * - writes an HTML page (default reports/embudo.html, git-ignored): the flow diagram of `npm run flow:graph`
 *   (scripts/flow-graph.ts, Graphviz via @viz-js/viz, inline SVG — works offline) with the counts on it — each step's
 *   visitors, completed, dropped and drop rate; each edge's journeys and share, one edge per branch value (card / CBU)
 *   and grey dashed edges for back loops — and the same two tables.
 * Journeys marked synthetic (replays, the staff preview, the recorder, tests) are left out unless `--incluir-sinteticos`.
 * `--since` counts events the server received from that day (00:00, Argentina time, UTC−3) on.
 * Exit code 1 with a Spanish message on a bad argument or an unreachable database.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { instance } from '@viz-js/viz';
import { embudoRepository } from '../server/src/db/repositories/embudo.ts';
import { compileFlow } from '../src/core/flow/graph.ts';
import type { Flow } from '../src/core/flow/types.ts';
import { loadFlowDef } from '../server/src/producto.ts';
import { formatFunnel, funnelReport, pct, type FunnelEdge, type FunnelReport, type MoveKind } from '../tools/funnel/report.ts';
import { flowToDot, type GraphOverlay } from './flow-graph.ts';
import { abrirBaseDelEntorno } from './abrir-base.ts';

const REPO = join(import.meta.dirname, '..');

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const KIND: Record<'next' | 'error' | 'action', MoveKind> = { next: 'siguiente', error: 'error', action: 'accion' };
const MOVE_TEXT: Record<MoveKind, string> = { siguiente: 'siguió', error: 'por error', accion: 'acción', atras: 'volvió', salto: 'saltó' };
const count = (e: Pick<FunnelEdge, 'recorridos' | 'proporcion'>) => `${e.recorridos} · ${pct(e.proporcion)}`;

/**
 * The counts of `report` as an overlay of the flow graph: per step "visitantes N" and, but for result steps,
 * "completados C · abandonos A (R %)"; per flow edge "[condition: ]N · S %" (0 when nobody took it), one edge per
 * branch value on a split step ("TC: 3 · 60,0 %"); moves outside the flow's edges (back loops) as extra edges.
 */
export function funnelOverlay(flow: Flow, report: FunnelReport): GraphOverlay {
  const used = new Set<FunnelEdge>();
  const rows = new Map(report.pasos.map((p) => [p.paso, p]));
  return {
    node: (id) => {
      const r = rows.get(id);
      if (!r) return [];
      return [
        `visitantes ${r.mostrados}`,
        ...(r.resultado ? [] : [`completados ${r.completados} · abandonos ${r.abandonos} (${pct(r.tasaAbandono ?? 0)})`]),
      ];
    },
    edge: (from, to, kind, flowLabel) => {
      const taken = report.aristas.filter((a) => a.desde === from && a.hasta === to && a.tipo === KIND[kind]);
      taken.forEach((a) => used.add(a));
      const prefix = flowLabel ? `${flowLabel}: ` : '';
      if (taken.length === 0) return [`${prefix}0`];
      return taken.map((a) => `${a.rama ? `${a.rama}: ` : prefix}${count(a)}`);
    },
    get extra() {
      return report.aristas
        .filter((a) => !used.has(a) && (a.tipo === 'atras' || a.tipo === 'salto' || !flow.steps.some((s) => s.id === a.desde)))
        .map((a) => ({ from: a.desde, to: a.hasta, label: `${MOVE_TEXT[a.tipo]}: ${count(a)}` }));
    },
  };
}

/** The flow diagram with the counts of `report` (an `<svg>` element, no XML prolog). */
export async function funnelSvg(flow: Flow, report: FunnelReport): Promise<string> {
  const svg = (await instance()).renderString(flowToDot(flow, funnelOverlay(flow, report)), { format: 'svg', engine: 'dot' });
  return svg.slice(svg.indexOf('<svg'));
}

/** The report page: the flow diagram with the counts (`svg`, from {@link funnelSvg}), the step table and the moves. */
export function funnelHtml(report: FunnelReport, svg: string, desde?: string): string {
  const dash = (x: number | null, f: (n: number) => string = String) => (x === null ? '—' : f(x));
  const rows = report.pasos
    .map(
      (p) =>
        `<tr><td>${esc(p.paso)}</td><td>${p.mostrados}</td><td>${dash(p.completados)}</td><td>${dash(p.abandonos)}</td><td>${dash(p.tasaAbandono, pct)}</td></tr>`,
    )
    .join('\n');
  const moves = report.aristas
    .map(
      (a) =>
        `<tr><td>${esc(a.desde)}</td><td>${esc(a.hasta)}</td><td>${MOVE_TEXT[a.tipo]}${a.rama ? ` (${esc(a.rama)})` : ''}</td><td>${a.recorridos}</td><td>${pct(a.proporcion)}</td></tr>`,
    )
    .join('\n');
  const titulo = `Embudo de pasos${desde ? ` desde ${desde}` : ''}`;
  const excluidos = report.sinteticosExcluidos
    ? ` Se dejaron afuera ${report.sinteticosExcluidos} recorridos sintéticos (reproducciones, vista previa, grabador, pruebas; <code>--incluir-sinteticos</code> los cuenta).`
    : '';
  return `<!doctype html>
<html lang="es-AR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(titulo)} — Cotizador Hogar</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin-top:1.5rem}th,td{padding:.3rem .8rem;border-bottom:1px solid #ddd;text-align:right}
th:nth-child(-n+1),td:nth-child(-n+1){text-align:left}.moves td:nth-child(-n+3),.moves th:nth-child(-n+3){text-align:left}
.diagrama{overflow:auto;border:1px solid #ddd;padding:.5rem}.diagrama svg{max-width:100%;height:auto}</style></head>
<body><h1>${esc(titulo)}</h1>
<p>${report.recorridos} recorridos.${excluidos}</p>
<p>En cada paso: visitantes (recorridos que llegaron), completados (lo enviaron y llegaron a otro paso) y abandonos (fue el último paso que vieron), con la tasa de abandono sobre los visitantes; los pasos de resultado no tienen completados ni abandonos. En cada flecha: recorridos que pasaron por ahí y su proporción sobre los visitantes del paso de origen; una flecha por cada medio de pago elegido; en gris, los que volvieron a un paso anterior.</p>
<div class="diagrama" role="img" aria-label="Diagrama del flujo con los recorridos de cada paso y de cada camino">${svg}</div>
<table><thead><tr><th>Paso</th><th>Visitantes</th><th>Completados</th><th>Abandonos</th><th>Tasa de abandono</th></tr></thead><tbody>
${rows}
</tbody></table>
<table class="moves"><thead><tr><th>Desde</th><th>Hasta</th><th>Camino</th><th>Recorridos</th><th>Proporción</th></tr></thead><tbody>
${moves}
</tbody></table>
</body></html>
`;
}

/** `YYYY-MM-DD` → that day's 00:00 in Argentina (UTC−3), or an Error with a Spanish message. */
export function parseSince(value: string): Date {
  const valid =
    /^\d{4}-\d{2}-\d{2}$/.test(value) &&
    !Number.isNaN(Date.parse(`${value}T12:00:00Z`)) &&
    new Date(`${value}T12:00:00Z`).toISOString().startsWith(value);
  if (!valid) throw new Error(`--since tiene que ser una fecha AAAA-MM-DD (vale "${value}").`);
  return new Date(`${value}T00:00:00-03:00`);
}

async function main() {
  const { values } = parseArgs({
    options: { since: { type: 'string' }, json: { type: 'boolean' }, html: { type: 'string' }, 'incluir-sinteticos': { type: 'boolean' } },
    strict: true,
  });
  const desde = values.since !== undefined ? parseSince(values.since) : undefined;
  const flow = compileFlow(loadFlowDef(process.env.FLOW_ROOT ?? REPO));
  const db = await abrirBaseDelEntorno();
  let report: FunnelReport;
  try {
    const [exists] = await db.query<{ t: string | null }>("SELECT to_regclass('embudo_eventos')::text AS t");
    if (exists?.t) {
      const [col] = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'embudo_eventos' AND column_name = 'sintetico'",
      );
      if (!col?.n)
        throw new Error(
          'La base no tiene la migración 018-embudo-sintetico: arrancá la API de esta versión una vez (aplica las migraciones) y volvé a correr el informe.',
        );
    }
    const events = exists?.t ? await embudoRepository(db).desde(desde) : [];
    report = funnelReport(flow, events, { incluirSinteticos: values['incluir-sinteticos'] === true });
  } finally {
    await db.close();
  }
  const htmlFile = resolve(values.html ?? join(REPO, 'reports/embudo.html'));
  mkdirSync(dirname(htmlFile), { recursive: true });
  writeFileSync(htmlFile, funnelHtml(report, await funnelSvg(flow, report), values.since));
  if (values.json) process.stdout.write(`${JSON.stringify({ desde: values.since ?? null, ...report, html: htmlFile }, null, 2)}\n`);
  else process.stdout.write(`${formatFunnel(report, values.since)}\nPágina con el diagrama: ${htmlFile}\n`);
}

if (import.meta.main) {
  main().catch((err: unknown) => {
    console.error((err as Error).message);
    process.exit(1);
  });
}
