import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { guardarPlantilla, PLANTILLA_ENV, PLANTILLA_VIEJA_MS } from '../server/src/db/index.ts';
import { PLANTILLA_HERRAMIENTAS, usarPlantillaDeHerramientas } from './plantilla.ts';

describe('the tools’ migrated template (tools/plantilla.ts)', () => {
  const antes = process.env[PLANTILLA_ENV];
  afterEach(() => {
    process.env[PLANTILLA_ENV] = antes;
  });

  it('is kept in this checkout’s node_modules/.cache unless a folder is already named', () => {
    delete process.env[PLANTILLA_ENV];
    expect(usarPlantillaDeHerramientas()).toBe(PLANTILLA_HERRAMIENTAS);
    expect(PLANTILLA_HERRAMIENTAS).toMatch(/\/node_modules\/\.cache\/cotizador-hogar\/pglite$/);
    expect(process.env[PLANTILLA_ENV]).toBe(PLANTILLA_HERRAMIENTAS);
    process.env[PLANTILLA_ENV] = '/tmp/otra-carpeta';
    expect(usarPlantillaDeHerramientas()).toBe('/tmp/otra-carpeta');
  });

  it('a new template is written, and removes the folder’s templates of other migrations made over an hour ago, nothing else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cotizador-plantillas-'));
    try {
      const actual = join(dir, 'pglite-0.5.16-migraciones-4a1d3c0abd87751d.tar');
      const vieja = join(dir, 'pglite-0.5.15-migraciones-0123456789abcdef.tar');
      const reciente = join(dir, 'pglite-0.5.16-migraciones-fedcba9876543210.tar');
      const ajeno = join(dir, 'notas.txt');
      for (const f of [vieja, reciente, ajeno]) writeFileSync(f, 'x');
      mkdirSync(join(dir, 'sub'));
      const haceDosHoras = (Date.now() - 2 * PLANTILLA_VIEJA_MS) / 1000;
      for (const f of [vieja, ajeno]) utimesSync(f, haceDosHoras, haceDosHoras);
      await guardarPlantilla(dir, actual, new Blob(['la plantilla']));
      expect(readdirSync(dir).sort()).toEqual([
        'notas.txt',
        'pglite-0.5.16-migraciones-4a1d3c0abd87751d.tar',
        'pglite-0.5.16-migraciones-fedcba9876543210.tar',
        'sub',
      ]);
      expect(readFileSync(actual, 'utf8')).toBe('la plantilla');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a folder that cannot be written leaves the template uncached, without an error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cotizador-plantillas-'));
    try {
      // a path under a regular file: no process can make that folder, root included (who ignores permission bits)
      writeFileSync(join(dir, 'archivo'), 'x');
      const carpeta = join(dir, 'archivo', 'pglite');
      await expect(
        guardarPlantilla(carpeta, join(carpeta, 'pglite-0.5.16-migraciones-4a1d3c0abd87751d.tar'), new Blob(['x'])),
      ).resolves.toBeUndefined();
      expect(readdirSync(dir)).toEqual(['archivo']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
