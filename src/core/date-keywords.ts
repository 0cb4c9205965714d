/**
 * Ajv definitions of the step schemas' date keywords (`x-edad`, `x-diasDesdeHoy`; rules in ./dates.ts), shared by
 * the web's precompiled validators (tools/validators/compile.ts) and the API server's Ajv (server/src/plugins/schemas.ts).
 *
 * They are code-generating keywords, so ajv's standalone output can carry them: the generated module calls
 * `<FECHAS_MODULO>.cumpleEdad(...)`, and compile.ts prepends `import * as <FECHAS_MODULO> from '../../dates.ts'`.
 * A failing keyword reports `params` = its `{ min, max }`; the message is the field's `x-mensaje` key in es.json.
 */
import { _, Name, type KeywordCxt, type KeywordDefinition } from 'ajv';
import { cumpleDiasDesdeHoy, cumpleEdad } from './dates.ts';

/** Identifier the generated validators use for ./dates.ts. */
export const FECHAS_MODULO = 'fechasHoy';

const rango = {
  type: 'object',
  additionalProperties: false,
  properties: { min: { type: 'integer' }, max: { type: 'integer' } },
};

function keyword(
  name: string,
  fnName: 'cumpleEdad' | 'cumpleDiasDesdeHoy',
  fn: (fecha: string, r: { min?: number; max?: number }) => boolean,
): KeywordDefinition {
  return {
    keyword: name,
    type: 'string',
    schemaType: 'object',
    metaSchema: rango,
    code(cxt: KeywordCxt) {
      const f = cxt.gen.scopeValue('func', { ref: fn, code: _`${new Name(FECHAS_MODULO)}.${new Name(fnName)}` });
      cxt.fail(_`!${f}(${cxt.data}, ${cxt.schemaValue})`);
    },
    error: {
      message: `no cumple ${name}`,
      params: ({ schemaValue }) => _`${schemaValue}`,
    },
  };
}

/** `x-edad` and `x-diasDesdeHoy`, for `new Ajv({ keywords: DATE_KEYWORDS })` or `ajv.addKeyword`. */
export const DATE_KEYWORDS: KeywordDefinition[] = [
  keyword('x-edad', 'cumpleEdad', cumpleEdad),
  keyword('x-diasDesdeHoy', 'cumpleDiasDesdeHoy', cumpleDiasDesdeHoy),
];
