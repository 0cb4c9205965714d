/**
 * Vite + Vitest configuration.
 * - Web app: React, served under `/` (routes live under `/seguro-hogar`); in dev `/api` is proxied
 *   to the reference API on :3000.
 * - Build: the browser's texts without the server-only areas of es.json; JS/CSS also as .gz and .br (the server sends those precompressed files); scripts/prerender/ then
 *   writes each step's HTML. Why each build setting serves the first paint: docs/performance.md.
 * - Tests: three Vitest projects — `web` (node; engine, checker, flow tools), `dom` (jsdom; components and form steps)
 *   and `server` (node; API, rating, validators), at least two files at a time overall, server files side by side with
 *   each other too (tests/README.md › How the suite is organised for speed).
 */
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import type { Plugin, Rollup } from 'vite';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { COMPILE_HINT, startUpFiles, type Manifest } from './scripts/prerender/start-up.ts';
import { AREAS_SOLO_SERVIDOR } from './src/core/messages.ts';
import { problemasDelFlujo } from './scripts/vite-vista-previa.ts';
import { NODE_DE_PRUEBA } from './tools/node-de-prueba.ts';

/** The browser's copy of src/i18n/es.json without the areas only the API server reads (fewer bytes on step 1). */
function textosWeb(): Plugin {
  return {
    name: 'textos-web',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('/src/i18n/es.json')) return null;
      const texts = JSON.parse(code) as Record<string, unknown>;
      for (const area of AREAS_SOLO_SERVIDOR) delete texts[area];
      return { code: JSON.stringify(texts), map: null };
    },
  };
}

/**
 * RJSF renders Markdown (markdown-to-jsx) only where a ui schema turns it on (`enableMarkdownInDescription`/`InHelp`,
 * which the project checker refuses: they are neither ui keys nor options it knows, tools/check/project.ts) and in its
 * boxes for a broken schema (which the checker refuses too). The build gives RJSF a `Markdown` that shows its text as
 * is instead (the form engine chunk every form step loads went from 95.3 to 63.8 KB gzip).
 */
function sinMarkdown(): Plugin {
  const virtual = '\0sin-markdown';
  return {
    name: 'sin-markdown',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source) => (source === 'markdown-to-jsx/react' ? virtual : null),
    load: (id) => (id === virtual ? 'export const Markdown = ({ children }) => children ?? null;' : null),
  };
}

/**
 * RJSF's utilities import fast-uri at the top of the form engine chunk, yet call it only for a schema with `$id` and a
 * `$ref`. Its module builds some twenty Unicode regular expressions as it is evaluated (8–10 ms of CPU when Node
 * requires it on this machine, some 30–40 ms at a phone's 4×). The build gives them a stand-in with the same two
 * methods that evaluates fast-uri at its first call (a `require` of a bundled CommonJS module is initialised where it
 * is called), so the visitor's first question does not wait for it.
 */
function fastUriAlUsarlo(): Plugin {
  const virtual = '\0fast-uri-al-usarlo';
  return {
    name: 'fast-uri-al-usarlo',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source, importer) => (source === 'fast-uri' && importer !== virtual ? virtual : null),
    load: (id) =>
      id === virtual
        ? [
            'let real;',
            "const uri = () => (real ??= require('fast-uri'));",
            'export default { equal: (a, b) => uri().equal(a, b), resolve: (base, ref) => uri().resolve(base, ref) };',
          ].join('\n')
        : null,
  };
}

/**
 * The chunks the app evaluates while it starts (scripts/prerender/start-up.ts: the entry and what src/boot/start.ts
 * imports, not the form engine (RJSF), the per-step schemas and validators, the testers' tools or the post-sale
 * screens), found in the build's chunk graph — the graph Vite's manifest records, by the rule the prerender's preload
 * list reads from that manifest — carry V8's explicit compile hint `//# allFunctionsCalledOnLoad` (Chrome 136+): their
 * functions compile eagerly, on a background thread while the file streams in, instead of lazily on the main thread at
 * their first call (the start-up tasks were mostly first calls). Added to the final, minified code (the minifier would
 * strip a comment), before the .gz/.br files are made; scripts/prerender/ checks the result against the manifest. Not
 * on the form engine chunk: compiling all of RJSF eagerly made form steps' start-up longer (bench:tareas on
 * propiedad and cotizacion, 10 loads each).
 */
function compileHints(): Plugin {
  let root = '';
  let ssr = false;
  return {
    name: 'pistas-de-compilacion',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      ssr = !!config.build.ssr;
    },
    generateBundle(_, bundle) {
      if (ssr) return;
      const graph: Manifest = {};
      for (const c of Object.values(bundle)) {
        if (c.type === 'chunk')
          graph[c.fileName] = {
            file: c.fileName,
            src: c.facadeModuleId ? relative(root, c.facadeModuleId) : undefined,
            isEntry: c.isEntry,
            imports: c.imports,
            dynamicImports: c.dynamicImports,
          };
      }
      for (const file of startUpFiles(graph)) {
        const chunk = bundle[file] as Rollup.OutputChunk;
        chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
      }
    },
  };
}

/**
 * The build's base from `BASE_PATH` (`/hogar`, `/hogar/` or `hogar`): `/hogar/`; `/` when unset or empty.
 * @throws Error for anything but path segments of letters, digits, `-`, `_` and `.`
 */
function basePath(value: string | undefined): string {
  const trimmed = (value ?? '').replace(/^\/+|\/+$/g, '');
  if (!trimmed) return '/';
  if (!/^[\w.-]+(\/[\w.-]+)*$/.test(trimmed)) throw new Error(`BASE_PATH: «${value}» no es una ruta como /hogar`);
  return `/${trimmed}/`;
}

export default defineConfig({
  plugins: [
    react(),
    textosWeb(),
    sinMarkdown(),
    fastUriAlUsarlo(),
    problemasDelFlujo(import.meta.dirname),
    compileHints(),
    compression({ include: /\.(js|css|svg|json)$/, algorithms: ['gzip', 'brotliCompress'], threshold: 512 }),
  ],
  // BASE_PATH=/hogar/ builds the app for a sub-path (src/app/base.ts; docs/operations.md › Sub-path); BUILD_DIR another output folder
  base: basePath(process.env.BASE_PATH),
  server: { proxy: { '/api': 'http://localhost:3000' } },
  // no modulepreload links from the entry: inserting them cost the entry's task ~17 ms on this machine (~70 ms at
  // 4× CPU); the phases of src/main.tsx already request their chunks in parallel, their imports follow one round trip later.
  // The manifest tells scripts/prerender/ each page's chunks, which the page's loader preloads at once instead.
  // One stylesheet, not split by chunk: scripts/prerender/ inlines it in every page, and with it split each lazy
  // chunk's import listed the entry's stylesheet as a dependency — on form steps the form chunk fetched it again as a
  // file and the page restyled in a ~30 ms task (~125 ms at 4×) while starting
  build: {
    outDir: process.env.BUILD_DIR ?? 'dist',
    manifest: true,
    sourcemap: false,
    cssCodeSplit: false,
    chunkSizeWarningLimit: 700,
    modulePreload: false,
  },
  test: {
    // at least two files at a time: Vitest's default (cores − 1) is one on a 2-core machine. Server files run side by side
    // too: each test file runs isolated (its own module graph and environment), its API servers listen on ports the system picks, its PostgreSQL
    // databases and temporary folders have names of their own, and in-memory PGlite databases start from a migrated
    // template (server/src/db/index.ts), so none shares anything with a file running beside it
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Timeouts are ceilings sized for a loaded 2-core machine (tests/README.md › Tests that hold on a busy machine): a
    // test is CPU work, not a wait on a clock, and at a load of ~25 a form test's ~0.5 s or a server test's fresh
    // in-memory database takes 10–20× longer. A hung test still fails, at the ceiling; waits inside tests end on events
    // (Testing Library's findBy…, startServer's address line, outputUntil).
    projects: [
      {
        // the engine, the checker and the flow tools: plain Node (no DOM to set up per file). A file that needs the
        // browser's globals (storage, window events) says so in its first line: `// @vitest-environment jsdom`.
        extends: true,
        test: {
          name: 'web',
          environment: 'node',
          include: ['{src,tests/unit}/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // components and form steps as a visitor uses them: jsdom + Testing Library
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['{src,tests/unit}/**/*.test.tsx'],
          setupFiles: ['tests/unit/setup.ts', 'tests/unit/setup-dom.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server',
          // tools/node-de-prueba.ts (PGlite's WebAssembly on V8's baseline compiler only), as the
          // API and CLI processes these tests start: six server files, 145 → 114 CPU-s
          execArgv: NODE_DE_PRUEBA,
          environment: 'node',
          include: ['server/**/*.test.ts', 'tools/**/*.test.ts'],
          setupFiles: ['server/test/setup.ts'],
          // a server test may start Node processes (the API, the CLI tools) one after another: with two busy loops
          // beside `npm test` (load ~19 on 2 cores) one took over 60 s, and one that walks every path over 120 s
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
