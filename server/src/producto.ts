/**
 * The one reader of the product's editable files for every Node consumer: the API server (step and wire schemas,
 * the flow's resume route), the flow checker and the build (`npm run flow:check`, src/form/validators/compile.ts),
 * the replays, the scripts and the tests that check an edited copy. The browser gets the same files through Vite's
 * imports instead. Only `node:fs` and `node:path`: the Vite config's staff preview plugin (scripts/vite-vista-previa.ts)
 * imports it, so nothing of the API is bundled there.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { FlowDef } from '../../src/core/flow/types.ts';
import type { ProductFiles } from '../../src/core/product.ts';

type Json = Record<string, unknown>;

/** The repository's root: the product the server serves unless told otherwise (SCHEMAS_DIR, `--root`). */
export const REPO_ROOT = join(import.meta.dirname, '../..');

/** Parses `<base>/<file>`. @throws Error naming `file` (e.g. "schemas/metros.schema.json") when it is not JSON */
function readJson(base: string, file: string): Json {
  try {
    return JSON.parse(readFileSync(join(base, file), 'utf8')) as Json;
  } catch (error) {
    throw new Error(`${file}: no es JSON válido (${(error as Error).message})`, { cause: error });
  }
}

/** Every `<base>/<folder>/*<suffix>` parsed, by file name without the suffix, in file-name order; {} when the folder is missing. */
function readFolder(base: string, folder: string, suffix: string): Record<string, Json> {
  const out: Record<string, Json> = {};
  if (!existsSync(join(base, folder))) return out;
  for (const f of readdirSync(join(base, folder))
    .filter((n) => n.endsWith(suffix))
    .sort())
    out[f.slice(0, -suffix.length)] = readJson(base, join(folder, f));
  return out;
}

/**
 * The flow file as written, not yet checked (src/core/flow/check-flow.ts checks it; compileFlow compiles it).
 * @param root the product's root (default the repository's)
 * @throws Error naming flow/flow.json when it is not JSON
 */
export function loadFlowDef(root: string = REPO_ROOT): FlowDef {
  return readJson(root, 'flow/flow.json') as unknown as FlowDef;
}

/**
 * The step schemas and ui schemas of a schema folder.
 * @param schemasDir folder of `<step>.schema.json` and `<step>.ui.json` (the repository's `schemas/`, or SCHEMAS_DIR)
 * @returns both by step id, in file-name order
 */
export function loadStepSchemas(schemasDir: string): { schemas: Record<string, Json>; ui: Record<string, Json> } {
  const [base, folder] = [dirname(schemasDir), basename(schemasDir)];
  return { schemas: readFolder(base, folder, '.schema.json'), ui: readFolder(base, folder, '.ui.json') };
}

/**
 * The wire schemas, `<schemasDir>/api/*.json`, by file name (e.g. "cotizacion.json"), in file-name order.
 * @param schemasDir the schema folder (its `api/` subfolder holds the wire schemas)
 */
export function loadWireSchemas(schemasDir: string): Record<string, Json> {
  const byName = readFolder(dirname(schemasDir), join(basename(schemasDir), 'api'), '.json');
  return Object.fromEntries(Object.entries(byName).map(([name, schema]) => [`${name}.json`, schema]));
}

/**
 * Every editable file of the product under `root`, as the flow checker takes them (src/core/product.ts).
 * @param root the product's root (default the repository's; an edited copy in tests)
 * @throws Error naming the file when one is not JSON
 */
export function loadProduct(root: string = REPO_ROOT): ProductFiles {
  const schemasDir = join(root, 'schemas');
  const tariffs = Object.fromEntries(
    Object.entries(readFolder(root, 'server/tariffs', '.json')).map(([n, t]) => [`server/tariffs/${n}.json`, t]),
  );
  const migrations = Object.fromEntries(Object.entries(readFolder(root, 'flow/migrations', '.json')).map(([n, m]) => [`${n}.json`, m]));
  return {
    tariffs,
    migrations,
    wire: loadWireSchemas(schemasDir),
    flow: loadFlowDef(root),
    flowSchema: readJson(root, 'flow/flow.schema.json'),
    contract: existsSync(join(root, 'flow/contract.json'))
      ? (readJson(root, 'flow/contract.json') as unknown as ProductFiles['contract'])
      : undefined,
    ...loadStepSchemas(schemasDir),
    texts: readJson(root, 'src/i18n/es.json'),
  };
}
