/**
 * The flow walker for the product under `root` (tools/check/walk.ts): loads the flow, schemas and texts as the replay
 * does and walks every path against the API in memory. Used by `npm run flow:check` and `npm run flow:paths -- --write`.
 * Seed: `FLOW_SEED` (default 2026), so a run is reproducible; print with `--semilla N` on the command line of either.
 */
import { walkFlow, type WalkReport } from '../tools/check/walk.ts';
import { loadProduct } from '../server/src/producto.ts';
import { loadReplayProduct } from './replay.ts';

/** The seed of this run: `--semilla N`, else FLOW_SEED, else 2026. */
export function walkSeed(argv = process.argv): number {
  const i = argv.indexOf('--semilla');
  return Number(i >= 0 ? argv[i + 1] : (process.env.FLOW_SEED ?? 2026));
}

/** Walks the product at `root`; prints one line with the journeys, paths and time to stderr unless `quiet`. */
export async function walkProduct(root: string, { seed = walkSeed(), quiet = false } = {}): Promise<WalkReport> {
  const report = await walkFlow({ root, product: loadReplayProduct(root), texts: loadProduct(root).texts, seed });
  if (!quiet) {
    const reached = report.paths.filter((p) => p.reached).length;
    console.error(
      `recorrido: ${report.journeys} recorridos por ${report.paths.length} caminos (${reached} llegan al final), semilla ${seed}, ${(report.ms / 1000).toFixed(1)} s`,
    );
  }
  return report;
}
