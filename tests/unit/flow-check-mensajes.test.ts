/** flow:check and the one message catalogue: a schema's `x-mensaje` must name a text of es.json; step schema `$id`s. */
import { describe, expect, it } from 'vitest';
import { checkProduct } from '../../tools/check/project.ts';
import { loadProduct } from '../../scripts/flow-check.ts';

const where = (f: ReturnType<typeof loadProduct>) =>
  checkProduct(f)
    .problems.filter((p) => p.severity !== 'warning')
    .map((p) => `${p.file}#${p.pointer}`);

describe('flow:check › x-mensaje keys and step schema ids', () => {
  it('the shipped product names only existing message keys', () => {
    expect(where(loadProduct('.'))).toEqual([]);
  });

  it('a misspelt x-mensaje key (string or per keyword) is an error naming file and pointer', () => {
    const f = loadProduct('.');
    (f.schemas.contacto.properties as Record<string, Record<string, unknown>>).areaCod['x-mensaje'] = 'validacion.areaCodd';
    (f.schemas.vigencia.properties as Record<string, Record<string, unknown>>).initPolicyDate['x-mensaje'] = {
      'x-diasDesdeHoy': 'validacion.nada',
    };
    expect(where(f)).toEqual([
      'schemas/contacto.schema.json#/properties/areaCod/x-mensaje',
      'schemas/vigencia.schema.json#/properties/initPolicyDate/x-mensaje/x-diasDesdeHoy',
    ]);
    expect(checkProduct(f).problems[0].message).toMatch(/"validacion.areaCodd", que no es un texto de src\/i18n\/es.json/);
  });

  it('a step schema may not name a server-only text (the browser, which shows the form, does not have it)', () => {
    const f = loadProduct('.');
    (f.schemas.contacto.properties as Record<string, Record<string, unknown>>).areaCod['x-mensaje'] = 'servidor.cotizacionComprada';
    expect(where(f)).toEqual(['schemas/contacto.schema.json#/properties/areaCod/x-mensaje']);
    expect(checkProduct(f).problems[0].message).toMatch(/solo lee el servidor/);
  });

  it('a step schema whose $id is not "<step>.schema.json" is an error (the API and the wire refer to it by that id)', () => {
    const f = loadProduct('.');
    f.schemas.metros.$id = 'metros';
    expect(where(f)).toEqual(['schemas/metros.schema.json#/$id']);
  });
});
