/**
 * The tariff rates every value the step schemas accept, and per-field texts type no number
 * of their own — checked by flow:check on an in-memory copy of the shipped files (JSON edits only).
 */
import { describe, expect, it } from 'vitest';
import { checkProduct, type ProductFiles } from '../../tools/check/project.ts';
import { fieldBounds, fillBounds } from '../../src/core/bounds.ts';
import { loadProduct } from '../../scripts/flow-check.ts';

const shipped = loadProduct('.');
const TARIFA = 'server/tariffs/2026-11.json';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const copy = () => structuredClone(shipped) as ProductFiles & { schemas: Json; texts: Json; tariffs: Record<string, Json> };
const problems = (f: ProductFiles) =>
  checkProduct(f).problems.map((p) => `${p.severity === 'warning' ? 'aviso ' : ''}${p.file}#${p.pointer}: ${p.message}`);

describe('tariff against the step schemas', () => {
  it('the shipped tariff is read by flow:check and covers the form', () => {
    expect(Object.keys(shipped.tariffs ?? {})).toEqual([TARIFA]);
    expect(checkProduct(shipped).problems).toEqual([]);
  });

  it('m² maximum raised to 1500 without a band: an error naming both files and pointers', () => {
    const f = copy();
    f.schemas.metros.properties.metros.maximum = 1500;
    expect(problems(f)).toEqual([
      'schemas/metros.schema.json#/properties/metros/maximum: el formulario acepta hasta 1500 m² y la tarifa tasa hasta 1000 ' +
        `(${TARIFA}#/superficie/bandas/5/hasta): agregá una banda hasta 1500 o bajá el máximo`,
    ]);
    f.tariffs[TARIFA].superficie.bandas.push({ codigo: 'M1500', desde: 1001, hasta: 1500, descripcion: 'De 1001 a 1500 m²' });
    expect(problems(f)).toEqual([]);
  });

  it('a gap between bands, a band no answer reaches and a min/max written in the tariff', () => {
    const f = copy();
    f.tariffs[TARIFA].superficie.bandas[1].desde = 60;
    f.tariffs[TARIFA].superficie.bandas.push({ codigo: 'M2000', desde: 1001, hasta: 2000, descripcion: 'x' });
    f.tariffs[TARIFA].superficie.max = 2000;
    expect(problems(f)).toEqual([
      `${TARIFA}#/superficie/max: "superficie.max" repite un límite: sale de las bandas (y el límite del formulario es el de schemas/metros.schema.json); borralo`,
      `${TARIFA}#/superficie/bandas/1/desde: ninguna banda tasa de 51 a 59 m², que schemas/metros.schema.json#/properties/metros acepta: hacé empezar esta banda en 51`,
      `aviso ${TARIFA}#/superficie/bandas/6: ninguna respuesta llega a esta banda (1001–2000 m²): schemas/metros.schema.json#/properties/metros acepta de 20 a 1000; borrala o cambiá los límites del schema`,
    ]);
  });

  it('a property type offered but not priced (error, in both tables), and a tariff value no answer reaches (warning)', () => {
    const f = copy();
    f.schemas.propiedad.properties.tipoVivienda.enum.push('QUINTA');
    f.texts.propiedad.fields.tipoVivienda.options = { ...f.texts.propiedad.fields.tipoVivienda.options, QUINTA: 'Quinta' };
    f.tariffs[TARIFA].factores[1].valores.COMERCIAL = { factor: 2 };
    expect(problems(f)).toEqual([
      `schemas/propiedad.schema.json#/properties/tipoVivienda/enum/3: el formulario ofrece "QUINTA" y la tarifa no lo tasa (${TARIFA}#/tiposVivienda): agregá "QUINTA" ahí o sacalo del enum`,
      `schemas/propiedad.schema.json#/properties/tipoVivienda/enum/3: el formulario ofrece "QUINTA" y la tarifa no lo tasa (${TARIFA}#/factores/0/valores): agregá "QUINTA" ahí o sacalo del enum`,
      `aviso ${TARIFA}#/factores/1/valores/COMERCIAL: ninguna respuesta llega a "COMERCIAL": schemas/permanencia.schema.json#/properties/usoVivienda/enum no lo ofrece; borralo o agregalo al enum`,
    ]);
  });
});

describe('numbers in per-field texts', () => {
  it('"Entre 20 y 1000 m²" with the schema at 1500: an error naming the schema; a bound typed twice: a warning', () => {
    const f = copy();
    f.schemas.metros.properties.metros.maximum = 1500;
    f.tariffs[TARIFA].superficie.bandas[5].hasta = 1500;
    f.texts.metros.fields.metros.help = 'Entre 20 y 1000 m².';
    expect(problems(f)).toEqual([
      'aviso src/i18n/es.json#/metros/fields/metros/help: el texto repite el minimum de schemas/metros.schema.json#/properties/metros (20): escribí {{min}} para que siga al schema',
      'src/i18n/es.json#/metros/fields/metros/help: el texto dice 1000 y schemas/metros.schema.json#/properties/metros no tiene ese límite (minimum 20, maximum 1500): escribí {{min}}/{{max}} (o {{desde}}/{{hasta}} para fechas) en lugar del número',
    ]);
  });
});

describe('placeholders from the schema (src/core/bounds.ts)', () => {
  it('fills min/max for numbers, lengths, exclusive bounds, ages and day windows (with their dates)', () => {
    expect(fieldBounds({ minimum: 20, maximum: 1500 })).toEqual({ min: 20, max: 1500 });
    expect(fieldBounds({ exclusiveMinimum: 0, exclusiveMaximum: 100 })).toEqual({ min: 0, max: 100 });
    expect(fieldBounds({ minLength: 2, maxLength: 60 })).toEqual({ min: 2, max: 60 });
    expect(fieldBounds({ 'x-diasDesdeHoy': { min: 1, max: 60 } }, '2026-11-25')).toEqual({
      min: 1,
      max: 60,
      desde: '26/11/2026',
      hasta: '24/01/2027',
    });
    expect(fieldBounds({ 'x-edad': { min: 21, max: 99 } }, '2026-11-25')).toEqual({
      min: 21,
      max: 99,
      desde: '26/11/1926',
      hasta: '25/11/2005',
    });
    expect(fillBounds('Entre {{min}} y {{max}} m² ({{otro}})', { min: 10, max: 1000 })).toBe('Entre 10 y 1000 m² ({{otro}})');
  });
});
