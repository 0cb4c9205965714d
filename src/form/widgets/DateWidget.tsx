/** Native date picker bounded by the field schema's date keywords `x-edad` / `x-diasDesdeHoy` (see ../dates.ts). */
import type { WidgetProps } from '@rjsf/utils';
import { rangoDeFechas } from '../dates';
import { describedBy } from '../a11y';

export function DateWidget({ id, value, onChange, onBlur, options, required, disabled, rawErrors = [], uiSchema, schema }: WidgetProps) {
  const { min, max } = rangoDeFechas(schema as Parameters<typeof rangoDeFechas>[0]);
  return (
    <div className="input">
      <input
        type="date"
        id={id}
        name={id}
        className="input__control"
        value={value ?? ''}
        min={min}
        max={max}
        required={required}
        disabled={disabled}
        autoComplete={(options.autocomplete as string) ?? undefined}
        aria-invalid={rawErrors.length > 0 || undefined}
        aria-describedby={describedBy(id, { help: uiSchema?.['ui:help'], error: rawErrors.length })}
        onChange={(e) => onChange(e.target.value || undefined)}
        onBlur={(e) => onBlur(id, e.target.value)}
      />
    </div>
  );
}
