/**
 * Every step's JSON Schema and ui schema, bundled eagerly, for what needs them synchronously: the staff preview, the
 * development flow check and tests. The running app loads a step's schemas with its form instead
 * (./index.ts › loadStep), so no production chunk of step 1 imports this module.
 */
/** Schemas and uiSchemas of every step, by step id. */
const schemaFiles = import.meta.glob<Record<string, unknown>>('../../../schemas/*.schema.json', { eager: true, import: 'default' });
const uiFiles = import.meta.glob<Record<string, unknown>>('../../../schemas/*.ui.json', { eager: true, import: 'default' });

export function stepSchema(stepId: string): Record<string, unknown> | undefined {
  return schemaFiles[`../../../schemas/${stepId}.schema.json`];
}

export function stepUiSchema(stepId: string): Record<string, unknown> {
  return uiFiles[`../../../schemas/${stepId}.ui.json`] ?? {};
}

/** Every step's uiSchema, by step id. */
export function allUiSchemas(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(Object.entries(uiFiles).map(([file, ui]) => [file.replace(/^.*\/(.+)\.ui\.json$/, '$1'), ui]));
}
