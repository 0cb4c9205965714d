/**
 * A checkbox with its label beside it (terms, "sin número"). Words of the label marked `<terminos>…</terminos>` etc. are
 * links to the documents they name, opened in a new tab (src/app/enlaces.tsx).
 */
import type { WidgetProps } from '@rjsf/utils';
import { conEnlaces } from '../../app/enlaces';

export function CheckboxWidget({ id, value, onChange, label, disabled, rawErrors = [] }: WidgetProps) {
  return (
    <label className="checkbox" htmlFor={id}>
      <input
        type="checkbox"
        id={id}
        name={id}
        className="checkbox__input"
        checked={value === true}
        disabled={disabled}
        aria-invalid={rawErrors.length > 0 || undefined}
        aria-describedby={rawErrors.length ? `${id}__error` : undefined}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span className="checkbox__label">{typeof label === 'string' ? conEnlaces(label, true) : label}</span>
    </label>
  );
}
