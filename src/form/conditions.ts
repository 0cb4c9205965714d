/**
 * In-form conditions are JSON Schema, the language the step schemas already validate with: a step's
 * `if`/`then`/`else` (also inside `allOf`) decides, for the current answers, what each field's schema
 * resolves to — and so whether the visitor sees it:
 * - a property that resolves to `false` ("must be absent") is hidden and its value is not sent;
 * - a property that resolves to `readOnly: true` is shown disabled and its value is not sent.
 * e.g. `"else": { "properties": { "barrioCerrado": false } }` hides the question for a flat, and
 * `"then": { "properties": { "numberAddress": { "readOnly": true } } }` disables the number when «Sin número»
 * is ticked. Resolution is RJSF's own `retrieveSchema` with the step's (precompiled) validator, so what the
 * form shows and what it validates can never disagree. Pruned values keep a stale answer (barrioCerrado
 * after switching to Departamento) from blocking validation or reaching the API.
 */
import { retrieveSchema, type RJSFSchema, type ValidatorType } from '@rjsf/utils';

type Json = Record<string, unknown>;

/** How a field is shown under the current answers. */
export type FieldState = 'shown' | 'hidden' | 'disabled';

/** The state of a property of an already resolved object schema (RJSF hands templates resolved schemas). */
export function fieldState(resolvedParent: unknown, name: string): FieldState {
  const props = (resolvedParent as Json | undefined)?.properties as Json | undefined;
  const prop = props?.[name];
  if (prop === false) return 'hidden';
  if (prop && typeof prop === 'object' && (prop as Json).readOnly === true) return 'disabled';
  return 'shown';
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `data` without the values of hidden or disabled fields, at every level of nesting. Returns `data` itself (the same
 * object) when nothing is excluded, so a caller can tell "nothing to prune" by identity.
 * @param validator the step's RJSF validator (resolves `if` against the data)
 * @param schema the object schema `data` answers; `root` the step schema (for `$ref`s)
 */
export function pruneExcluded(validator: ValidatorType, schema: RJSFSchema, data: Json, root: RJSFSchema = schema): Json {
  const resolved = retrieveSchema(validator, schema, root, data);
  const out: Json = {};
  let changed = false;
  for (const [key, value] of Object.entries(data)) {
    if (fieldState(resolved, key) !== 'shown') {
      changed = true;
      continue;
    }
    const sub = (resolved.properties as Json | undefined)?.[key];
    out[key] = isObject(value) && isObject(sub) && sub.type === 'object' ? pruneExcluded(validator, sub as RJSFSchema, value, root) : value;
    if (out[key] !== value) changed = true;
  }
  return changed ? out : data;
}
