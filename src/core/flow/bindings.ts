/**
 * Bindings (request bodies, review rows, defaults) and named conditions (compiled: core/conditions.ts), evaluated
 * against the engine context. Data, not an expression language (CONVENTIONS §3).
 */
import { escapeToken, getAt, parsePointer } from './pointer.ts';
import type { Binding, Flow, FlowContext } from './types.ts';

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

/**
 * Evaluates the named condition `name` of `flow` (undefined name → true).
 * @throws Error when the name has no compiled test (not declared in `flow.conditions`: `checkFlow` reports it)
 */
export function when(flow: Pick<Flow, 'tests'>, name: string | undefined, ctx: FlowContext | Record<string, unknown>): boolean {
  if (!name) return true;
  const test = flow.tests[name];
  if (!test) throw new Error(`Condición desconocida: ${name}`);
  return test(ctx);
}

/**
 * Where a field of a request came from: the context pointer that fed the wire field at `wirePointer` (a JSON
 * pointer into the resolved body or query, e.g. `/persona/numberDoc`), following the binding that built it — a
 * pointer (the rest of the path appended), an object of bindings, or a `merge` (later parts win; an object part
 * that names the key wins over a whole-object pointer). Used to show a server's 400 `errors[].field` on the form
 * field that fed it.
 * @returns the source pointer (e.g. `/answers/datos-personales/numberDoc`), or undefined for constants, joins
 *   and fields no binding built
 */
export function sourceOf(binding: Binding | undefined, wirePointer: string): string | undefined {
  if (binding === undefined) return undefined;
  const tokens = parsePointer(wirePointer);
  if (!tokens) return undefined;
  const rest = (p: string, ts: string[]) => p + ts.map((t) => '/' + escapeToken(t)).join('');
  const walk = (b: Binding, ts: string[]): string | undefined => {
    if (typeof b === 'string') return rest(b, ts);
    if ('const' in b && Object.keys(b).length === 1) return undefined;
    if ('join' in b && Array.isArray(b.join)) return undefined;
    if ('merge' in b && Array.isArray(b.merge)) {
      const parts = [...(b.merge as Binding[])].reverse();
      const named = parts.find(
        (p) => typeof p === 'object' && !('merge' in p) && !('const' in p) && !('join' in p) && ts[0] !== undefined && ts[0] in p,
      );
      if (named) return walk(named, ts);
      const whole = parts.find((p) => typeof p === 'string');
      return whole === undefined ? undefined : walk(whole, ts);
    }
    if (ts.length === 0) return undefined;
    const child = (b as Record<string, Binding>)[ts[0]];
    return child === undefined ? undefined : walk(child, ts.slice(1));
  };
  return walk(binding, tokens);
}
