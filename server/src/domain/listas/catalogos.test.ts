/** The flow's catalogues come from the step schemas' enums and es.json: an option a staffer adds is listed and described. */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buscarMensaje } from '../../../../src/core/messages.ts';
import { CATALOGOS_DEL_FLUJO, leerCatalogos } from './catalogos.ts';

const SCHEMAS = join(import.meta.dirname, '../../../../schemas');
const copia = mkdtempSync(join(tmpdir(), 'catalogos-'));
afterAll(() => rmSync(copia, { recursive: true, force: true }));

describe('catalogues of the flow', () => {
  it("the shipped lists: codes of the step schemas, the documents' wording of es.json › servidor.listas", () => {
    const c = leerCatalogos(SCHEMAS, buscarMensaje);
    expect(Object.keys(c).sort()).toEqual(Object.values(CATALOGOS_DEL_FLUJO).sort());
    expect(c.usoVivienda).toEqual([
      { codigo: 'PERMANENTE', descripcion: 'Vivo ahí todo el año' },
      { codigo: 'TEMPORAL', descripcion: 'Es de fin de semana o veraneo' },
    ]);
    expect(c.tipoVivienda.map((i) => i.descripcion)).toEqual(['Casa', 'Departamento', 'PH (propiedad horizontal)']);
    expect(c.genere.map((i) => i.codigo)).toEqual(['F', 'M', 'X']);
  });

  it('an option added to a step schema is listed, described by its form label until es.json › servidor.listas has one', () => {
    cpSync(SCHEMAS, copia, { recursive: true });
    const file = join(copia, 'permanencia.schema.json');
    const schema = JSON.parse(readFileSync(file, 'utf8'));
    schema.properties.usoVivienda.enum.push('ALQUILER_TEMPORARIO');
    writeFileSync(file, JSON.stringify(schema));
    const textos: Record<string, string> = { 'permanencia.fields.usoVivienda.options.ALQUILER_TEMPORARIO': 'La alquilo por temporada' };
    const texto = (k: string) => textos[k] ?? buscarMensaje(k);
    expect(leerCatalogos(copia, texto).usoVivienda.at(-1)).toEqual({
      codigo: 'ALQUILER_TEMPORARIO',
      descripcion: 'La alquilo por temporada',
    });
    textos['servidor.listas.usoVivienda.ALQUILER_TEMPORARIO'] = 'La alquila por temporada';
    expect(leerCatalogos(copia, texto).usoVivienda.at(-1)?.descripcion).toBe('La alquila por temporada');
  });

  it('a catalogue no step asks any more is an error naming the field', () => {
    const file = join(copia, 'datos-personales.schema.json');
    const schema = JSON.parse(readFileSync(file, 'utf8'));
    delete schema.properties.genere;
    writeFileSync(file, JSON.stringify(schema));
    expect(() => leerCatalogos(copia, buscarMensaje)).toThrow(/"genere"/);
  });
});
