/**
 * Import cycles, checked by `npm run lint` after oxlint. oxlint's `import/no-cycle` (.oxlintrc.json) sees static and
 * type-only imports but not `import()`: a lazy cycle (a chunk that imports back the module that loads it) passes it.
 * dependency-cruiser follows all three. It parses with swc (`@swc/core`): its own TypeScript parser needs the
 * `typescript` package's JS API, which TypeScript 7 (the compiler this project type-checks with) no longer has. With
 * swc, `import type` counts as a dependency as it is, so no `tsPreCompilationDeps` (that option asks for tsc).
 * @type {import('dependency-cruiser').IConfiguration}
 */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Una importación circular (también por import() o import type): mové lo que comparten a un módulo que ambos importen.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    parser: 'swc',
    doNotFollow: { path: 'node_modules' },
    // built or generated, as in oxlint's and prettier's ignore lists: the validators compile.ts writes import only
    // src/core modules and nothing imports them but through import.meta.glob (not followed), so no cycle goes through
    // them; and a build rewrites them while `npm test` lints (scripts/test-both.sh)
    exclude: { path: '^(dist|reports|bench-results|src/form/validators/generated)/' },
  },
};
