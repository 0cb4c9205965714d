/**
 * A worked example of docs/flow-format.md made real: a copy of the product's source tree with the example's JSON
 * edits applied (RFC 6902 patches per file, `null` deletes the file), built as the product is built
 * (flow check + precompiled validators, then Vite). Used by the Chromium test that buys through each example.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import jsonpatch, { type Operation } from 'fast-json-patch';
import type { ExpectedCall } from '../../tools/replay/fixture.ts';

export const REPO = join(import.meta.dirname, '../..');
/** What the web build reads. */
const TREE = ['src', 'tools', 'flow', 'schemas', 'scripts', 'config', 'server/tariffs', 'server/src/producto.ts', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package.json', 'public'];

export interface FlowEditExample {
  description: string;
  /** The step ids a visitor goes through on the edited flow (tests/e2e/drive.ts answers), landing to thank-you. */
  recorrido?: string[];
  /** API calls the edited flow must make on the way (method, path under /api, a subset of the body). */
  llamadas?: ExpectedCall[];
  edits: Record<string, Operation[] | null>;
}

export function readExample(file: string): FlowEditExample {
  return JSON.parse(readFileSync(file, 'utf8')) as FlowEditExample;
}

/**
 * Copies the tree to `dir` (replacing it) and applies `example.edits` there, JSON only.
 * @throws Error when a patch does not apply (fast-json-patch's message names the operation)
 */
export function writeEditedTree(example: Pick<FlowEditExample, 'edits'>, dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const entry of TREE) {
    if (!existsSync(join(REPO, entry))) continue;
    cpSync(join(REPO, entry), join(dir, entry), { recursive: true, filter: (src) => !src.includes('/generated') });
  }
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  for (const [file, ops] of Object.entries(example.edits)) {
    const path = join(dir, file);
    if (ops === null) {
      rmSync(path, { force: true });
      continue;
    }
    const doc = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(jsonpatch.applyPatch(doc, ops, true, false).newDocument, null, 2) + '\n');
  }
}

/**
 * Builds the edited tree as `npm run build` does: the checker + validators (`compile.ts`), then Vite into `dir/dist`.
 * @throws Error with the tool's output when either step fails (e.g. the checker refuses the edited flow)
 */
export function buildTree(dir: string): void {
  for (const args of [['tools/validators/compile.ts'], [join(REPO, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error']]) {
    const run = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`${args.join(' ')} falló:\n${run.stdout}\n${run.stderr}`);
  }
}

/**
 * A throw-away copy of the tree with `edits` applied (see {@link writeEditedTree}).
 * @returns its root: `<root>/schemas` for SCHEMAS_DIR, `<root>/server/tariffs/2026-11.json` for TARIFF_FILE,
 *   `--root <root>` for flow:check, `loadProduct(<root>)` for the checker in a test
 */
export function editedCopy(edits: FlowEditExample['edits']): string {
  const root = mkdtempSync(join(tmpdir(), 'cotizador-editado-'));
  writeEditedTree({ edits }, root);
  return root;
}
