import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PLANTILLA_ENV, PLANTILLA_VIEJA_MS, podarPlantillas } from '../server/src/db/index.ts';
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

  it('a new template removes the folder’s templates of other migrations unchanged for an hour, and nothing else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cotizador-plantillas-'));
    try {
      const actual = join(dir, 'pglite-0.5.16-migraciones-4a1d3c0abd87751d.tar');
      const vieja = join(dir, 'pglite-0.5.15-migraciones-0123456789abcdef.tar');
      const reciente = join(dir, 'pglite-0.5.16-migraciones-fedcba9876543210.tar');
      const ajeno = join(dir, 'notas.txt');
      for (const f of [actual, vieja, reciente, ajeno]) writeFileSync(f, 'x');
      mkdirSync(join(dir, 'sub'));
      const haceDosHoras = (Date.now() - 2 * PLANTILLA_VIEJA_MS) / 1000;
      for (const f of [actual, vieja, ajeno]) utimesSync(f, haceDosHoras, haceDosHoras);
      podarPlantillas(dir, actual);
      expect(readdirSync(dir).sort()).toEqual([
        'notas.txt',
        'pglite-0.5.16-migraciones-4a1d3c0abd87751d.tar',
        'pglite-0.5.16-migraciones-fedcba9876543210.tar',
        'sub',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
