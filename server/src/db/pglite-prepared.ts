/**
 * Parameterised statements on PGlite as PostgreSQL clients run them: each distinct SQL text is prepared once as a
 * named statement of PGlite's single session (Parse + Describe, which gives its parameter types), and every later
 * call sends Bind + Describe + Execute + Sync in ONE protocol exchange. `PGlite.query` instead re-parses and re-plans
 * the text and makes six separate exchanges with the WASM backend per call (~0.3–0.5 ms of CPU for a one-row upsert).
 * Parameters are serialised exactly as `PGlite.query` does (PGlite's serializer for the parameter's type, else
 * `toString()`), and rows parsed with PGlite's parsers, so results are the same.
 *
 * The caller holds PGlite's locks (see db/index.ts). Distinct texts beyond {@link MAX_PREPARADAS} (SQL built at run
 * time) use `PGlite.query` semantics through the fallback the caller passes. A statement whose plan PostgreSQL can no
 * longer reuse (its result columns changed after DDL, SQLSTATE 0A000) or that is gone (26000) is prepared again once.
 */
import { parse, protocol, type PGlite } from '@electric-sql/pglite';

/** Most distinct SQL texts kept prepared (the code has a few dozen; a bound against SQL built at run time). */
export const MAX_PREPARADAS = 500;

const { serialize } = protocol;
const RETRY_SQLSTATE = new Set(['0A000', '26000']);

/** Describe (unnamed portal) + Execute (all rows) + Sync: the same bytes for every call. */
const DESCRIBE_EXECUTE_SYNC = concat([serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]);

/**
 * A Bind message (PostgreSQL protocol, "Message Formats" › Bind) of the unnamed portal to `statement`, every value in
 * text format and every result column in text format. Built with Node's native UTF-8 length and encoder: PGlite's own
 * serializer measures a string's UTF-8 length in a JavaScript loop, twice — for a quote's 13 KB of plans that is a
 * tenth of a millisecond per statement.
 */
function bind(statement: string, values: (string | null)[]): Uint8Array {
  let size = 4 + 1 + Buffer.byteLength(statement) + 1 + 2 + 2 + 2;
  for (const v of values) size += 4 + (v === null ? 0 : Buffer.byteLength(v));
  const out = Buffer.allocUnsafe(1 + size);
  let o = out.writeUInt8(0x42, 0); // 'B'
  o = out.writeInt32BE(size, o);
  o = out.writeUInt8(0, o); // unnamed portal
  o += out.write(statement, o);
  o = out.writeUInt8(0, o);
  o = out.writeInt16BE(0, o); // no parameter format codes: all text
  o = out.writeInt16BE(values.length, o);
  for (const v of values) {
    if (v === null) {
      o = out.writeInt32BE(-1, o);
      continue;
    }
    const len = out.write(v, o + 4);
    out.writeInt32BE(len, o);
    o += 4 + len;
  }
  out.writeInt16BE(0, o); // no result format codes: all text
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

interface Preparada {
  name: string;
  types: number[];
}

/**
 * @returns `run(sql, params)` → rows, to call while holding PGlite's query lock; `null` when the statement is not
 * (and will not be) prepared, so the caller runs it the usual way
 * @throws the backend's DatabaseError (syntax, constraint, aborted transaction…), as `PGlite.query` does
 */
export function preparedStatements(pglite: PGlite) {
  const cache = new Map<string, Preparada>();
  let next = 0;
  const exchange = async (parts: Uint8Array[]) => (await pglite.execProtocol(concat(parts), { syncToFs: false })).messages;

  async function prepare(sql: string): Promise<Preparada | null> {
    const found = cache.get(sql);
    if (found) return found;
    if (cache.size >= MAX_PREPARADAS) return null;
    const name = `cotizador_${++next}`;
    const messages = await exchange([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()]);
    const p = { name, types: parse.parseDescribeStatementResults(messages) };
    cache.set(sql, p);
    return p;
  }

  async function execute<T>(p: Preparada, params: unknown[]): Promise<T[]> {
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const serializer = pglite.serializers[p.types[i]];
      return serializer ? serializer(v) : (v as { toString(): string }).toString();
    });
    const messages = await exchange([bind(p.name, values), DESCRIBE_EXECUTE_SYNC]);
    return (parse.parseResults(messages, pglite.parsers)[0]?.rows ?? []) as T[];
  }

  return async function run<T>(sql: string, params: unknown[]): Promise<T[] | null> {
    const p = await prepare(sql);
    if (!p) return null;
    try {
      return await execute<T>(p, params);
    } catch (err) {
      if (!RETRY_SQLSTATE.has((err as { code?: string }).code ?? '')) throw err;
      cache.delete(sql);
      await exchange([serialize.close({ type: 'S', name: p.name }), serialize.sync()]).catch(() => undefined);
      const again = await prepare(sql);
      if (!again) return null;
      return execute<T>(again, params);
    }
  };
}
