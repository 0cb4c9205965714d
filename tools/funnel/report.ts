/**
 * The staff's funnel report (`npm run report:funnel`, scripts/report-funnel.ts), as pure functions over the stored
 * events (table embudo_eventos) and the compiled flow.
 *
 * Journeys marked synthetic (a replay's, the staff preview's, the recorder's, a test's: any event stored with
 * `sintetico`) are left out unless `incluirSinteticos`; how many were left out is `sinteticosExcluidos`.
 *
 * A journey is read as the sequence of steps it was SHOWN (a step shown again right after itself — a reload — is one
 * visit). Each change of step is a move from one step to the next one shown; a move out of a step the journey had
 * submitted since it was shown there is a move "after submitting". Per step, in the flow's graph order, counting JOURNEYS:
 * - mostrados (visitors): journeys that reached the step (were shown it at least once);
 * - completados: journeys that submitted it and then reached another step, not by going back (null for result steps:
 *   gracias/error end a journey, there is nothing to complete);
 * - abandonos: journeys whose LAST step shown is this one (null for result steps); a journey that went back from it
 *   and left elsewhere dropped there, not here; a step a branch skipped is never shown, so it is no drop;
 * - tasaAbandono: abandonos ÷ mostrados (null for result steps, 0 when nobody was shown the step).
 * Per move (edge), journeys that made it at least once and their share of the step's visitors; each move is typed:
 * `siguiente` (a `next` of the flow, after submitting), `error` (its `onError`, without a submit), `accion` (an extra
 * action of the step), `atras` (back to an earlier step: a back loop), `salto` (anything else: a typed URL, a link).
 * A `siguiente` out of a step named in flow.json › funnel.splitBy is split by the value the journey chose (`rama`,
 * e.g. TC / CBU on metodo-de-pago).
 * Events of steps the flow no longer has (an older flow version) are left out and counted in `otrosPasos` (synthetic
 * journeys' too only when included); a journey with none of this flow's steps is no journey of this report.
 */
import { nextIds } from '../../src/core/flow/graph.ts';
import type { Flow, Step } from '../../src/core/flow/types.ts';

/** A stored funnel event as the report needs it (`en`: browser time, ISO 8601 — events are ordered by it when given). */
export interface StoredEvent {
  recorrido: string;
  paso: string;
  tipo: 'mostrado' | 'enviado';
  en?: string;
  rama?: string | null;
  sintetico?: boolean;
}

/** One row of the report. `tasaAbandono` is a fraction in [0, 1]; result steps have no completed/dropped (null). */
export interface FunnelRow {
  paso: string;
  resultado: boolean;
  mostrados: number;
  completados: number | null;
  abandonos: number | null;
  tasaAbandono: number | null;
}

/** How a journey moved from a step to the next one shown (see the module comment). */
export type MoveKind = 'siguiente' | 'error' | 'accion' | 'atras' | 'salto';

/** One edge: journeys that moved `desde` → `hasta` (with `rama` when split), and their share of `desde`'s visitors. */
export interface FunnelEdge {
  desde: string;
  hasta: string;
  tipo: MoveKind;
  rama?: string;
  recorridos: number;
  proporcion: number;
}

/** The whole report: journeys counted and left out, rows in flow order, edges, events of steps not in this flow. */
export interface FunnelReport {
  recorridos: number;
  sinteticosExcluidos: number;
  pasos: FunnelRow[];
  aristas: FunnelEdge[];
  otrosPasos: Record<string, number>;
}

/** The kind of a move `from` → `to` (`submitted`: the journey had submitted `from` since it was shown there). */
export function moveKind(from: Step, to: Step, submitted: boolean): MoveKind {
  if (nextIds(from).includes(to.id) && (submitted || from.onError !== to.id)) return 'siguiente';
  if (from.onError === to.id) return 'error';
  if (from.actions?.some((a) => a.to === to.id)) return 'accion';
  return to.order < from.order ? 'atras' : 'salto';
}

/**
 * Computes the report of `events` over `flow` (see the module comment for each count).
 * @param opts.incluirSinteticos count the journeys marked synthetic too (default false)
 */
export function funnelReport(flow: Flow, events: StoredEvent[], opts: { incluirSinteticos?: boolean } = {}): FunnelReport {
  const steps = new Map(flow.steps.map((s) => [s.id, s]));
  const otrosPasos: Record<string, number> = {};
  const byJourney = new Map<string, StoredEvent[]>();
  for (const e of events) {
    const list = byJourney.get(e.recorrido) ?? [];
    if (!list.length) byJourney.set(e.recorrido, list);
    list.push(e);
  }
  let sinteticosExcluidos = 0;
  const shown = new Map<string, number>();
  const completed = new Map<string, number>();
  const dropped = new Map<string, number>();
  const edges = new Map<string, Omit<FunnelEdge, 'proporcion'>>();
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  let recorridos = 0;
  for (const list of byJourney.values()) {
    if (!opts.incluirSinteticos && list.some((e) => e.sintetico)) {
      sinteticosExcluidos++;
      continue;
    }
    const known = list.filter((e) => {
      if (!steps.has(e.paso)) otrosPasos[e.paso] = (otrosPasos[e.paso] ?? 0) + 1;
      return steps.has(e.paso);
    });
    if (known.length === 0) continue;
    recorridos++;
    // stable: events of one batch keep their order; batches that arrived out of order are put back by browser time
    if (known.every((e) => e.en)) known.sort((a, b) => Date.parse(a.en!) - Date.parse(b.en!));
    const { seen, done, moves, at } = followJourney(flow, steps, known);
    for (const id of seen) bump(shown, id);
    for (const id of done) if (steps.get(id)!.kind !== 'result') bump(completed, id);
    if (at && at.kind !== 'result') bump(dropped, at.id);
    for (const [key, move] of moves) {
      const edge = edges.get(key);
      if (edge) edge.recorridos++;
      else edges.set(key, { ...move, recorridos: 1 });
    }
  }
  const pasos = funnelRows(flow, shown, completed, dropped);
  const order = (id: string) => steps.get(id)!.order;
  const aristas = [...edges.values()]
    .map((e): FunnelEdge => ({ ...e, proporcion: e.recorridos / (shown.get(e.desde) ?? 1) }))
    .sort(
      (a, b) =>
        order(a.desde) - order(b.desde) ||
        order(a.hasta) - order(b.hasta) ||
        a.tipo.localeCompare(b.tipo) ||
        (a.rama ?? '').localeCompare(b.rama ?? ''),
    );
  return { recorridos, sinteticosExcluidos, pasos, aristas, otrosPasos };
}

/**
 * One journey's visits, in order (`known`: its events of steps of this flow): the steps it was shown, those it completed
 * (submitted and moved on, not back), the moves between steps by kind (and branch, where the funnel splits the step)
 * and the step it was last at.
 */
function followJourney(flow: Flow, steps: Map<string, Step>, known: StoredEvent[]) {
  const seen = new Set<string>();
  const done = new Set<string>();
  const moves = new Map<string, Omit<FunnelEdge, 'proporcion' | 'recorridos'>>();
  let at: Step | undefined;
  let submitted: { rama?: string } | null = null;
  for (const e of known) {
    const step = steps.get(e.paso)!;
    if (e.tipo === 'enviado') {
      if (at?.id === e.paso) submitted = e.rama ? { rama: e.rama } : {};
      continue;
    }
    if (at?.id === step.id) continue; // a reload: the same visit
    if (at) {
      const tipo = moveKind(at, step, submitted !== null);
      if (submitted && tipo !== 'atras') done.add(at.id);
      const rama = tipo === 'siguiente' && flow.funnel?.splitBy?.[at.id] ? submitted?.rama : undefined;
      const move = { desde: at.id, hasta: step.id, tipo, ...(rama ? { rama } : {}) };
      moves.set(`${move.desde}>${move.hasta}>${tipo}>${rama ?? ''}`, move);
    }
    seen.add(step.id);
    at = step;
    submitted = null;
  }
  return { seen, done, moves, at };
}

/** The report's rows in flow order: shown, completed and dropped per step (a result step has no completion or drop-off). */
function funnelRows(flow: Flow, shown: Map<string, number>, completed: Map<string, number>, dropped: Map<string, number>): FunnelRow[] {
  return flow.steps.map((step): FunnelRow => {
    const mostrados = shown.get(step.id) ?? 0;
    if (step.kind === 'result')
      return { paso: step.id, resultado: true, mostrados, completados: null, abandonos: null, tasaAbandono: null };
    const abandonos = dropped.get(step.id) ?? 0;
    return {
      paso: step.id,
      resultado: false,
      mostrados,
      completados: completed.get(step.id) ?? 0,
      abandonos,
      tasaAbandono: mostrados ? abandonos / mostrados : 0,
    };
  });
}

/** A fraction as a Spanish (es-AR) percentage with one decimal, e.g. 0.25 → "25,0 %". */
export const pct = (x: number) => `${(x * 100).toLocaleString('es-AR', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} %`;

const MOVE_TEXT: Record<MoveKind, string> = { siguiente: 'siguió', error: 'error', accion: 'acción', atras: 'volvió', salto: 'saltó' };

/** The report as fixed-width text tables in Spanish (what the CLI prints): steps, then moves. */
export function formatFunnel(report: FunnelReport, desde?: string): string {
  // the first `left` columns are text (aligned left), the rest numbers
  const table = (head: string[], rows: string[][], left: number) => {
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) => cells.map((c, i) => (i < left ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    return [line(head), ...rows.map(line)];
  };
  const dash = (x: number | null, f: (n: number) => string = String) => (x === null ? '—' : f(x));
  const otros = Object.entries(report.otrosPasos);
  return [
    `Embudo de pasos${desde ? ` desde ${desde}` : ''}: ${report.recorridos} recorridos` +
      (report.sinteticosExcluidos ? ` (${report.sinteticosExcluidos} sintéticos excluidos: reproducciones, vista previa, pruebas)` : ''),
    ...table(
      ['paso', 'visitantes', 'completados', 'abandonos', 'tasa de abandono'],
      report.pasos.map((r) => [r.paso, String(r.mostrados), dash(r.completados), dash(r.abandonos), dash(r.tasaAbandono, pct)]),
      1,
    ),
    '',
    ...table(
      ['desde', 'hasta', 'camino', 'recorridos', 'proporción'],
      report.aristas.map((a) => [
        a.desde,
        a.hasta,
        `${MOVE_TEXT[a.tipo]}${a.rama ? ` (${a.rama})` : ''}`,
        String(a.recorridos),
        pct(a.proporcion),
      ]),
      3,
    ),
    ...(otros.length ? [`Eventos de pasos que ya no están en el flujo: ${otros.map(([p, n]) => `${p} (${n})`).join(', ')}`] : []),
  ].join('\n');
}
