/**
 * Bindings (request bodies, review rows, defaults) and named conditions, evaluated against the
 * engine context. Data, not an expression language (CONVENTIONS §3).
 */
import { getAt } from './pointer.ts';
import type { Binding, Condition, FlowContext, FlowDef } from './types.ts';

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

/**
 * Resolves a binding: a pointer string → its value; `{ const }` → the literal; `{ merge: [...] }` →
 * the shallow merge of the resolved objects (later wins, undefined skipped); `{ join, sep }` → the
 * non-empty resolved values joined with `sep` (default one space), or undefined when all are empty;
 * any other object → an object of resolved bindings (keys whose value is undefined are dropped).
 */
export function resolveBinding(binding: Binding, ctx: unknown): unknown {
  if (typeof binding === 'string') return getAt(ctx, binding);
  if ('const' in binding && Object.keys(binding).length === 1) return (binding as { const: unknown }).const;
  if ('merge' in binding && Array.isArray(binding.merge)) {
    const out: Record<string, unknown> = {};
    for (const part of binding.merge as Binding[]) {
      const v = resolveBinding(part, ctx);
      if (v && typeof v === 'object') {
        for (const [k, val] of Object.entries(v)) if (val !== undefined) out[k] = val;
      }
    }
    return out;
  }
  if ('join' in binding && Array.isArray(binding.join)) {
    const parts = (binding.join as string[]).map((p) => getAt(ctx, p)).filter((v) => !isEmpty(v));
    return parts.length ? parts.join(typeof binding.sep === 'string' ? binding.sep : ' ') : undefined;
  }
  const out: Record<string, unknown> = {};
  for (const [k, b] of Object.entries(binding as Record<string, Binding>)) {
    const v = resolveBinding(b, ctx);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** True when the condition holds on `ctx`. `present` means not undefined/null/''/[]/{}. */
export function evaluateCondition(cond: Condition, ctx: unknown): boolean {
  const v = getAt(ctx, cond.field);
  const present = !isEmpty(v) && !(typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
  switch (cond.op) {
    case 'eq':
      return v === cond.value;
    case 'neq':
      return v !== cond.value;
    case 'in':
      return Array.isArray(cond.value) && cond.value.includes(v);
    case 'present':
      return present;
    case 'absent':
      return !present;
  }
}

/**
 * Evaluates the named condition `name` of `flow` (undefined name → true).
 * @throws Error when the name is not declared in `flow.conditions` (caught earlier by `checkFlow`).
 */
export function when(flow: FlowDef, name: string | undefined, ctx: FlowContext | Record<string, unknown>): boolean {
  if (!name) return true;
  const cond = flow.conditions[name];
  if (!cond) throw new Error(`Condición desconocida: ${name}`);
  return evaluateCondition(cond, ctx);
}
