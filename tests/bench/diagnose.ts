/**
 * `npm run bench:diag -- [route…]` — why a step scores what it scores: for each route of the purchase
 * fixture (default: every step), one Lighthouse mobile run on the built app with the journey restored as in
 * `npm run bench`, printing what the score table hides: the long tasks (start, duration, script), JS boot-up time per
 * script (evaluation / parse+compile, ms at Lighthouse's 4× CPU), main-thread time by category, the elements that
 * shifted, and the gzip size of each JS/CSS file the page fetched through network idle. Reuses dist/ (run `npm run build` first). Figures only, nothing asserted.
 * Env: BENCH_FIXTURE (default compra-tarjeta-casa).
 */
import { join, resolve } from 'node:path';
import { assetBytes, builtAppStates, lighthouseReport, routeWanted } from './web.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURE = process.env.BENCH_FIXTURE ?? 'compra-tarjeta-casa';
const wanted = process.argv.slice(2);

type Items = Record<string, unknown>[];
const items = (lhr: Awaited<ReturnType<typeof lighthouseReport>>, id: string): Items =>
  (lhr.audits[id]?.details as { items?: Items } | undefined)?.items ?? [];
const short = (u: unknown) => String(u ?? '').replace(/^https?:\/\/[^/]+/, '') || '(sin script)';
const r = (n: unknown) => Math.round(Number(n));

async function main() {
  const { browser, states, close } = await builtAppStates(ROOT, FIXTURE);
  try {
    for (const [i, s] of states.entries()) {
      if (!routeWanted(s.route, wanted)) continue;
      const bytes = await assetBytes(browser, s.url, join(ROOT, 'dist'), i === 0 ? undefined : s.storage);
      const lhr = await lighthouseReport(s.url, i === 0 ? undefined : s.storage);
      const num = (id: string) => r(lhr.audits[id]?.numericValue);
      console.log(
        `\n■ ${s.route}: puntaje ${Math.round((lhr.categories.performance.score ?? 0) * 100)} · FCP ${num('first-contentful-paint')} · LCP ${num('largest-contentful-paint')} · TBT ${num('total-blocking-time')} · CLS ${Number(lhr.audits['cumulative-layout-shift']?.numericValue).toFixed(3)} · TTI ${num('interactive')}`,
      );
      console.log(
        `  JS+CSS gzip: antes del 1er pintado ${(bytes.beforePaint / 1024).toFixed(1)} KB, después ${(bytes.afterPaint / 1024).toFixed(1)} KB`,
      );
      for (const f of bytes.files.sort((a, b) => b.gzip - a.gzip)) console.log(`    ${(f.gzip / 1024).toFixed(1)}\t${f.path}`);
      console.log('  tareas largas (inicio ms, duración ms, script):');
      for (const t of items(lhr, 'long-tasks')) console.log(`    ${r(t.startTime)}\t${r(t.duration)}\t${short(t.url)}`);
      console.log('  arranque JS (total, evaluación, parse+compilación ms):');
      for (const t of items(lhr, 'bootup-time'))
        console.log(`    ${r(t.total)}\t${r(t.scripting)}\t${r(t.scriptParseCompile)}\t${short(t.url)}`);
      console.log('  hilo principal por categoría (ms):');
      for (const t of items(lhr, 'mainthread-work-breakdown')) console.log(`    ${r(t.duration)}\t${t.groupLabel ?? t.group}`);
      const shifts = items(lhr, 'layout-shifts');
      if (shifts.length) {
        console.log('  desplazamientos de diseño:');
        for (const t of shifts)
          console.log(
            `    ${Number(t.score).toFixed(3)}\t${JSON.stringify((t.node as { snippet?: string } | undefined)?.snippet ?? '').slice(0, 160)}`,
          );
      }
      const lcpNode = JSON.stringify(lhr.audits['lcp-breakdown-insight']?.details ?? {}).match(/"snippet":"((?:[^"\\]|\\.)*)"/)?.[1];
      if (lcpNode) console.log(`  elemento LCP: ${lcpNode.slice(0, 200)}`);
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
