/**
 * In-form display rules from ui:options: `showWhen: { field: value }` hides a field unless a
 * sibling has that value; `disabledWhen` likewise disables it. Hidden values are pruned so a
 * stale answer (e.g. barrioCerrado after switching to Departamento) never blocks validation.
 */
type Json = Record<string, unknown>;

function matches(rule: unknown, data: Json): boolean {
  if (!rule || typeof rule !== 'object') return true;
  return Object.entries(rule as Json).every(([k, v]) => data[k] === v);
}

/** True when the field's `showWhen` holds (or it has none). */
export function isShown(fieldUi: Json | undefined, data: Json): boolean {
  const opts = (fieldUi?.['ui:options'] as Json | undefined) ?? {};
  return opts.showWhen === undefined || matches(opts.showWhen, data);
}

/** True when the field's `disabledWhen` holds. */
export function isDisabled(fieldUi: Json | undefined, data: Json): boolean {
  const opts = (fieldUi?.['ui:options'] as Json | undefined) ?? {};
  return opts.disabledWhen !== undefined && matches(opts.disabledWhen, data);
}

/** `data` without the values of hidden or disabled top-level fields. */
export function pruneHidden(ui: Json, data: Json): Json {
  const out: Json = { ...data };
  for (const key of Object.keys(data)) {
    const fieldUi = ui[key] as Json | undefined;
    if (!isShown(fieldUi, data) || isDisabled(fieldUi, data)) delete out[key];
  }
  return out;
}
