/**
 * `npm run bench:lcp -- [route…]` — LCP as a phone on a slow network paints it, measured in the browser rather than
 * simulated: Lighthouse's default throttling (Lantern) estimates LCP from the trace of an unthrottled load and
 * barely sees changes to when chunks are requested; here Chromium itself is slowed as DevTools does it (150 ms RTT,
 * 1.6 Mbit/s down, 750 kbit/s up, CPU 4×) and the page's own `largest-contentful-paint` entries are read. For each
 * route of the purchase fixture (default: every step), the step is opened cold with the journey restored as in
 * `npm run bench`, BENCH_LCP_RUNS times (default 5); prints the median and every run, ms. Reuses dist/ (run
 * `npm run build` first). Figures only, nothing asserted. Env: BENCH_FIXTURE (default compra-tarjeta-casa).
 */
import { resolve } from 'node:path';
import { settled, trackRequests } from '../../tools/replay/settle.ts';
import { slowCpu, slowNetwork } from './first-question.ts';
import { median } from './median.ts';
import { builtAppStates, routeWanted, seededContext } from './web.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURE = process.env.BENCH_FIXTURE ?? 'compra-tarjeta-casa';
const RUNS = Number(process.env.BENCH_LCP_RUNS ?? 5);
const wanted = process.argv.slice(2);

async function main() {
  const { browser, states, close } = await builtAppStates(ROOT, FIXTURE);
  try {
    for (const state of states.filter((s) => routeWanted(s.route, wanted))) {
      const runs: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await seededContext(browser, state.url, state.storage, undefined, true);
        const page = await context.newPage();
        await slowNetwork(page);
        await slowCpu(page, 4);
        await page.addInitScript(() => {
          const w = window as unknown as { __lcp: number };
          w.__lcp = 0;
          new PerformanceObserver((l) => l.getEntries().forEach((e) => (w.__lcp = e.startTime))).observe({
            type: 'largest-contentful-paint',
            buffered: true,
          });
        });
        trackRequests(page);
        await page.goto(state.url);
        // settled: no request in flight and the frame's placeholders (aria-busy) replaced by the journey's step; then a
        // last moment for the final paint's entry
        await settled(page, 60_000);
        await page.waitForTimeout(500);
        runs.push(Math.round(await page.evaluate(() => (window as unknown as { __lcp: number }).__lcp)));
        await context.close();
      }
      console.log(`${state.route}: LCP mediana ${median(runs)} ms (${runs.join(' · ')})`);
    }
  } finally {
    await close();
  }
}

await main();
