/** Card expiry typed as MM/AA: the slash is added after the month. */
import type { WidgetProps } from '@rjsf/utils';

/** "1228" → "12/28"; keeps at most 4 digits. */
export function formatExpiry(raw: string): string {
  const d = raw.replace(/\D/g, '').slice(0, 4);
  return d.length > 2 ? `${d.slice(0, 2)}/${d.slice(2)}` : d;
}

export function CardExpiryWidget({ id, value, onChange, onBlur, placeholder, required, disabled, rawErrors = [] }: WidgetProps) {
  return (
    <div className="input">
      <input
        id={id}
        name={id}
        className="input__control input__control--mono"
        inputMode="numeric"
        autoComplete="cc-exp"
        placeholder={placeholder}
        required={required}
        disabled={disabled}
        aria-invalid={rawErrors.length > 0 || undefined}
        aria-describedby={rawErrors.length ? `${id}__error` : undefined}
        value={value ?? ''}
        onChange={(e) => onChange(formatExpiry(e.target.value) || undefined)}
        onBlur={(e) => onBlur(id, e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') e.currentTarget.blur();
        }}
      />
    </div>
  );
}
