/**
 * Which option values no fixture answers (`npm run flow:paths`): for every step field with a closed list of
 * values — a schema `enum` (or its items' enum), or a list the app builds at run time from the tariff (plans, optional
 * coverages: `dynamicOptions`, scripts/replay.ts › tariffOptions) — the values no fixture's answers use. Pure.
 */
import { stepByPath } from '../../src/engine/core/guards.ts';
import type { Product } from './driver.ts';
import type { DynamicOptions } from './check.ts';
import type { Journey } from './fixture.ts';

type Json = Record<string, unknown>;

/** One field and the values of its list no fixture answers. */
export interface Unexercised {
  step: string;
  /** Field path under the step, e.g. `tipoVivienda` or `ddjj/ppe`. */
  field: string;
  missing: string[];
  total: number;
}

function fields(schema: Json, ui: Json, dynamic: DynamicOptions, prefix = ''): { field: string; options: string[] }[] {
  const out: { field: string; options: string[] }[] = [];
  for (const [key, prop] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
    const fieldUi = (ui[key] ?? {}) as Json;
    if (prop.type === 'object') {
      out.push(...fields(prop, fieldUi, dynamic, `${prefix}${key}/`));
      continue;
    }
    let options = (prop.enum ?? (prop.items as Json | undefined)?.enum) as unknown[] | undefined;
    if (!options)
      for (const v of Object.values((fieldUi['ui:options'] ?? {}) as Json)) if (typeof v === 'string' && dynamic[v]) options = dynamic[v];
    if (prop.type === 'boolean' && !options && prop.const === undefined) options = [true, false];
    if (Array.isArray(options)) out.push({ field: `${prefix}${key}`, options: options.map(String) });
  }
  return out;
}

const at = (answers: unknown, path: string): unknown =>
  path.split('/').reduce<unknown>((cur, k) => (cur && typeof cur === 'object' ? (cur as Json)[k] : undefined), answers);

/**
 * @returns per step field with a closed list, the values no fixture answers (fields fully exercised are left out)
 */
export function unexercisedOptions(product: Product, journeys: Journey[], dynamic: DynamicOptions = {}): Unexercised[] {
  const used = new Map<string, Set<string>>();
  for (const j of journeys) {
    for (const s of j.steps) {
      const step = stepByPath(product.flow, s.route);
      if (!step || !s.answers) continue;
      for (const { field } of fields((product.schemas[step.id] ?? {}) as Json, (product.ui[step.id] ?? {}) as Json, dynamic)) {
        const v = at(s.answers, field);
        const key = `${step.id}#${field}`;
        if (!used.has(key)) used.set(key, new Set());
        for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) used.get(key)!.add(String(x));
      }
    }
  }
  const out: Unexercised[] = [];
  for (const step of product.flow.steps) {
    for (const { field, options } of fields((product.schemas[step.id] ?? {}) as Json, (product.ui[step.id] ?? {}) as Json, dynamic)) {
      const seen = used.get(`${step.id}#${field}`) ?? new Set<string>();
      const missing = options.filter((o) => !seen.has(o));
      if (missing.length) out.push({ step: step.id, field, missing, total: options.length });
    }
  }
  return out;
}
