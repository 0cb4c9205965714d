/** Native date picker bounded by the ui:options date rules (see ../dates.ts). */
import type { WidgetProps } from '@rjsf/utils';
import { dateBounds, type DateRules } from '../dates';
import { describedBy } from '../a11y';

export function DateWidget({ id, value, onChange, onBlur, options, required, disabled, rawErrors = [], uiSchema }: WidgetProps) {
  const { min, max } = dateBounds(options as DateRules, new Date());
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
