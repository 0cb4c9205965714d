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
 *
 * A route's validators and response serializers are compiled at the route's first request, not as the app starts
 * ({@link validadorAlUsarlo}, {@link serializadoresAlUsarlos}): compiling every route's Ajv validators and
 * fast-json-stringify serializers was ~0.6 s of CPU of every start (~40% of an in-memory app's build), for routes a
 * start-up check, a test or a short-lived instance may never call. The schemas themselves are still all added (and
 * checked against the meta-schema) at start; a broken `$ref` shows at the route's first request, and
 * server/test/flow-edits-api.test.ts resolves every `$ref` of the wire schemas.
 */
import { join } from 'node:path';
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { FastifyValidationResult } from 'fastify/types/schema.js';
import { SerializerSelector, type SerializerFactory, type Serializer } from '@fastify/fast-json-stringify-compiler';
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
  app.setValidatorCompiler(({ schema, httpPart }) => validadorAlUsarlo(() => (httpPart === 'body' ? bodyAjv : urlAjv).compile(schema)));
});

/** An Ajv validate function: true when `data` is valid, else false with `errors` set (what Fastify reads). */
type Validador = FastifyValidationResult;

/**
 * A validator compiled by `compile` at its first call (a route's first request), then reused; after each call its
 * `errors` are those of that call, as Fastify reads them from an Ajv validate function.
 * @throws whatever `compile` throws (e.g. an unresolved `$ref`), at that first call
 */
export function validadorAlUsarlo(compile: () => Validador): Validador {
  let compilado: Validador | undefined;
  const validar: Validador = (data) => {
    compilado ??= compile();
    const resultado = compilado(data);
    validar.errors = compilado.errors;
    return resultado;
  };
  validar.errors = null;
  return validar;
}

/**
 * Fastify's own serializer factory (fast-json-stringify, with the schemas added by `addSchema`), whose serializers are
 * compiled at their first response: pass as `schemaController.compilersFactory.buildSerializer` (app.ts).
 */
export const serializadoresAlUsarlos: SerializerFactory = (externas, opciones) => {
  const compilar = SerializerSelector()(externas, opciones);
  return (ruta) => {
    let serializar: Serializer | undefined;
    return (doc) => (serializar ??= compilar(ruta))(doc);
  };
};
