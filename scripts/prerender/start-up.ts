/**
 * Which chunks a page evaluates as the app starts, read from Vite's manifest (or the build's chunk graph in the same
 * shape): the entry, the chunks it imports at start-up (src/boot/start.ts) — all its dynamic imports but the form
 * engine (fetched by a form step's page, or on the first interaction) and the testers' tools (only with ?grabar=1) —
 * and everything those import statically. One rule for two uses: the prerendered pages' preload list (./index.ts)
 * and V8's compile hint on those chunks (vite.config.ts › compileHints). Why: docs/performance.md.
 */

/** V8's explicit compile hint (https://v8.dev/blog/explicit-compile-hints), first line of every start-up chunk. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/** A chunk as Vite's manifest lists it (keys of other chunks in `imports`/`dynamicImports`). */
export interface ManifestChunk {
  file: string;
  /** The source file the chunk is for (a chunk shared by several has none). */
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
/** Vite's build manifest (`build.manifest`): chunk key (a source path, or `_<file>` for a shared chunk) → chunk. */
export type Manifest = Record<string, ManifestChunk>;

/** The form engine's source (src/form/load.ts imports it): not every page's start-up. */
export const FORM_ENGINE = 'src/form/StepForm.tsx';

/** A dynamic import of the entry left out of the start-up: the form engine, the testers' tools. */
const notAtStartUp = (source: string) => source === FORM_ENGINE || /(^|\/)recorder\//.test(source);

/**
 * The entry's key and the keys it imports at start-up (itself included).
 * @throws Error when the manifest has no entry
 */
export function startUpKeys(manifest: Manifest): { entry: string; keys: string[] } {
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entry) throw new Error('el manifiesto de Vite no tiene el módulo de entrada');
  return { entry, keys: [entry, ...(manifest[entry].dynamicImports ?? []).filter((k) => !notAtStartUp(manifest[k]?.src ?? k))] };
}

/** `keys` and the keys of every chunk they import statically, transitively (keys the manifest lacks are skipped). */
export function withStaticImports(manifest: Manifest, keys: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const k of manifest[key].imports ?? []) visit(k);
  };
  keys.forEach(visit);
  return [...seen];
}

/** The files of every chunk a page evaluates as the app starts (no form step's own chunks). */
export const startUpFiles = (manifest: Manifest): string[] =>
  withStaticImports(manifest, startUpKeys(manifest).keys).map((k) => manifest[k].file);
