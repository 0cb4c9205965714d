/**
 * Property-based fuzzing of every /api operation with fast-check: for each path and method of the
 * OpenAPI document, bodies, path parameters and query strings are generated from the route's own wire schema —
 * mostly well-formed values (real ids of the visitor's quote and payment method included, so requests reach the
 * handlers), mixed with hostile ones: NUL, lone surrogates, huge and fractional numbers, payment-like digit runs,
 * deep nesting, wrong types — plus raw malformed JSON. Property: the API never answers 5xx, and every 4xx is the one
 * error shape. Fixed seed and bounded runs (FUZZ_RUNS, default 25 per operation), so CI is reproducible; a failure
 * prints the counterexample.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiSchemas } from '../src/plugins/schemas.ts';
import { buildTestApp, CBU_OK, cotizarBody, domicilio, expectSchema, persona, post, visitante, type Csrf } from './helper.ts';

const SEED = 20261123;
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

type Schema = Record<string, unknown>;
const schemas = new Map(loadApiSchemas().map((s) => [s.$id, s as unknown as Schema]));

/** Resolves `area.json#/json/pointer` and `#/components/schemas/area-X` against the wire schemas. */
function resolve(s: Schema): Schema {
  let node = s;
  for (let i = 0; i < 10 && typeof node.$ref === 'string'; i++) {
    const ref = node.$ref as string;
    const comp = /^#\/components\/schemas\/(\w+)(?:-(\w+))?$/.exec(ref);
    const [file, pointer] = comp ? [`${comp[1]}.json`, comp[2] ? `/$defs/${comp[2]}` : ''] : ref.split('#');
    let target: unknown = schemas.get(file);
    for (const part of pointer.split('/').filter(Boolean)) target = (target as Record<string, unknown> | undefined)?.[part];
    if (!target) throw new Error(`$ref no resuelto: ${ref}`);
    node = target as Schema;
  }
  return node;
}

const HOSTILES = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '9'.repeat(40),
  '4242 4242 4242 4242',
  '2850590909400904181356',
  '',
  ' ',
  "'; DROP TABLE logs;--",
  '<script>alert(1)</script>',
  '💥'.repeat(5),
  '%00',
  '../../etc/passwd',
  'x'.repeat(5000),
];
const hostileString = fc.oneof(fc.constantFrom(...HOSTILES), fc.string({ unit: 'binary', maxLength: 40 }));
const hostileNumber = fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 53, Number.MAX_VALUE, -1, 0, 1.5, 1e-9);
const deep = fc.integer({ min: 11, max: 1500 }).map((n) => JSON.parse('['.repeat(n) + ']'.repeat(n)) as unknown);
const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 3 }), deep);

/** An arbitrary for `schema`: mostly schema-shaped values, sometimes hostile ones. `ids` feeds uuid fields. */
function arb(schema: Schema, ids: string[], depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const type = Array.isArray(s.type) ? (s.type as string[])[0] : (s.type as string | undefined);
  let base: fc.Arbitrary<unknown>;
  if (Array.isArray(s.enum)) base = fc.constantFrom(...(s.enum as unknown[]));
  else if (s.const !== undefined) base = fc.constant(s.const);
  else if (type === 'object' && s.properties && depth < 4) {
    const props = Object.fromEntries(Object.entries(s.properties as Record<string, Schema>).map(([k, v]) => [k, arb(v, ids, depth + 1)]));
    base = fc.record(props, { requiredKeys: (s.required as string[] | undefined)?.filter((k) => k in props) ?? [] });
  } else if (type === 'array' && s.items && depth < 4) base = fc.array(arb(s.items as Schema, ids, depth + 1), { maxLength: 4 });
  else if (type === 'string') {
    if (s.format === 'uuid') base = fc.oneof(fc.constantFrom(...ids), fc.uuid());
    else if (s.format === 'email') base = fc.emailAddress().filter((e) => e.length <= Number(s.maxLength ?? 254));
    else if (s.format === 'date')
      base = fc
        .date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    else if (typeof s.pattern === 'string') base = fc.stringMatching(new RegExp(s.pattern as string, 'u'));
    else base = fc.string({ maxLength: Number(s.maxLength ?? 30) });
  } else if (type === 'integer') {
    base = fc.integer({ min: Number(s.minimum ?? -1e6), max: Number(s.maximum ?? 1e6) });
  } else if (type === 'number') base = fc.double({ noNaN: true });
  else if (type === 'boolean') base = fc.boolean();
  else base = anyJson;
  // Mostly well-formed, so that a request with ONE hostile field often passes every other check and reaches the handler.
  return fc.oneof(
    { weight: 18, arbitrary: base },
    { weight: 1, arbitrary: hostileString },
    { weight: 1, arbitrary: fc.oneof(hostileNumber, anyJson) },
  );
}

interface Operation {
  method: 'GET' | 'POST';
  path: string;
  body?: Schema;
  params: { name: string; in: 'path' | 'query'; schema: Schema }[];
}

function operations(app: FastifyInstance): Operation[] {
  const doc = app.swagger() as {
    paths: Record<
      string,
      Record<string, { requestBody?: { content: Record<string, { schema: Schema }> }; parameters?: Operation['params'] }>
    >;
  };
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/') || path.startsWith('/api/docs')) continue;
    for (const [method, op] of Object.entries(methods)) {
      ops.push({
        method: method.toUpperCase() as 'GET' | 'POST',
        path,
        body: op.requestBody?.content['application/json']?.schema,
        params: op.parameters ?? [],
      });
    }
  }
  return ops;
}

function expectNo5xx(res: { statusCode: number; json: () => unknown; body: string }, what: string): void {
  expect(res.statusCode, `${what} → ${res.statusCode} ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (res.statusCode >= 400) expectSchema(res.json(), 'common', 'Error');
}

let app: FastifyInstance;
let visitor: Csrf;
let ids: string[];
beforeAll(async () => {
  app = await buildTestApp({ rateLimitMax: 1_000_000, settings: { cotizacionesPorHoraPorIp: 1_000_000 } });
  visitor = await visitante(app);
  // A quote, payment method and application of the fuzzing visitor, so generated ids can reach the handlers.
  const refId = (await post(app, '/api/cotizacion/cotizar', cotizarBody())).json().refId as string;
  const medioPagoId = (await post(app, '/api/pagos/validar-forma-cobro', { refId, methodPayment: 'CBU', numberCBU: CBU_OK })).json()
    .medioPago.id as string;
  const sol = await post(app, '/api/emision/solicitar', {
    refId,
    codPlan: 'INTERMEDIO',
    coberturasOpcionales: [],
    medioPagoId,
    persona: persona(),
    domicilio: domicilio(),
  });
  ids = [refId, medioPagoId, sol.json().numeroSolicitud as string];
});
afterAll(async () => {
  await app.close();
});

describe('fuzz: no input gives a 5xx', () => {
  it('every operation of the OpenAPI document, schema-driven and hostile inputs', async () => {
    const ops = operations(app);
    expect(ops.length).toBeGreaterThan(25);
    for (const op of ops) {
      const params = fc.record(Object.fromEntries(op.params.map((p) => [`${p.in}:${p.name}`, arb(p.schema, ids)])), { requiredKeys: [] });
      const body = op.body
        ? fc.oneof({ weight: 9, arbitrary: arb(op.body, ids) }, { weight: 1, arbitrary: fc.constant(undefined) })
        : fc.constant(undefined);
      await fc.assert(
        fc.asyncProperty(params, body, async (p, b) => {
          let url = op.path;
          const query = new URLSearchParams();
          for (const [key, value] of Object.entries(p)) {
            const [where, name] = key.split(':');
            const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
            if (where === 'path') url = url.replace(`{${name}}`, encodeURIComponent(text));
            else query.append(name, text);
          }
          url = url.replace(/\{(\w+)\}/g, 'x');
          const qs = query.toString();
          const res = await app.inject({
            method: op.method,
            url: qs ? `${url}?${qs}` : url,
            headers: {
              cookie: visitor.cookie,
              'x-xsrf-token': visitor.token,
              ...(b !== undefined ? { 'content-type': 'application/json' } : {}),
            },
            ...(b !== undefined && op.method === 'POST' ? { payload: JSON.stringify(b) } : {}),
          });
          expectNo5xx(res, `${op.method} ${url}`);
        }),
        { seed: SEED, numRuns: RUNS },
      );
    }
  }, 180_000); // CPU-bound (every operation × runs): 60 s ran out on a clean-clone CI run with both cores busy

  it('raw malformed bodies and odd content types on every POST', async () => {
    const posts = operations(app).filter((o) => o.method === 'POST');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...posts),
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.constantFrom('{', '{"a":', '[]', 'null', '1e999', '"\\u0000"', '{"__proto__":{"x":1}}'),
        ),
        fc.constantFrom(
          'application/json',
          'application/json; charset=latin1',
          'text/plain',
          'application/xml',
          'multipart/form-data; boundary=x',
        ),
        async (op, raw, contentType) => {
          const res = await app.inject({
            method: 'POST',
            url: op.path.replace(/\{(\w+)\}/g, 'x'),
            payload: raw,
            headers: { cookie: visitor.cookie, 'x-xsrf-token': visitor.token, 'content-type': contentType },
          });
          expectNo5xx(res, `POST ${op.path} (${contentType})`);
        },
      ),
      { seed: SEED, numRuns: RUNS * 8 },
    );
  });
});
