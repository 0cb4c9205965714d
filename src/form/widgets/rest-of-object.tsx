/**
 * A root-level field that answers some of the step's properties itself (the locality picker, the one phone input)
 * renders every OTHER property with RJSF's own ObjectField, so a step can mix it with ordinary fields. This hook gives
 * that rest (schema without the owned properties or their `required`, ui schema without the field's own keys), the
 * element that renders it (null when nothing is left) and the first error RJSF holds for one owned property.
 */
import type { FieldProps, RJSFSchema } from '@rjsf/utils';
import { useMemo } from 'react';

/**
 * @param props the field's RJSF props (schema, uiSchema, errorSchema, registry)
 * @param owned names of the properties the field answers itself
 * @returns `rest` (the ObjectField element for the other properties, or null) and `errorOf(name)` (first message or undefined)
 */
export function useRestOfObject(props: FieldProps, owned: string[]) {
  const { schema, uiSchema, errorSchema, registry } = props;
  const key = owned.join('|');
  const restSchema = useMemo(() => {
    const own = new Set(owned);
    const properties = { ...((schema.properties ?? {}) as Record<string, RJSFSchema>) };
    for (const k of own) delete properties[k];
    return { ...schema, properties, required: (schema.required ?? []).filter((r) => !own.has(r)) } as RJSFSchema;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [schema, key]);
  const restUi = useMemo(() => {
    const { ['ui:field']: _f, ['ui:options']: _o, ...rest } = uiSchema ?? {};
    return rest;
  }, [uiSchema]);
  const ObjectField = registry.fields.ObjectField;
  const rest =
    Object.keys(restSchema.properties ?? {}).length > 0 ? <ObjectField {...props} schema={restSchema} uiSchema={restUi} /> : null;
  const errorOf = (k: string) => (errorSchema as Record<string, { __errors?: string[] }> | undefined)?.[k]?.__errors?.[0];
  return { rest, errorOf };
}
