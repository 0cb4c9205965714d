/**
 * A numeric text input whose display is formatted as the visitor types (card number, expiry):
 * `format` turns what was typed into what is shown and kept; Enter blurs (SPEC §5).
 */
import type { WidgetProps } from '@rjsf/utils';
import type { ReactNode } from 'react';
import { blurOnEnter, describedBy } from '../a11y';

export function MaskedInput(props: WidgetProps & { format: (raw: string) => string; autoComplete: string; suffix?: ReactNode }) {
  const { id, value, onChange, onBlur, placeholder, required, disabled, rawErrors = [], format, autoComplete, suffix } = props;
  return (
    <div className="input">
      <input
        id={id}
        name={id}
        className="input__control input__control--mono"
        inputMode="numeric"
        autoComplete={autoComplete}
        placeholder={placeholder}
        required={required}
        disabled={disabled}
        aria-invalid={rawErrors.length > 0 || undefined}
        aria-describedby={describedBy(id, { help: props.uiSchema?.['ui:help'], error: rawErrors.length })}
        value={format(String(value ?? ''))}
        onChange={(e) => onChange(format(e.target.value) || undefined)}
        onBlur={(e) => onBlur(id, e.target.value)}
        onKeyDown={blurOnEnter}
      />
      {suffix}
    </div>
  );
}
