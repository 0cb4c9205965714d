/**
 * `npm run report:funnel -- [--since YYYY-MM-DD] [--json] [--html FILE]`: the staff's step funnel (issue 7).
 * Reads the funnel events (table embudo_eventos, filled by POST /api/embudo/eventos) from the database the API uses —
 * DATABASE_URL, else the embedded PGlite under DATA_DIR (default ./data; stop the API first: that folder is locked to
 * one process) — and the flow (flow/flow.json, or FLOW_FILE), then:
 * - prints per step, in flow order: shown, completed, dropped, drop rate (src/engine/funnel/report.ts defines each);
 *   with `--json`, the same as JSON on stdout;
 * - writes an HTML page (default reports/embudo.html, git-ignored) with the table and a Chart.js chart; the library is
 *   inlined, so the page works offline.
 * `--since` counts events the server received from that day (00:00, Argentina time, UTC−3) on.
 * Exit code 1 with a Spanish message on a bad argument or an unreachable database.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readConfig } from '../server/src/config.ts';
import { createPgliteDb, createPostgresDb, type Db } from '../server/src/db/index.ts';
import { embudoRepository } from '../server/src/db/repositories/embudo.ts';
import { compileFlow } from '../src/engine/core/graph.ts';
import type { FlowDef } from '../src/engine/core/types.ts';
import { formatFunnel, funnelReport, type FunnelReport } from '../src/engine/funnel/report.ts';

const REPO = join(import.meta.dirname, '..');

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The report page: a table and a Chart.js bar chart (shown/completed/dropped per step, drop rate as a line). */
export function funnelHtml(report: FunnelReport, chartJs: string, desde?: string): string {
  const data = JSON.stringify({
    labels: report.pasos.map((p) => p.paso),
    mostrados: report.pasos.map((p) => p.mostrados),
    completados: report.pasos.map((p) => p.completados),
    abandonos: report.pasos.map((p) => p.abandonos),
    tasa: report.pasos.map((p) => Math.round(p.tasaAbandono * 1000) / 10),
  }).replace(/</g, '\\u003c');
  const rows = report.pasos
    .map((p) => `<tr><td>${esc(p.paso)}</td><td>${p.mostrados}</td><td>${p.completados}</td><td>${p.abandonos}</td><td>${(p.tasaAbandono * 100).toFixed(1).replace('.', ',')} %</td></tr>`)
    .join('\n');
  const titulo = `Embudo de pasos${desde ? ` desde ${desde}` : ''}`;
  return `<!doctype html>
<html lang="es-AR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(titulo)} — Cotizador Hogar</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin-top:1.5rem}th,td{padding:.3rem .8rem;border-bottom:1px solid #ddd;text-align:right}
th:first-child,td:first-child{text-align:left}.chart{position:relative;height:440px}</style></head>
<body><h1>${esc(titulo)}</h1>
<p>${report.recorridos} recorridos. Abandono = recorridos a los que se les mostró el paso y no lo enviaron ni llegaron a un paso posterior, sobre los que lo vieron (un paso salteado por una rama no cuenta; los pasos de resultado no tienen abandono).</p>
<div class="chart"><canvas id="embudo" aria-label="Gráfico del embudo de pasos" role="img"></canvas></div>
<table><thead><tr><th>Paso</th><th>Mostrados</th><th>Completados</th><th>Abandonos</th><th>Tasa de abandono</th></tr></thead><tbody>
${rows}
</tbody></table>
<script>${chartJs.replace(/<\/script/gi, '<\\/script')}</script>
<script>
const d = ${data};
new Chart(document.getElementById('embudo'), {
  data: {
    labels: d.labels,
    datasets: [
      { type: 'bar', label: 'Mostrados', data: d.mostrados, backgroundColor: '#0b4f8a', yAxisID: 'y' },
      { type: 'bar', label: 'Completados', data: d.completados, backgroundColor: '#1b5e3b', yAxisID: 'y' },
      { type: 'bar', label: 'Abandonos', data: d.abandonos, backgroundColor: '#c0392b', yAxisID: 'y' },
      { type: 'line', label: 'Tasa de abandono (%)', data: d.tasa, borderColor: '#e67e22', backgroundColor: '#e67e22', yAxisID: 'tasa' },
    ],
  },
  options: {
    locale: 'es-AR', maintainAspectRatio: false, animation: false,
    scales: {
      y: { beginAtZero: true, title: { display: true, text: 'Recorridos' }, ticks: { precision: 0 } },
      tasa: { position: 'right', min: 0, max: 100, title: { display: true, text: '% de abandono' }, grid: { drawOnChartArea: false } },
    },
  },
});
</script></body></html>
`;
}

/** `YYYY-MM-DD` → that day's 00:00 in Argentina (UTC−3), or an Error with a Spanish message. */
export function parseSince(value: string): Date {
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T12:00:00Z`)) && new Date(`${value}T12:00:00Z`).toISOString().startsWith(value);
  if (!valid) throw new Error(`--since tiene que ser una fecha AAAA-MM-DD (vale "${value}").`);
  return new Date(`${value}T00:00:00-03:00`);
}

async function main() {
  const { values } = parseArgs({ options: { since: { type: 'string' }, json: { type: 'boolean' }, html: { type: 'string' } }, strict: true });
  const desde = values.since !== undefined ? parseSince(values.since) : undefined;
  const def = JSON.parse(readFileSync(process.env.FLOW_FILE ?? join(REPO, 'flow/flow.json'), 'utf8')) as FlowDef;
  const flow = compileFlow(def);
  const config = readConfig(process.env);
  let db: Db;
  try {
    db = config.databaseUrl ? await createPostgresDb(config.databaseUrl) : await createPgliteDb(join(config.dataDir, 'pglite'));
  } catch (err) {
    throw new Error(`No se pudo abrir la base de datos: ${(err as Error).message}`);
  }
  let report: FunnelReport;
  try {
    const [exists] = await db.query<{ t: string | null }>("SELECT to_regclass('embudo_eventos')::text AS t");
    const events = exists?.t ? await embudoRepository(db).desde(desde) : [];
    report = funnelReport(flow, events);
  } finally {
    await db.close();
  }
  const htmlFile = resolve(values.html ?? join(REPO, 'reports/embudo.html'));
  // the UMD build (one file, defines window.Chart) beside the package's CommonJS entry, dist/chart.cjs
  const chartJs = readFileSync(join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
  mkdirSync(dirname(htmlFile), { recursive: true });
  writeFileSync(htmlFile, funnelHtml(report, chartJs, values.since));
  if (values.json) process.stdout.write(`${JSON.stringify({ desde: values.since ?? null, ...report, html: htmlFile }, null, 2)}\n`);
  else process.stdout.write(`${formatFunnel(report, values.since)}\nPágina con el gráfico: ${htmlFile}\n`);
}

if (import.meta.main) {
  main().catch((err: unknown) => {
    console.error((err as Error).message);
    process.exit(1);
  });
}
