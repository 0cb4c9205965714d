/**
 * The rule for the chunks a page evaluates as the app starts (scripts/prerender/start-up.ts): what the prerendered
 * pages preload and what carries V8's compile hint. A manifest shaped as Vite writes it.
 */
import { describe, expect, it } from 'vitest';
import { FORM_ENGINE, startUpFiles, startUpKeys, withStaticImports, type Manifest } from '../../scripts/prerender/start-up.ts';

const manifest: Manifest = {
  'index.html': {
    file: 'assets/index-a.js',
    src: 'index.html',
    isEntry: true,
    imports: ['_shared-b.js'],
    dynamicImports: ['src/boot/boot-ui.tsx', FORM_ENGINE, 'src/recorder/recorder.tsx', 'src/boot/boot-engine.ts'],
  },
  '_shared-b.js': { file: 'assets/shared-b.js' },
  'src/boot/boot-ui.tsx': {
    file: 'assets/boot-ui-c.js',
    src: 'src/boot/boot-ui.tsx',
    imports: ['_react-d.js', 'index.html'],
    dynamicImports: ['src/screens/legal/LegalScreen.tsx'],
  },
  '_react-d.js': { file: 'assets/react-d.js', imports: ['_shared-b.js'] },
  'src/boot/boot-engine.ts': {
    file: 'assets/boot-engine-e.js',
    src: 'src/boot/boot-engine.ts',
    dynamicImports: ['src/engine/proof-of-work/proof-of-work.ts'],
  },
  [FORM_ENGINE]: { file: 'assets/StepForm-f.js', src: FORM_ENGINE, imports: ['_rjsf-g.js'] },
  '_rjsf-g.js': { file: 'assets/rjsf-g.js' },
  'src/recorder/recorder.tsx': { file: 'assets/recorder-h.js', src: 'src/recorder/recorder.tsx' },
  'src/screens/legal/LegalScreen.tsx': { file: 'assets/LegalScreen-i.js', src: 'src/screens/legal/LegalScreen.tsx' },
  'src/engine/proof-of-work/proof-of-work.ts': { file: 'assets/proof-of-work-j.js', src: 'src/engine/proof-of-work/proof-of-work.ts' },
};

describe('los trozos del arranque', () => {
  it('son la entrada y lo que ella importa al arrancar, sin el motor de formularios ni las herramientas de testers', () => {
    expect(startUpKeys(manifest)).toEqual({ entry: 'index.html', keys: ['index.html', 'src/boot/boot-ui.tsx', 'src/boot/boot-engine.ts'] });
  });

  it('suman lo que importan estáticamente, y no lo que cargan más tarde (pantallas legales, prueba de trabajo)', () => {
    expect(startUpFiles(manifest).sort()).toEqual([
      'assets/boot-engine-e.js',
      'assets/boot-ui-c.js',
      'assets/index-a.js',
      'assets/react-d.js',
      'assets/shared-b.js',
    ]);
  });

  it('un paso con formulario suma el motor de formularios y lo que él importa, una vez cada uno', () => {
    expect(withStaticImports(manifest, ['index.html', FORM_ENGINE, FORM_ENGINE, 'schemas/no-existe.json'])).toEqual([
      'index.html',
      '_shared-b.js',
      FORM_ENGINE,
      '_rjsf-g.js',
    ]);
  });

  it('un manifiesto sin entrada es un error', () => {
    expect(() => startUpKeys({ a: { file: 'assets/a.js' } })).toThrow('el manifiesto de Vite no tiene el módulo de entrada');
  });
});
