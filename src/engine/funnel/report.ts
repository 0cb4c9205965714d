/**
 * The staff's funnel report (`npm run report:funnel`, scripts/report-funnel.ts), as pure functions over the stored
 * events (table embudo_eventos) and the compiled flow.
 *
 * Per step, in the flow's graph order (`compileFlow`, never the file order), counting JOURNEYS (a reload that shows a
 * step twice counts once):
 * - shown: journeys the step was shown in;
 * - completed: of those, journeys that submitted it (the flow accepted it and moved on); for a result step (an end of
 *   the journey) being shown is completing it;
 * - dropped: of those, journeys that neither submitted it nor were shown any LATER step (graph order) — a journey a
 *   branch took past the step never shows it, so it is not counted at all (a skipped step is not a drop);
 * - drop rate: dropped ÷ shown (0 when nothing was shown).
 * Events of steps the flow no longer has (an older flow version) are left out and counted in `otrosPasos`.
 */
import type { Flow } from '../core/types.ts';

/** A stored funnel event as the report needs it. */
export interface StoredEvent {
  recorrido: string;
  paso: string;
  tipo: 'mostrado' | 'enviado';
}

/** One row of the report. `tasaAbandono` is a fraction in [0, 1]. */
export interface FunnelRow {
  paso: string;
  mostrados: number;
  completados: number;
  abandonos: number;
  tasaAbandono: number;
}

/** The whole report: rows in flow order, journeys counted, and events of steps not in this flow (by step id). */
export interface FunnelReport {
  recorridos: number;
  pasos: FunnelRow[];
  otrosPasos: Record<string, number>;
}

/** Computes the report of `events` over `flow` (see the module comment for each count). */
export function funnelReport(flow: Flow, events: StoredEvent[]): FunnelReport {
  const order = new Map(flow.steps.map((s) => [s.id, s.order]));
  const journeys = new Map<string, { shown: Set<string>; submitted: Set<string>; furthest: number }>();
  const otrosPasos: Record<string, number> = {};
  for (const e of events) {
    const at = order.get(e.paso);
    if (at === undefined) {
      otrosPasos[e.paso] = (otrosPasos[e.paso] ?? 0) + 1;
      continue;
    }
    let j = journeys.get(e.recorrido);
    if (!j) journeys.set(e.recorrido, (j = { shown: new Set(), submitted: new Set(), furthest: -1 }));
    if (e.tipo === 'mostrado') {
      j.shown.add(e.paso);
      j.furthest = Math.max(j.furthest, at);
    } else j.submitted.add(e.paso);
  }
  const pasos = flow.steps.map((step): FunnelRow => {
    let mostrados = 0;
    let completados = 0;
    let abandonos = 0;
    for (const j of journeys.values()) {
      if (!j.shown.has(step.id)) continue;
      mostrados++;
      if (step.kind === 'result' || j.submitted.has(step.id)) completados++;
      else if (j.furthest <= step.order) abandonos++;
    }
    return { paso: step.id, mostrados, completados, abandonos, tasaAbandono: mostrados ? abandonos / mostrados : 0 };
  });
  return { recorridos: journeys.size, pasos, otrosPasos };
}

const pct = (x: number) => `${(x * 100).toLocaleString('es-AR', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} %`;

/** The report as a fixed-width text table in Spanish (what the CLI prints). */
export function formatFunnel(report: FunnelReport, desde?: string): string {
  const head = ['paso', 'mostrados', 'completados', 'abandonos', 'tasa de abandono'];
  const rows = report.pasos.map((r) => [r.paso, String(r.mostrados), String(r.completados), String(r.abandonos), pct(r.tasaAbandono)]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const otros = Object.entries(report.otrosPasos);
  return [
    `Embudo de pasos${desde ? ` desde ${desde}` : ''}: ${report.recorridos} recorridos`,
    line(head),
    ...rows.map(line),
    ...(otros.length ? [`Eventos de pasos que ya no están en el flujo: ${otros.map(([p, n]) => `${p} (${n})`).join(', ')}`] : []),
  ].join('\n');
}
