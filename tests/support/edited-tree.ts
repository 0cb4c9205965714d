/**
 * A worked example of docs/flow-format.md made real: a copy of the product's source tree with the example's JSON
 * edits applied (RFC 6902 patches per file, `null` deletes the file), built as the product is built
 * (flow check + precompiled validators, then Vite). Used by the Chromium tests that buy through each example.
 * Built once per test run for each distinct set of edits, across worker processes ({@link builtTree}): a Vite build is
 * most of such a test's time.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import jsonpatch, { type Operation } from 'fast-json-patch';
import type { ExpectedCall } from '../../tools/replay/fixture.ts';
import { whenInDir } from './when-in-dir.ts';

export const REPO = join(import.meta.dirname, '../..');
/** What the web build reads. */
const TREE = [
  'src',
  'tools',
  'flow',
  'schemas',
  'scripts',
  'config',
  'server/tariffs',
  'server/src/producto.ts',
  'index.html',
  'vite.config.ts',
  'tsconfig.json',
  'package.json',
  'public',
];

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
 * The Vite configuration of an edited tree's build: the product's own (./vite.config.ts of the tree) without the
 * .gz/.br copies of every file (vite-plugin-compression2), which take a large share of a build's CPU and which no
 * test of an edited tree reads: the API sends the plain file when none is beside it (server/src/plugins/static.ts).
 */
const CONFIG_SIN_COMPRIMIR = `import config from './vite.config.ts';
const plugins = [config.plugins ?? []].flat(Infinity);
if (!plugins.some((p) => p?.name === 'vite-plugin-compression')) throw new Error('vite.config.ts ya no usa vite-plugin-compression2: revisá tests/support/edited-tree.ts');
export default { ...config, plugins: plugins.filter((p) => p?.name !== 'vite-plugin-compression') };
`;

/**
 * Builds the edited tree as `npm run build` does, less the precompressed copies: the checker + validators
 * (`compile.ts`), then Vite into `dir/dist` (no prerendered pages either: the API answers `index.html` for every route).
 * Child processes, awaited: the calling test worker stays responsive meanwhile.
 * @throws Error with the tool's output when either step fails (e.g. the checker refuses the edited flow)
 */
export async function buildTree(dir: string): Promise<void> {
  writeFileSync(join(dir, 'vite.config.arbol.ts'), CONFIG_SIN_COMPRIMIR);
  for (const args of [
    ['tools/validators/compile.ts'],
    [join(REPO, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.config.arbol.ts', '--logLevel', 'error'],
  ]) {
    const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.once('close', (c) => resolve({ code: c, out }));
    });
    if (code !== 0) throw new Error(`${args.join(' ')} falló:\n${out}`);
  }
}

/**
 * Where this test run keeps its built trees: beside the e2e server's data folder (playwright.config.ts sets
 * `E2E_DATA_DIR` once for the run, its workers inherit it), else a folder of this process.
 */
export function treesDir(): string {
  return `${process.env.E2E_DATA_DIR ?? join(tmpdir(), `cotizador-${process.pid}`)}-arboles`;
}

const isBuilt = (root: string) => existsSync(join(root, 'dist/index.html'));

/**
 * The tree with `edits` applied and built ({@link writeEditedTree}, {@link buildTree}), once per test run, whichever
 * worker process asks first: a second test with the same edits (the same example in two specs) gets the same folder.
 * The first to ask holds `<key>.lock` (mkdir, atomic across processes) while it builds in a folder of its own, then
 * renames the build into place and drops the lock; one that asks meanwhile waits for that rename (or, when the
 * builder failed and dropped the lock, builds it itself and reports the failure in its own test). So a worker never
 * sees a half-built tree, and two workers never spend the CPU of the same build. Treat it as read-only: a test's
 * server needs its own DATA_DIR elsewhere. Waits with no ceiling of its own: the calling test's timeout is the ceiling.
 * @returns the tree's root (`<root>/dist` for STATIC_DIR, `loadReplayProduct(<root>)`, …)
 * @throws Error when a patch does not apply or the build fails
 */
export async function builtTree(edits: FlowEditExample['edits']): Promise<string> {
  const key = createHash('sha256').update(JSON.stringify(edits)).digest('hex').slice(0, 16);
  const dir = treesDir();
  const root = join(dir, key);
  const lock = `${root}.lock`;
  mkdirSync(dir, { recursive: true });
  for (;;) {
    if (isBuilt(root)) return root;
    try {
      mkdirSync(lock);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // another worker is building it: wait until it is in place or that worker gave up (then try again)
      await whenInDir(dir, () => isBuilt(root) || !existsSync(lock));
      continue;
    }
    const building = `${root}.${process.pid}`;
    try {
      if (isBuilt(root)) return root; // renamed into place between the check above and taking the lock
      writeEditedTree({ edits }, building);
      await buildTree(building);
      renameSync(building, root);
      return root;
    } finally {
      rmSync(building, { recursive: true, force: true });
      rmSync(lock, { recursive: true, force: true });
    }
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
