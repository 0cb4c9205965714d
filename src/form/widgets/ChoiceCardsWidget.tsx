/** Radio choices as large tappable cards (mobile-first); `ui:options.hints` adds a second line per option. */
import type { WidgetProps } from '@rjsf/utils';
import { Icon } from './Icon';

export function ChoiceCardsWidget({ id, value, options, onChange, disabled, readonly, rawErrors = [] }: WidgetProps) {
  const hints = (options.hints ?? {}) as Record<string, string>;
  const icons = (options.icons ?? {}) as Record<string, string>;
  const compact = options.compact === true;
  return (
    <div className={`choices ${compact ? 'choices--compact' : ''}`} role="radiogroup" aria-invalid={rawErrors.length > 0 || undefined}>
      {(options.enumOptions ?? []).map((opt, i) => {
        const checked = value === opt.value;
        const optId = `${id}-${i}`;
        return (
          <label key={String(opt.value)} className={`choice ${checked ? 'choice--checked' : ''}`} htmlFor={optId}>
            <input
              type="radio"
              id={optId}
              name={id}
              className="choice__input"
              value={String(opt.value)}
              checked={checked}
              disabled={disabled || readonly}
              onChange={() => onChange(opt.value)}
            />
            {icons[String(opt.value)] && <Icon name={icons[String(opt.value)]} className="choice__icon" />}
            <span className="choice__text">
              <span className="choice__label">{opt.label}</span>
              {hints[String(opt.value)] && <span className="choice__hint">{hints[String(opt.value)]}</span>}
            </span>
          </label>
        );
      })}
    </div>
  );
}
