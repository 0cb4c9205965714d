/**
 * `npm run bench:tareas -- [route…]` — which code makes each long task of a step's start-up. Lighthouse's
 * trace has no CPU profile, so `bench:diag` can say a task is long but not whose it is. This opens each route of the
 * purchase fixture (default: every step; the journey restored as in `npm run bench`) in Chromium, unthrottled (real
 * ms on this machine; Lighthouse multiplies them by 4), with a trace that carries V8's sampling profiler, and prints
 * for each main-thread task from the first contentful paint on that lasts ≥ BENCH_TAREA_MIN ms (default 12.5: 50 ms
 * at 4×, the limit of a long task) its start (ms after navigation), its length, and the functions that took its
 * time (self ms, chunk:line:column of the built file) and the browser's trace events inside it (module compile, GC,
 * layout…), plus the app's `cotizador:*` phase marks.
 * Figures only, nothing asserted; reuses dist/ (run `npm run build` first).
 * `npm run bench:tareas -- --toques` does the same for the taps `npm run bench` measures (INTERACTIONS): each task
 * from the tap on, with its functions.
 * Env: BENCH_FIXTURE (default compra-tarjeta-casa), BENCH_TAREA_MIN (ms), BENCH_RUNS (loads per route, default 1),
 * BENCH_CPU (with --toques: Chromium's CPU slowed this many times during the tap, as `npm run bench` does with 4; the
 * tasks are then printed in slowed ms, and BENCH_TAREA_MIN defaults to 12.5 × BENCH_CPU).
 */
import { resolve } from 'node:path';
import type { Browser } from '@playwright/test';
import { builtAppStates, INTERACTIONS, interactionState, routeWanted, seededContext, type RouteState } from './web.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURE = process.env.BENCH_FIXTURE ?? 'compra-tarjeta-casa';
/** With --toques: how many times Chromium's CPU is slowed during the tap (1: not slowed). */
const CPU = Number(process.env.BENCH_CPU ?? 1);
const MIN_MS = Number(process.env.BENCH_TAREA_MIN ?? 12.5 * CPU);
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const TAPS = process.argv.includes('--toques');
/** BENCH_TOTAL=n: also the n functions with the most time including what they call (an app function's whole cost). */
const TOTAL = Number(process.env.BENCH_TOTAL ?? 0);
const wanted = process.argv.slice(2).filter((a) => a !== '--toques');

/** One Chrome trace event (the fields read here). */
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  id?: string;
  args?: {
    data?: Record<string, unknown> & {
      cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
      timeDeltas?: number[];
      startTime?: number;
    };
  };
}
interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

/** Samples of the V8 profile of the page's main thread: [timestamp µs, node], and its nodes by id. */
function samplesOf(events: TraceEvent[], pid: number, tid: number) {
  const profile = events.find((e) => e.name === 'Profile' && e.pid === pid && e.tid === tid);
  const nodes = new Map<number, ProfileNode>();
  const samples: [number, ProfileNode][] = [];
  if (!profile) return { samples, nodes };
  let time = Number(profile.args?.data?.startTime ?? 0);
  for (const chunk of events.filter((e) => e.name === 'ProfileChunk' && e.pid === pid && e.id === profile.id)) {
    for (const n of chunk.args?.data?.cpuProfile?.nodes ?? []) nodes.set(n.id, n);
    const ids = chunk.args?.data?.cpuProfile?.samples ?? [];
    const deltas = chunk.args?.data?.timeDeltas ?? [];
    ids.forEach((id, i) => {
      time += deltas[i] ?? 0;
      const node = nodes.get(id);
      if (node) samples.push([time, node]);
    });
  }
  return { samples, nodes };
}

const where = (n: ProfileNode) => {
  const file = (n.callFrame.url ?? '').replace(/^.*\//, '');
  return `${n.callFrame.functionName || '(anónima)'}${file ? ` ${file}:${(n.callFrame.lineNumber ?? 0) + 1}:${(n.callFrame.columnNumber ?? 0) + 1}` : ''}`;
};

/**
 * Prints the main-thread tasks of (`pid`, `tid`) that end after `from` (trace µs) and last ≥ MIN_MS, each with its
 * start (ms after `origin`), its length, the four functions with the most self time in it (with BENCH_TOTAL, also the
 * functions with the most time including what they call) and the browser's longest trace events in it.
 */
function printTasks(events: TraceEvent[], pid: number, tid: number, origin: number, from: number, title: string, subtitle?: string) {
  const rel = (ts: number) => Math.round((ts - origin) / 1000);
  const { samples, nodes } = samplesOf(events, pid, tid);
  const tasks = events.filter(
    (e) => e.pid === pid && e.tid === tid && e.name === 'RunTask' && e.ts + (e.dur ?? 0) > from && (e.dur ?? 0) >= MIN_MS * 1000,
  );
  console.log(
    `\n■ ${title} · ${tasks.length} tareas ≥ ${MIN_MS} ms, ${Math.round(tasks.reduce((t, e) => t + Math.max(0, ((e.dur ?? 0) / 1000) * (4 / CPU) - 50), 0))} ms de bloqueo a 4×`,
  );
  if (subtitle) console.log(`  ${subtitle}`);
  for (const t of tasks) {
    // one pass over the task's samples: self time per function and, with BENCH_TOTAL, time including what it calls
    const self = new Map<string, number>();
    const total = new Map<string, number>();
    let prev: number | null = null;
    for (const [ts, node] of samples) {
      const dt = prev === null ? 0 : (ts - prev) / 1000;
      prev = ts;
      if (ts < t.ts || ts > t.ts + (t.dur ?? 0)) continue;
      if (!/^\((idle|root|program)\)$/.test(node.callFrame.functionName)) self.set(where(node), (self.get(where(node)) ?? 0) + dt);
      if (!TOTAL) continue;
      const seen = new Set<string>();
      for (let n: ProfileNode | undefined = node; n; n = n.parent === undefined ? undefined : nodes.get(n.parent)) {
        const k = where(n);
        if (!n.callFrame.url || seen.has(k)) continue;
        seen.add(k);
        total.set(k, (total.get(k) ?? 0) + dt);
      }
    }
    const top = [...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([k, v]) => `${v.toFixed(1)} ${k}`)
      .join(' · ');
    console.log(
      `  ${String(rel(t.ts)).padStart(5)} ms  ${((t.dur ?? 0) / 1000).toFixed(1).padStart(5)} ms  ${top || '(sin muestras de JS)'}`,
    );
    // what the browser did in the task (trace events inside it, by name, longest first): says what a task without JS is
    const inside = new Map<string, number>();
    for (const e of events) {
      if (e.pid !== pid || e.tid !== tid || e === t || e.ph !== 'X' || !e.dur || e.ts < t.ts || e.ts + e.dur > t.ts + (t.dur ?? 0))
        continue;
      inside.set(e.name, Math.max(inside.get(e.name) ?? 0, e.dur / 1000));
    }
    const browserTop = [...inside]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([k, v]) => `${v.toFixed(1)} ${k}`)
      .join(' · ');
    if (browserTop) console.log(`           eventos: ${browserTop}`);
    if (TOTAL) {
      const tops = [...total]
        .sort((a, b) => b[1] - a[1])
        .slice(0, TOTAL)
        .map(([k, v]) => `${v.toFixed(1)} ${k}`);
      console.log(`           con lo que llaman: ${tops.join(' · ')}`);
    }
  }
}

const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'loading',
  'disabled-by-default-v8.cpu_profiler',
];

/**
 * The taps of `npm run bench` (INTERACTIONS) with a trace: the step opened with its journey, the app ready, then the
 * tap; prints each task ≥ MIN_MS from the tap on (ms after it) with the functions that took its time. Unthrottled,
 * or with the CPU slowed BENCH_CPU times from the tap on.
 */
async function profileTaps(browser: Browser, states: RouteState[]) {
  for (const i of INTERACTIONS) {
    const s = interactionState(i, states);
    if (!s) continue;
    for (let run = 0; run < RUNS; run++) {
      const context = await seededContext(browser, s.url, s.storage, undefined, true);
      const page = await context.newPage();
      await page.goto(s.url);
      await i.ready(page).first().waitFor({ timeout: 30_000 });
      await page.waitForTimeout(1500);
      await browser.startTracing(page, { categories: TRACE_CATEGORIES });
      const cdp = CPU > 1 ? await context.newCDPSession(page) : undefined;
      await cdp?.send('Emulation.setCPUThrottlingRate', { rate: CPU });
      await page.evaluate(() => performance.mark('cotizador:toque'));
      await i.act(page);
      await page.waitForTimeout(1500);
      await cdp?.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      const events = (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }).traceEvents;
      await context.close();
      const mark = events.find((e) => e.name === 'cotizador:toque');
      if (!mark) continue;
      printTasks(events, mark.pid, mark.tid, mark.ts, mark.ts, `${i.name} (${s.route})${RUNS > 1 ? ` (vez ${run + 1})` : ''}`);
    }
  }
}

async function main() {
  const { browser, states, close } = await builtAppStates(ROOT, FIXTURE);
  try {
    if (TAPS) return await profileTaps(browser, states);
    for (const [i, s] of states.entries()) {
      if (!routeWanted(s.route, wanted)) continue;
      for (let run = 0; run < RUNS; run++) {
        const context = await seededContext(browser, s.url, i === 0 ? undefined : s.storage);
        const page = await context.newPage();
        await browser.startTracing(page, { categories: TRACE_CATEGORIES });
        await page.goto(s.url, { waitUntil: 'networkidle' });
        await page.waitForTimeout(1500);
        const fcpPage = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0);
        const events = (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }).traceEvents;
        await context.close();
        const mark = events.find((e) => e.name.startsWith('cotizador:'));
        if (!mark) {
          console.log(`\n■ ${s.route}: la app no arrancó (sin marcas cotizador:*)`);
          continue;
        }
        const { pid, tid } = mark;
        const nav = events.filter((e) => e.name === 'navigationStart' && e.pid === pid).at(-1)?.ts ?? mark.ts;
        // the page's own figure (ms after its time origin, which is the navigation's start)
        const fcp = nav + fcpPage * 1000;
        const marks = events
          .filter((e) => e.pid === pid && e.name.startsWith('cotizador:') && e.ph !== 'e')
          .map((e) => `${e.name.slice(10)}@${Math.round((e.ts - nav) / 1000)}`);
        printTasks(
          events,
          pid,
          tid,
          nav,
          fcp,
          `${s.route}${RUNS > 1 ? ` (carga ${run + 1})` : ''}: FCP ${Math.round((fcp - nav) / 1000)} ms`,
          `fases: ${marks.join(' ')}`,
        );
      }
    }
  } finally {
    await close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
