/**
 * Prerender step of `npm run build`, after `vite build`, so that every step paints without JavaScript: builds
 * ./pages.tsx for Node (Vite SSR),
 * renders every step's route and writes its HTML into the client build — `dist/<route>/index.html` per step, the
 * entry step also as `dist/index.html` (the bare root) — with `#root[data-paso=<step>]` so the app hydrates it, and
 * `data-formulario` on a form step's page so the app fetches the form engine as it starts.
 * The unrendered page stays as `dist/shell.html` (what the server answers for any other path). The stylesheet is
 * inlined in every page (one request less before the first paint; the CSP allows inline styles), and in the
 * prerendered pages the app's module script gives way to public/arranque.js, inlined byte for byte (the server's CSP
 * allows it by its hash, server/src/plugins/security.ts), which fetches the app after the first paint (and replays a
 * tap made before the app is ready). The loader is handed the page's chunks (`data-precarga`, from Vite's manifest: the
 * app's start-up chunks, and on a form step the form engine and the step's schemas and validator) and preloads them
 * all at once as it fetches the app, instead of one import level after another (./start-up.ts), and the chunks of
 * the step(s) its button leads to (`data-al-tocar`: the form engine, the next step's schemas), which the loader
 * preloads when it keeps a tap made before the app is ready. It also checks that
 * exactly those start-up chunks carry V8's compile hint (vite.config.ts › compileHints, the same rule on the build's
 * chunk graph). Every HTML file gets .gz and .br beside it, like the assets (vite-plugin-compression2), for the
 * server's precompressed files. Why: docs/performance.md.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';
import { COMPILE_HINT, startUpFiles, startUpKeys, withStaticImports, type Manifest } from './start-up.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
/** The client build (vite.config.ts › build.outDir: `BUILD_DIR`, default dist/). */
const DIST = resolve(ROOT, process.env.BUILD_DIR ?? 'dist');
/** Vite's build manifest (`build.manifest` in vite.config.ts): read here, then removed from dist/ (nothing serves it). */
const MANIFEST = join(DIST, '.vite/manifest.json');

function write(file: string, html: string) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, html);
  writeFileSync(`${file}.gz`, gzipSync(html, { level: 9 }));
  writeFileSync(`${file}.br`, brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
}

// inside the repo so that the bundle's bare imports (react, react-dom/server…) resolve from node_modules
const out = join(ROOT, 'node_modules/.cache/prerender');
try {
  await build({
    root: ROOT,
    logLevel: 'warn',
    build: {
      ssr: 'scripts/prerender/pages.tsx',
      outDir: out,
      emptyOutDir: true,
      copyPublicDir: false,
      rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
    },
  });
  const { prerenderSteps } = (await import(pathToFileURL(join(out, 'prerender.mjs')).href)) as typeof import('./pages.tsx');
  const built = readFileSync(join(DIST, 'index.html'), 'utf8');
  if (!built.includes('<div id="root"></div>')) throw new Error('dist/index.html no tiene <div id="root"></div> (¿ya prerenderizado?)');
  const shell = built.replace(
    /<link rel="stylesheet"[^>]*href="\/(?:[^"]*\/)?(assets\/[^"]+\.css)"[^>]*>/g,
    (_, file: string) => `<style>${readFileSync(join(DIST, file), 'utf8').trim()}</style>`,
  );
  write(join(DIST, 'shell.html'), shell);
  const pages = await prerenderSteps();
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Manifest;
  const { entry, keys: startUp } = startUpKeys(manifest);
  const hinted = new Set(startUpFiles(manifest));
  for (const chunk of Object.values(manifest).filter((c) => c.file.endsWith('.js'))) {
    if (readFileSync(join(DIST, chunk.file), 'utf8').startsWith(COMPILE_HINT) !== hinted.has(chunk.file)) {
      throw new Error(
        `${chunk.file}: la pista de compilación de V8 tiene que estar en los trozos del arranque y solo en ellos (vite.config.ts › compileHints)`,
      );
    }
  }
  // the build's base (vite.config.ts › base: `/`, or `/hogar/` with BASE_PATH) as the app's module script shows it
  const module = /<script type="module" crossorigin src="((\/(?:[^"]*\/)?)assets\/[^"]+\.js)"><\/script>/.exec(shell);
  if (!module) throw new Error('dist/index.html no tiene el script del módulo de la app');
  const base = module[2];
  const entryFile = `${base}${manifest[entry].file}`;
  const painted = shell
    .replace(module[0], () => `<script data-app="${module[1]}">${readFileSync(join(DIST, 'arranque.js'), 'utf8')}</script>`)
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
  for (const page of pages) {
    // a source the build has no chunk for (a step without a ui schema, say) has nothing to preload
    const preload = withStaticImports(manifest, [...startUp, ...page.sources])
      .map((k) => `${base}${manifest[k].file}`)
      .filter((f) => f !== entryFile);
    const afterTap = withStaticImports(manifest, page.afterTap)
      .map((k) => `${base}${manifest[k].file}`)
      .filter((f) => f !== entryFile && !preload.includes(f));
    const html = painted
      .replace('<script data-app=', () => `<script data-precarga="${preload.join(' ')}" data-al-tocar="${afterTap.join(' ')}" data-app=`)
      .replace(
        '<div id="root"></div>',
        `<div id="root" data-paso="${page.stepId}"${page.form ? ' data-formulario' : ''}>${page.html}</div>`,
      );
    write(join(DIST, page.path, 'index.html'), html);
    if (page.entry) write(join(DIST, 'index.html'), html);
  }
  console.log(`prerenderizados ${pages.length} pasos en ${relative(ROOT, DIST) || '.'}/`);
} finally {
  rmSync(out, { recursive: true, force: true });
  rmSync(join(DIST, '.vite'), { recursive: true, force: true });
}
