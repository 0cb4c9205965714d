/**
 * `npm run flow:graph`: draws the flow from flow/flow.json with Graphviz (@viz-js/viz, Graphviz compiled to
 * WebAssembly — no hand-made layout) into docs/flow.svg: one box per step with its route, flag and API calls
 * (conditional calls with their condition), arrows for `next` (branch conditions as labels), dashed arrows for
 * `onError`, dotted ones for extra actions; result steps are drawn as rounded boxes. `npm test` fails when the
 * committed SVG is stale (tests/unit/flow-graph.test.ts).
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { instance } from '@viz-js/viz';
import { compileFlow } from '../src/engine/core/graph.ts';
import type { CallRef, Flow, FlowDef } from '../src/engine/core/types.ts';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const callText = (r: CallRef) => (typeof r === 'string' ? r : `${r.call} (si ${r.when})`);

/** Graphviz DOT source of a compiled flow. */
export function flowToDot(flow: Flow): string {
  const lines = ['digraph flujo {', '  graph [rankdir=TB, fontname="Helvetica", nodesep=0.3, ranksep=0.35];', '  node [shape=box, style="rounded,filled", fillcolor="#ffffff", color="#1b5e3b", fontname="Helvetica", fontsize=10];', '  edge [fontname="Helvetica", fontsize=9, color="#444444"];'];
  for (const s of flow.steps) {
    const calls = [...(s.onSubmit ?? []).map(callText), ...Object.entries(s.onChange ?? {}).flatMap(([f, refs]) => refs.map((r) => `${callText(r)} al cambiar ${f}`))];
    const rows = [
      `<TR><TD ALIGN="LEFT"><B>${esc(s.id)}</B> <FONT COLOR="#666666">${esc(s.kind)}${s.stage ? ' · ' + esc(s.stage) : ''}</FONT></TD></TR>`,
      `<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="9">/${esc(s.path)}</FONT></TD></TR>`,
      `<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="9" COLOR="#1b5e3b">flag ${esc(s.flag)}</FONT></TD></TR>`,
      ...calls.map((c) => `<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="9" COLOR="#0b4f8a">→ ${esc(c)}</FONT></TD></TR>`),
    ];
    const fill = s.kind === 'result' ? (s.result?.tone === 'error' ? '#fdecea' : '#e8f5ec') : s.kind === 'landing' ? '#eef3fb' : '#ffffff';
    lines.push(`  "${s.id}" [fillcolor="${fill}", label=<<TABLE BORDER="0" CELLSPACING="0" CELLPADDING="1">${rows.join('')}</TABLE>>];`);
  }
  for (const s of flow.steps) {
    if (typeof s.next === 'string') lines.push(`  "${s.id}" -> "${s.next}";`);
    else s.next?.forEach((b) => lines.push(`  "${s.id}" -> "${b.to}" [label="${esc(b.when ?? 'si no')}"];`));
    if (s.onError) lines.push(`  "${s.id}" -> "${s.onError}" [style=dashed, color="#b3261e", fontcolor="#b3261e", label="si falla"];`);
    s.actions?.forEach((a) => lines.push(`  "${s.id}" -> "${a.to}" [style=dotted, label="${esc(a.text)}", constraint=false];`));
  }
  lines.push('}');
  return lines.join('\n');
}

/** SVG of the flow definition `def`. */
export async function renderFlowSvg(def: FlowDef): Promise<string> {
  const viz = await instance();
  return viz.renderString(flowToDot(compileFlow(def)), { format: 'svg', engine: 'dot' });
}

async function main() {
  const root = resolve(import.meta.dirname, '..');
  const def = JSON.parse(readFileSync(join(root, 'flow/flow.json'), 'utf8')) as FlowDef;
  const out = join(root, 'docs/flow.svg');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, await renderFlowSvg(def));
  console.log(`docs/flow.svg (${def.steps.length} pasos)`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await main();
