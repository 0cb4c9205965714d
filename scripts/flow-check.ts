/**
 * `npm run flow:check [-- --root DIR]`: checks the flow, the step and ui schemas, the texts and the widget
 * registry together (src/check/project.ts) and prints a summary table of the steps, then every problem as
 * `<file>#<pointer>: <what to change>`. Exit code 1 when there is an error (warnings do not fail).
 * `--root` checks another copy of the product (default: this repository). When the structure is sound it then walks
 * every path with the answers the step schemas allow against the API in memory (src/check/walk.ts, scripts/flow-walk.ts;
 * `--sin-recorrido` skips it, `--semilla N` or FLOW_SEED picks fast-check's seed).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FlowDef } from '../src/engine/core/types.ts';
import { checkProduct, summaryRows, type ProductFiles } from '../src/check/project.ts';
import { formatProblems } from '../src/engine/core/check-flow.ts';

/** Reads the product's editable files under `root`. @throws SyntaxError naming the file when one is not JSON */
export function loadProduct(root: string): ProductFiles {
  const read = (p: string) => {
    try {
      return JSON.parse(readFileSync(join(root, p), 'utf8'));
    } catch (error) {
      throw new Error(`${p}: no es JSON válido (${(error as Error).message})`);
    }
  };
  const schemas: ProductFiles['schemas'] = {};
  const ui: ProductFiles['ui'] = {};
  for (const f of readdirSync(join(root, 'schemas'))) {
    if (f.endsWith('.schema.json')) schemas[f.slice(0, -'.schema.json'.length)] = read(`schemas/${f}`);
    if (f.endsWith('.ui.json')) ui[f.slice(0, -'.ui.json'.length)] = read(`schemas/${f}`);
  }
  const wire: NonNullable<ProductFiles['wire']> = {};
  const wireDir = join(root, 'schemas/api');
  if (existsSync(wireDir)) for (const f of readdirSync(wireDir)) if (f.endsWith('.json')) wire[f] = read(`schemas/api/${f}`);
  const migrations: ProductFiles['migrations'] = {};
  const migrationsDir = join(root, 'flow/migrations');
  if (existsSync(migrationsDir)) for (const f of readdirSync(migrationsDir)) if (f.endsWith('.json')) migrations[f] = read(`flow/migrations/${f}`);
  const tariffs: ProductFiles['tariffs'] = {};
  if (existsSync(join(root, 'server/tariffs'))) for (const f of readdirSync(join(root, 'server/tariffs'))) if (f.endsWith('.json')) tariffs[`server/tariffs/${f}`] = read(`server/tariffs/${f}`);
  return {
    tariffs,
    migrations,
    wire,
    flow: read('flow/flow.json'),
    flowSchema: read('flow/flow.schema.json'),
    contract: existsSync(join(root, 'flow/contract.json')) ? read('flow/contract.json') : undefined,
    schemas,
    ui,
    texts: read('src/i18n/es.json'),
  };
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()).join('\n');
}

async function main() {
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
    // every path walked with the answers a visitor can give (src/check/walk.ts; --sin-recorrido skips it)
    if (report.flow && !process.argv.includes('--sin-api') && !process.argv.includes('--sin-recorrido') && !report.problems.some((p) => (p.severity ?? 'error') === 'error')) {
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
  console.log(`${errors.length ? 'flujo con errores' : 'flujo válido'}: ${report.flow?.steps.length ?? 0} pasos, ${errors.length} errores, ${warnings} avisos`);
  process.exit(errors.length ? 1 : 0);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) void main();
