/**
 * `npm run flow:graph`: draws the flow from flow/flow.json with Graphviz (@viz-js/viz, Graphviz compiled to
 * WebAssembly — no hand-made layout) into docs/flow.svg: one box per step with its route, flag and API calls
 * (conditional calls with their condition), arrows for `next` (branch conditions as labels), dashed arrows for
 * `onError`, dotted ones for extra actions; result steps are drawn as rounded boxes. `npm test` fails when the
 * committed SVG is stale (tests/unit/flow-graph.test.ts).
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { instance } from '@viz-js/viz';
import { loadFlowDef } from '../server/src/producto.ts';
import { compileFlow } from '../src/core/flow/graph.ts';
import type { CallRef, Flow, FlowDef } from '../src/core/flow/types.ts';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const callText = (r: CallRef) => (typeof r === 'string' ? r : `${r.call} (si ${r.when})`);

/**
 * Counts drawn on the flow (the staff funnel report, scripts/report-funnel.ts): extra lines under each step's box, the
 * labels of each drawn edge, and moves the flow has no edge for (back loops). Text is plain (escaped here).
 */
export interface GraphOverlay {
  /** Lines added to step `id`'s box (e.g. "visitantes 5"). */
  node: (id: string) => string[];
  /**
   * The edges to draw for the flow's edge `from` → `to` of `kind`, each with its label (`flowLabel`: the condition or
   * action text the plain graph shows). One edge per entry (e.g. one per branch value); an empty list draws none.
   */
  edge: (from: string, to: string, kind: 'next' | 'error' | 'action', flowLabel: string | undefined) => string[];
  /** Moves outside the flow's edges, drawn grey and dashed (e.g. "volvió: 1 · 25,0 %"). */
  extra: { from: string; to: string; label: string }[];
}

/** Graphviz DOT source of a compiled flow; with `overlay`, the same graph with its counts. */
export function flowToDot(flow: Flow, overlay?: GraphOverlay): string {
  const lines = [
    'digraph flujo {',
    '  graph [rankdir=TB, fontname="Helvetica", nodesep=0.3, ranksep=0.35];',
    '  node [shape=box, style="rounded,filled", fillcolor="#ffffff", color="#1b5e3b", fontname="Helvetica", fontsize=10];',
    '  edge [fontname="Helvetica", fontsize=9, color="#444444"];',
  ];
  for (const s of flow.steps) {
    const calls = [
      ...(s.onSubmit ?? []).map(callText),
      ...Object.entries(s.onChange ?? {}).flatMap(([f, refs]) => refs.map((r) => `${callText(r)} al cambiar ${f}`)),
    ];
    const rows = [
      `<TR><TD ALIGN="LEFT"><B>${esc(s.id)}</B> <FONT COLOR="#666666">${esc(s.kind)}${s.stage ? ' · ' + esc(s.stage) : ''}</FONT></TD></TR>`,
      `<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="9">/${esc(s.path)}</FONT></TD></TR>`,
      `<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="9" COLOR="#1b5e3b">flag ${esc(s.flag)}</FONT></TD></TR>`,
      ...calls.map((c) => `<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="9" COLOR="#0b4f8a">→ ${esc(c)}</FONT></TD></TR>`),
      ...(overlay?.node(s.id) ?? []).map(
        (c) => `<TR><TD ALIGN="LEFT"><B><FONT POINT-SIZE="11" COLOR="#7a1f00">${esc(c)}</FONT></B></TD></TR>`,
      ),
    ];
    const fill = s.kind === 'result' ? (s.result?.tone === 'error' ? '#fdecea' : '#e8f5ec') : s.kind === 'landing' ? '#eef3fb' : '#ffffff';
    lines.push(`  "${s.id}" [fillcolor="${fill}", label=<<TABLE BORDER="0" CELLSPACING="0" CELLPADDING="1">${rows.join('')}</TABLE>>];`);
  }
  /** The DOT line(s) of one edge: as is, or one per overlay label. */
  const edge = (from: string, to: string, kind: 'next' | 'error' | 'action', flowLabel: string | undefined, attrs: string) => {
    const labels = overlay ? overlay.edge(from, to, kind, flowLabel) : [flowLabel];
    for (const label of labels) {
      const all = [attrs, label !== undefined ? `label="${esc(label)}"` : ''].filter(Boolean).join(', ');
      lines.push(`  "${from}" -> "${to}"${all ? ` [${all}]` : ''};`);
    }
  };
  for (const s of flow.steps) {
    if (typeof s.next === 'string') edge(s.id, s.next, 'next', undefined, '');
    else s.next?.forEach((b) => edge(s.id, b.to, 'next', b.when ?? 'si no', ''));
    if (s.onError) edge(s.id, s.onError, 'error', 'si falla', 'style=dashed, color="#b3261e", fontcolor="#b3261e"');
    s.actions?.forEach((a) => edge(s.id, a.to, 'action', a.text, 'style=dotted, constraint=false'));
  }
  for (const x of overlay?.extra ?? []) {
    lines.push(
      `  "${x.from}" -> "${x.to}" [style=dashed, color="#888888", fontcolor="#555555", constraint=false, label="${esc(x.label)}"];`,
    );
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
  const def = loadFlowDef(root);
  const out = join(root, 'docs/flow.svg');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, await renderFlowSvg(def));
  console.log(`docs/flow.svg (${def.steps.length} pasos)`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await main();
