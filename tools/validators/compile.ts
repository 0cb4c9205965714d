/**
 * Build step (run by `npm run build`, `dev` and `test:unit` under Node 24):
 * 1. runs the product checker (`npm run flow:check`: flow, step and ui schemas, texts, widgets) —
 *    an invalid flow stops the build with the file, the JSON pointer and what to change;
 * 2. compiles each `schemas/<step>.schema.json` into a precompiled ajv validator module
 *    (`src/form/validators/generated/<step>.js`, ESM) so the browser never ships ajv's compiler
 *    and a strict CSP needs no `unsafe-eval` (RJSF `compileSchemaValidatorsCode`).
 */
import { writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import createAjvInstance from '@rjsf/validator-ajv8/lib/createAjvInstance.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { schemaParser, type RJSFSchema } from '@rjsf/utils';
import { errorsOnly, formatProblems } from '../../src/core/flow/check-flow.ts';
import type { FlowDef } from '../../src/core/flow/types.ts';
import { conditionSchema } from '../../src/core/flow/conditions.ts';
import { CONDITIONS_MODULE } from '../../src/form/validators/names.ts';
import { checkProduct } from '../check/project.ts';
import { loadProduct } from '../../server/src/producto.ts';
import { DATE_KEYWORDS, FECHAS_MODULO } from '../../src/core/date-keywords.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * ESM source of the precompiled validators of one form schema: what RJSF's
 * `compileSchemaValidatorsCode` does, but with explicit export names (ajv's ESM output rejects
 * RJSF's hashed schema ids as identifiers) and a default export `{ [schemaId]: validateFn }` —
 * the `validateFns` map `createPrecompiledValidator` expects. The date keywords (`x-edad`, `x-diasDesdeHoy`) run
 * src/core/dates.ts — the same code the API runs — imported at the top of the module.
 */
export function precompile(schema: RJSFSchema): string {
  const maps = schemaParser(schema);
  const ajv = createAjvInstance(undefined, undefined, {
    code: { source: true, esm: true, lines: false },
    schemas: Object.values(maps),
    keywords: DATE_KEYWORDS,
  });
  const names = Object.fromEntries(Object.keys(maps).map((id, i) => [`v${i}`, id]));
  const code = standaloneCode(ajv, names);
  const table = Object.entries(names)
    .map(([name, id]) => `${JSON.stringify(id)}: ${name}`)
    .join(', ');
  const imports = code.includes(`${FECHAS_MODULO}.`) ? `import * as ${FECHAS_MODULO} from '../../../core/dates.ts';\n` : '';
  return `${imports}${code}\nexport default { ${table} };\n`;
}

/**
 * ESM source of the flow's named conditions precompiled (core/conditions.ts): `export default { [name]: test }`,
 * each test `(ctx) => boolean` validating the whole context against the condition's schema.
 */
export function precompileConditions(conditions: FlowDef['conditions']): string {
  const entries = Object.entries(conditions ?? {});
  const ajv = new Ajv({ strict: false, code: { source: true, esm: true, lines: false } });
  entries.forEach(([, cond], i) => ajv.addSchema(conditionSchema(cond), `c${i}`));
  const names = Object.fromEntries(entries.map((_, i) => [`c${i}`, `c${i}`]));
  const code = entries.length ? standaloneCode(ajv, names) : '';
  const table = entries.map(([name], i) => `${JSON.stringify(name)}: (ctx) => c${i}(ctx) === true`).join(', ');
  return `${code}\nexport default { ${table} };\n`;
}

function main() {
  const product = loadProduct(root);
  const flow = product.flow as FlowDef;
  const report = checkProduct(product);
  if (report.problems.length) console.error(formatProblems(report.problems));
  const errors = errorsOnly(report.problems);
  if (errors.length) {
    console.error(`El flujo no es válido (${errors.length} problema/s). Detalle: npm run flow:check`);
    process.exit(1);
  }
  const outDir = join(root, 'src/form/validators/generated');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  let count = 0;
  for (const step of flow.steps) {
    const file = `${step.id}.schema.json`;
    const schema = product.schemas[step.id];
    if (!schema) {
      if (step.kind === 'form') {
        console.error(`Falta schemas/${file} para el paso de formulario "${step.id}" (flow/flow.json).`);
        process.exit(1);
      }
      continue;
    }
    writeFileSync(join(outDir, `${step.id}.js`), precompile(schema));
    count++;
  }
  // standalone forms (flow › forms, e.g. after-sale): their schemas are validated in the browser as a step's are
  for (const id of new Set(Object.values(flow.forms ?? {}).map((f) => f.schema))) {
    writeFileSync(join(outDir, `${id}.js`), precompile(product.schemas[id] as RJSFSchema));
    count++;
  }
  writeFileSync(join(outDir, `${CONDITIONS_MODULE}.js`), precompileConditions(flow.conditions));
  console.log(`flujo válido (v${flow.version}, ${flow.steps.length} pasos); ${count} validadores precompilados`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
