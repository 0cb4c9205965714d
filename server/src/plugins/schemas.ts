/**
 * Wire schemas: every `schemas/api/*.json` (each with an `$id`) and every step schema `schemas/<step>.schema.json`
 * (`$id` "<step>.schema.json") is registered with `addSchema`, so routes refer to them as
 * `{ $ref: 'cotizacion.json#/$defs/CotizarBody' }`, wire fields reuse step fields as
 * `{ $ref: 'metros.schema.json#/properties/metros' }` (one rule, one message for web and API), and @fastify/swagger
 * publishes them. The folder is `SCHEMAS_DIR` (config.ts; default the repository's `schemas/`).
 *
 * Validation uses two Ajv instances (allErrors, verbose for the error messages, formats from ajv-formats, the
 * annotation keyword `x-mensaje` = es.json key of the field's Spanish message, the date keywords `x-edad` and
 * `x-diasDesdeHoy` of src/core/date-keywords.ts):
 * - bodies: strict — no type coercion, no removal of additional properties (a body with an unknown field is
 *   rejected where its schema says `additionalProperties: false`);
 * - querystring / params: type coercion on ("20" → 20), since URLs only carry text.
 * Every schema is hardened on load (plugins/input-guard.ts: NUL/surrogates, integer range, free-form JSON, masking).
 */
import { join } from 'node:path';
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { addInputGuardKeywords, hardenSchema } from './input-guard.ts';
import { DATE_KEYWORDS } from '../../../src/core/date-keywords.ts';
import { loadStepSchemas, loadWireSchemas } from '../producto.ts';

/** The repository's schema folder (`schemas/`: step schemas, and the wire schemas under `api/`). */
export const SCHEMAS_DIR = join(import.meta.dirname, '../../../schemas');

/**
 * Reads the step schemas (`<dir>/*.schema.json`) and the wire schemas (`<dir>/api/*.json`).
 * @param dir schema folder (default the repository's `schemas/`)
 * @returns hardened JSON Schemas, each with `$id`, step schemas first
 * @throws Error naming the file when a schema has no `$id`
 */
export function loadApiSchemas(dir: string = SCHEMAS_DIR): { $id: string }[] {
  const withId = (file: string, schema: { $id?: unknown }) => {
    if (typeof schema.$id !== 'string') throw new Error(`${file}: falta "$id"`);
    return hardenSchema(schema as { $id: string });
  };
  const steps = Object.entries(loadStepSchemas(dir).schemas).map(([id, s]) => withId(join(dir, `${id}.schema.json`), s));
  const wire = Object.entries(loadWireSchemas(dir)).map(([name, s]) => withId(join(dir, 'api', name), s));
  return [...steps, ...wire];
}

/** Ajv configured like the server's (for tests that check responses against their schemas). */
export function createAjv(options: Options = {}, dir: string = SCHEMAS_DIR): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    keywords: ['x-mensaje', ...DATE_KEYWORDS],
    ...options,
  });
  addFormats(ajv);
  addInputGuardKeywords(ajv);
  for (const schema of loadApiSchemas(dir)) ajv.addSchema(schema);
  return ajv;
}

/** Adds every step and wire schema of `opts.schemasDir` and installs the body / URL validator compilers. */
export default fp(async function schemasPlugin(app: FastifyInstance, opts: { schemasDir?: string }) {
  const dir = opts.schemasDir ?? SCHEMAS_DIR;
  for (const schema of loadApiSchemas(dir)) app.addSchema(schema);
  const bodyAjv = createAjv({ coerceTypes: false, removeAdditional: false, useDefaults: true }, dir);
  const urlAjv = createAjv({ coerceTypes: true, removeAdditional: false, useDefaults: true }, dir);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : urlAjv).compile(schema));
});
