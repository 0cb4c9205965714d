/**
 * `npm run flow:check [-- --root DIR]`: checks the flow, the step and ui schemas, the texts and the widget
 * registry together (tools/check/project.ts) and prints a summary table of the steps, then every problem as
 * `<file>#<pointer>: <what to change>`. Exit code 1 when there is an error (warnings do not fail).
 * `--root` checks another copy of the product (default: this repository). When the structure is sound it then walks
 * every path with the answers the step schemas allow against the API in memory (tools/check/walk.ts, scripts/flow-walk.ts;
 * `--sin-recorrido` skips it, `--semilla N` or FLOW_SEED picks fast-check's seed).
 */
import { resolve } from 'node:path';
import type { FlowDef } from '../src/core/flow/types.ts';
import { checkProduct, summaryRows } from '../tools/check/project.ts';
import { loadProduct } from '../server/src/producto.ts';
import { formatProblems } from '../src/core/flow/check-flow.ts';
import { usarPlantillaDeHerramientas } from '../tools/plantilla.ts';

export { loadProduct } from '../server/src/producto.ts';

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

async function main() {
  usarPlantillaDeHerramientas();
  const i = process.argv.indexOf('--root');
  const root = resolve(i > 0 ? process.argv[i + 1] : '.');
  let report;
  try {
    const files = loadProduct(root);
    report = checkProduct(files);
    // the calls against the API's own request schemas (builds the API in memory; --sin-api skips it)
    if (report.flow && !process.argv.includes('--sin-api') && !report.problems.some((p) => (p.severity ?? 'error') === 'error')) {
      const { checkCallsAgainstApi } = await import('./check-calls.ts');
      report.problems.push(...(await checkCallsAgainstApi(root, files.flow as FlowDef, files.schemas)));
    }
    // every path walked with the answers a visitor can give (tools/check/walk.ts; --sin-recorrido skips it)
    if (
      report.flow &&
      !process.argv.includes('--sin-api') &&
      !process.argv.includes('--sin-recorrido') &&
      !report.problems.some((p) => (p.severity ?? 'error') === 'error')
    ) {
      const { walkProduct } = await import('./flow-walk.ts');
      report.problems.push(...(await walkProduct(root)).problems);
    }
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const errors = report.problems.filter((p) => (p.severity ?? 'error') === 'error');
  const warnings = report.problems.length - errors.length;
  if (report.flow) {
    console.log(table([['paso', 'ruta', 'flag', 'tipo', 'etapa', 'volver', 'llamadas'], ...summaryRows(report.flow)]));
    console.log('');
  }
  if (report.problems.length) console.log(formatProblems(report.problems));
  console.log(
    `${errors.length ? 'flujo con errores' : 'flujo válido'}: ${report.flow?.steps.length ?? 0} pasos, ${errors.length} errores, ${warnings} avisos`,
  );
  process.exit(errors.length ? 1 : 0);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) void main();
