/**
 * The bench's open-loop pacer (run.ts › the quote API row), in a process of its own: the measuring client must not
 * share an event loop and a heap with Lighthouse, Playwright and autocannon, whose garbage collections would land
 * in the latencies it measures (seen: p99 +6 ms for the same server). Both the hello-world floor and `cotizar` are
 * measured this way, so they stay comparable.
 * `node tests/bench/paced.ts '<json {url, req, rate, seconds, connections}>'` prints the result as JSON.
 */
import { spawnSync } from 'node:child_process';
import http from 'node:http';

export interface ApiRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  path?: string;
}

/**
 * Latency at a steady `rate` req/s for `seconds` over at most `connections` keep-alive connections (an open-loop load,
 * as wrk2 makes it): request i is due at start + i/rate, and its latency counts from that moment, so a request that
 * waits for a free connection, or for a late client, waits on the clock (no coordinated omission).
 * Not autocannon's `overallRate`: that lets each connection send its share of every second back to back as the second
 * starts (200 requests in a burst at full speed, 10 in flight, then nothing) and records every latency with
 * `recordValueWithExpectedInterval(latency, Math.ceil(1 / rate))` — rate per second, so an expected interval of 1 ms
 * instead of 50 ms, which adds a phantom sample per millisecond of each latency. Both inflate p50/p99 far beyond what
 * a steady 200 req/s gives (a 1 ms handler shows p99 ≈ 40 ms).
 * @returns p50 and p99 in ms (0.1 ms), and how many answers were not 2xx or failed
 */
export async function pacedLatency(
  url: string,
  req: ApiRequest,
  rate: number,
  seconds: number,
  connections: number,
): Promise<{ p50: number; p99: number; errors: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(url + (req.path ?? ''));
  const headers = { ...req.headers, ...(req.body ? { 'content-length': String(Buffer.byteLength(req.body)) } : {}) };
  const latencies: number[] = [];
  let errors = 0;
  const send = (due: number) =>
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
    inFlight.push(send(due));
  }
  await Promise.all(inFlight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 10) / 10;
  return { p50: at(0.5), p99: at(0.99), errors };
}

/**
 * {@link pacedLatency} in a child process (this file run as a script); blocks until it ends (rate × seconds requests).
 * @throws Error when the child fails or prints no result
 */
export function pacedLatencyApart(
  url: string,
  req: ApiRequest,
  rate: number,
  seconds: number,
  connections: number,
): { p50: number; p99: number; errors: number } {
  const r = spawnSync(process.execPath, [import.meta.filename, JSON.stringify({ url, req, rate, seconds, connections })], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`el medidor terminó con ${r.status}`);
  return JSON.parse(r.stdout) as { p50: number; p99: number; errors: number };
}

if (import.meta.main) {
  const { url, req, rate, seconds, connections } = JSON.parse(process.argv[2]) as {
    url: string;
    req: ApiRequest;
    rate: number;
    seconds: number;
    connections: number;
  };
  process.stdout.write(JSON.stringify(await pacedLatency(url, req, rate, seconds, connections)));
}
