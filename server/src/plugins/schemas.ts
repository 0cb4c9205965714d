/**
 * Wire schemas: every `schemas/api/*.json` (each with an `$id`) is registered with `addSchema`, so routes refer to
 * them as `{ $ref: 'cotizacion.json#/$defs/CotizarBody' }` and @fastify/swagger publishes them.
 *
 * Validation uses two Ajv instances (allErrors, verbose for the error messages, formats from ajv-formats, the
 * annotation keyword `x-mensaje` = Spanish message for the field):
 * - bodies: strict — no type coercion, no removal of additional properties (a body with an unknown field is
 *   rejected where its schema says `additionalProperties: false`);
 * - querystring / params: type coercion on ("20" → 20), since URLs only carry text.
 * Every schema is hardened on load (plugins/input-guard.ts: NUL/surrogates, integer range, free-form JSON, masking).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { addInputGuardKeywords, hardenSchema } from './input-guard.ts';

/** Folder of the wire schemas (repo `schemas/api`). */
export const API_SCHEMAS_DIR = join(import.meta.dirname, '../../../schemas/api');

/** Reads every wire schema. @returns parsed JSON Schemas, each with `$id` */
export function loadApiSchemas(dir: string = API_SCHEMAS_DIR): { $id: string }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => hardenSchema(JSON.parse(readFileSync(join(dir, f), 'utf8')) as { $id: string }));
}

/** Ajv configured like the server's (for tests that check responses against their schemas). */
export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true, keywords: ['x-mensaje'], ...options });
  addFormats(ajv);
  addInputGuardKeywords(ajv);
  for (const schema of loadApiSchemas()) ajv.addSchema(schema);
  return ajv;
}

/** Adds every wire schema and installs the body / URL validator compilers. */
export default fp(async function schemasPlugin(app: FastifyInstance) {
  for (const schema of loadApiSchemas()) app.addSchema(schema);
  const bodyAjv = createAjv({ coerceTypes: false, removeAdditional: false, useDefaults: true });
  const urlAjv = createAjv({ coerceTypes: true, removeAdditional: false, useDefaults: true });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : urlAjv).compile(schema));
});
