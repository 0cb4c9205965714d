/**
 * The benches' open-loop pacer (run.ts › the quote API rows, api.ts › PostgreSQL), in a process of its own: the measuring client must not
 * share an event loop and a heap with Lighthouse, Playwright and autocannon, whose garbage collections would land
 * in the latencies it measures (seen: p99 +6 ms for the same server). Both the hello-world floor and `cotizar` are
 * measured this way, so they stay comparable.
 * `node tests/bench/paced.ts '<json {targets: [{url, req}], rate, seconds, connections}>'` prints the result as JSON.
 * {@link pacedLatencyApart} also reads the CPU the servers used over the run (what compares on a busy machine).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { median } from './median.ts';

export interface ApiRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  path?: string;
}

/** Where a paced load goes: a server and the request sent to it. */
export interface PacedTarget {
  url: string;
  req: ApiRequest;
}

/**
 * Latency at a steady `rate` req/s for `seconds` over at most `connections` keep-alive connections (an open-loop load,
 * as wrk2 makes it): request i is due at start + i/rate, and its latency counts from that moment (or from when it was
 * sent, if the timer sent it early), so a request that waits for a free connection, or for a late client, waits on
 * the clock (no coordinated omission). With several
 * targets (e.g. two instances of the API), request i goes to target i mod n, and the connections are split evenly.
 * Not autocannon's `overallRate`: that lets each connection send its share of every second back to back as the second
 * starts (200 requests in a burst at full speed, 10 in flight, then nothing) and records every latency with
 * `recordValueWithExpectedInterval(latency, Math.ceil(1 / rate))` — rate per second, so an expected interval of 1 ms
 * instead of 50 ms, which adds a phantom sample per millisecond of each latency. Both inflate p50/p99 far beyond what
 * a steady 200 req/s gives (a 1 ms handler shows p99 ≈ 40 ms).
 * @returns p50 and p99 in ms (0.1 ms) over all targets, and how many answers were not 2xx or failed
 */
export async function pacedLatency(
  targets: readonly PacedTarget[],
  rate: number,
  seconds: number,
  connections: number,
): Promise<{ p50: number; p99: number; errors: number }> {
  const perTarget = Math.max(1, Math.floor(connections / targets.length));
  const senders = targets.map(({ url, req }) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: perTarget });
    const target = new URL(url + (req.path ?? ''));
    const headers = { ...req.headers, ...(req.body ? { 'content-length': String(Buffer.byteLength(req.body)) } : {}) };
    return { agent, target, headers, req };
  });
  const latencies: number[] = [];
  let errors = 0;
  const send = (due: number, { agent, target, headers, req }: (typeof senders)[number]) =>
    new Promise<void>((done) => {
      const r = http.request(target, { method: req.method ?? 'GET', headers, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - due);
          if (!res.statusCode || res.statusCode >= 300) errors++;
          done();
        });
      });
      r.on('error', () => {
        errors++;
        done();
      });
      r.end(req.body);
    });
  const total = rate * seconds;
  const start = performance.now() + 20;
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    // a timer may fire up to ~1 ms early (libuv keeps whole ms of a cached loop time): a request sent before it was
    // due counts from when it was sent, or a fast answer would count negative (seen: hello-world p50 −0.1 ms)
    inFlight.push(send(Math.min(due, performance.now()), senders[i % senders.length]));
  }
  await Promise.all(inFlight);
  for (const s of senders) s.agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 10) / 10;
  return { p50: at(0.5), p99: at(0.99), errors };
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux, asked once). */
let ticksPerSecond: number | undefined;

/**
 * CPU time a process has used so far, all its threads, user + system (Linux: /proc/<pid>/stat).
 * @returns ms, at the kernel's tick (10 ms); NaN where /proc is not readable
 */
export function cpuMs(pid: number): number {
  try {
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    // the fields after the command's closing parenthesis; utime and stime are the 14th and 15th of the line
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return NaN;
  }
}

/** What one paced run measured. */
export interface PacedResult {
  p50: number;
  p99: number;
  errors: number;
  /** CPU the servers (`pids`) used per request over the run, ms (user + system, every thread); NaN without pids. */
  cpuMsPerRequest: number;
}

/**
 * {@link pacedLatency} in a child process (this file run as a script); blocks until it ends (rate × seconds requests).
 * @param pids the server processes whose CPU the run's requests cost (their CPU before and after the run)
 * @throws Error when the child fails or prints no result
 */
export function pacedLatencyApart(
  targets: readonly PacedTarget[],
  rate: number,
  seconds: number,
  connections: number,
  pids: readonly number[] = [],
): PacedResult {
  const cpu = () => pids.reduce((s, pid) => s + cpuMs(pid), 0);
  const before = cpu();
  const r = spawnSync(process.execPath, [import.meta.filename, JSON.stringify({ targets, rate, seconds, connections })], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const used = cpu() - before;
  if (r.status !== 0) throw new Error(`el medidor terminó con ${r.status}`);
  const result = JSON.parse(r.stdout) as { p50: number; p99: number; errors: number };
  return { ...result, cpuMsPerRequest: pids.length ? used / (rate * seconds) : NaN };
}

/** A paced load and the server processes whose CPU it costs ({@link pacedMedians}). */
export interface PacedGroup {
  targets: readonly PacedTarget[];
  pids?: readonly number[];
}

/**
 * For each group, the median run by p99 of `runs` paced runs (this VM's neighbours move a single run's p99 by several
 * ms), with the errors of all of them; its CPU per request is the median of the runs' too. The groups' runs are
 * interleaved — run 1 of each group, then run 2 of each… — so a yardstick and what is measured against it see the same
 * stretches of a machine whose speed drifts from minute to minute (November 2026, PostgreSQL floor at 200 req/s, five
 * runs in a row: p99 9.8 to 57.3 ms).
 * @returns one result per group, in the groups' order
 */
export function pacedMedians(
  runs: number,
  groups: readonly PacedGroup[],
  rate: number,
  seconds: number,
  connections: number,
): PacedResult[] {
  const all: PacedResult[][] = groups.map(() => []);
  for (let i = 0; i < runs; i++) groups.forEach((g, j) => all[j].push(pacedLatencyApart(g.targets, rate, seconds, connections, g.pids)));
  return all.map((results) => {
    const byP99 = [...results].sort((a, b) => a.p99 - b.p99)[Math.floor(results.length / 2)];
    return {
      ...byP99,
      errors: results.reduce((n, r) => n + r.errors, 0),
      cpuMsPerRequest: median(results.map((r) => r.cpuMsPerRequest)),
    };
  });
}

if (import.meta.main) {
  const { targets, rate, seconds, connections } = JSON.parse(process.argv[2]) as {
    targets: PacedTarget[];
    rate: number;
    seconds: number;
    connections: number;
  };
  process.stdout.write(JSON.stringify(await pacedLatency(targets, rate, seconds, connections)));
}
