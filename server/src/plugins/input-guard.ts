/**
 * Generic input hardening at the schema level (no route takes oversized, deeply nested or control-character input): rules applied to EVERY wire schema node by
 * kind, not field by field, so a new field is covered the day it is added.
 *
 * `hardenSchema(schema)` returns a copy where
 * - every node that may be a string gets `x-texto`: no NUL (PostgreSQL text cannot hold it) and no lone UTF-16
 *   surrogate (not encodable as UTF-8; jsonb rejects it) → 400 "El texto tiene caracteres no permitidos.";
 *   free text (a string node without `pattern`, `format`, `enum`, `const` or the annotation `x-numero-de-pago`, which
 *   marks the two fields whose job is to carry the number: card and CBU) also gets `x-enmascarar`: card-like
 *   and CBU-like digit runs are masked in place before any handler, table or log sees them (domain/pagos/enmascarar.ts);
 * - every integer node without bounds gets PostgreSQL `integer` bounds (−2³¹ … 2³¹−1), so no value reaches a column
 *   it overflows;
 * - every free-form object/array node (no `properties`, `items`…) gets `x-json-libre`: at most
 *   {@link JSON_LIBRE_MAX_PROFUNDIDAD} levels, {@link JSON_LIBRE_MAX_LARGO} characters once serialised, every key and
 *   string valid text (and masked) — checked iteratively, so deep nesting cannot overflow the stack.
 * `addInputGuardKeywords(ajv)` teaches Ajv those three keywords.
 */
import type { Ajv } from 'ajv';
import { enmascararClaves, enmascararNumerosDePago } from '../domain/pagos/enmascarar.ts';
import { mensaje } from '../../../src/core/messages.ts';

export const MENSAJE_TEXTO_INVALIDO = mensaje('servidor.textoInvalido');
export const MENSAJE_JSON_LIBRE = mensaje('servidor.jsonLibre');
/** PostgreSQL `integer` range (the columns' type). */
export const INT_MIN = -2147483648;
export const INT_MAX = 2147483647;
/** Free-form JSON limits: nesting levels and serialised characters (the log contract stores ≤ 4000 per field). */
export const JSON_LIBRE_MAX_PROFUNDIDAD = 10;
export const JSON_LIBRE_MAX_LARGO = 4000;

// With the `u` flag a well-formed surrogate pair is one code point outside D800–DFFF, so only lone halves match.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** @returns whether `s` can be stored as PostgreSQL text/jsonb: no NUL, no lone surrogate */
export function esTextoValido(s: string): boolean {
  return !s.includes('\u0000') && !LONE_SURROGATE.test(s);
}

type Schema = Record<string, unknown>;
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SUBSCHEMA_ONE = ['additionalProperties', 'items', 'additionalItems', 'contains', 'not', 'if', 'then', 'else', 'propertyNames'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

const types = (node: Schema): string[] =>
  Array.isArray(node.type) ? (node.type as string[]) : typeof node.type === 'string' ? [node.type] : [];

/** @returns a hardened deep copy of `schema` (see the module comment); `$ref` nodes are left to their target */
export function hardenSchema<T>(schema: T): T {
  const walk = (node: unknown): unknown => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
    const out: Schema = { ...(node as Schema) };
    for (const key of SUBSCHEMA_MAPS) {
      const map = out[key];
      if (map && typeof map === 'object') out[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, walk(v)]));
    }
    for (const key of SUBSCHEMA_ONE) if (out[key] && typeof out[key] === 'object') out[key] = walk(out[key]);
    for (const key of SUBSCHEMA_LISTS) if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map(walk);
    const t = types(out);
    if (t.includes('string')) {
      out['x-texto'] = true;
      const constrained = ['pattern', 'format', 'enum', 'const', 'x-numero-de-pago'].some((k) => k in out);
      if (!constrained) out['x-enmascarar'] = true;
    }
    if (t.includes('integer')) {
      if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = INT_MIN;
      if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = INT_MAX;
    }
    const freeForm =
      (t.includes('object') && !['properties', 'patternProperties', 'additionalProperties'].some((k) => k in out)) ||
      (t.includes('array') && !['items', 'prefixItems'].some((k) => k in out));
    if (freeForm) out['x-json-libre'] = true;
    return out;
  };
  return walk(schema) as T;
}

/**
 * Checks (and masks, in place) a free-form JSON value without recursion.
 * @returns false when it is deeper than the limit, longer once serialised, or holds invalid text
 */
export function validarJsonLibre(value: unknown): boolean {
  let chars = 0;
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (depth > JSON_LIBRE_MAX_PROFUNDIDAD) return false;
    if (typeof v === 'string') {
      if (!esTextoValido(v)) return false;
      chars += v.length + 2;
    } else if (Array.isArray(v)) {
      chars += 2 + v.length;
      for (let i = 0; i < v.length; i++) {
        if (typeof v[i] === 'string') v[i] = enmascararNumerosDePago(v[i] as string);
        stack.push({ v: v[i], depth: depth + 1 });
      }
    } else if (v !== null && typeof v === 'object') {
      const obj = v as Record<string, unknown>;
      chars += 2;
      if (!Object.keys(obj).every(esTextoValido)) return false;
      enmascararClaves(obj); // a card number or CBU used as a key is masked too
      for (const k of Object.keys(obj)) {
        chars += k.length + 4;
        if (typeof obj[k] === 'string') obj[k] = enmascararNumerosDePago(obj[k] as string);
        stack.push({ v: obj[k], depth: depth + 1 });
      }
    } else {
      chars += String(v).length;
    }
    if (chars > JSON_LIBRE_MAX_LARGO) return false;
  }
  return true;
}

/** Registers `x-texto`, `x-enmascarar` (modifying), `x-json-libre` (modifying) and the annotation `x-numero-de-pago`. */
export function addInputGuardKeywords(ajv: Ajv): void {
  ajv.addKeyword({ keyword: 'x-numero-de-pago', schemaType: 'boolean' });
  ajv.addKeyword({
    keyword: 'x-texto',
    type: 'string',
    schemaType: 'boolean',
    validate: (_: boolean, data: string) => esTextoValido(data),
  });
  ajv.addKeyword({
    keyword: 'x-enmascarar',
    type: 'string',
    schemaType: 'boolean',
    modifying: true,
    errors: false,
    validate: (
      _: boolean,
      data: string,
      _schema?: unknown,
      ctx?: { parentData: Record<string | number, unknown>; parentDataProperty: string | number },
    ) => {
      if (ctx && ctx.parentData !== undefined && esTextoValido(data))
        ctx.parentData[ctx.parentDataProperty] = enmascararNumerosDePago(data);
      return true;
    },
  });
  ajv.addKeyword({
    keyword: 'x-json-libre',
    type: ['object', 'array'],
    schemaType: 'boolean',
    modifying: true,
    validate: (_: boolean, data: unknown) => validarJsonLibre(data),
  });
}
