/** A boolean as two radio buttons "Sí" / "No" (a declaration needs an explicit answer, not an unticked box). */
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';

export function YesNoWidget({ id, value, onChange, disabled }: WidgetProps) {
  const { t } = useTranslation();
  const opts: [boolean, string][] = [
    [true, t('widgets.siNo.si')],
    [false, t('widgets.siNo.no')],
  ];
  return (
    <div className="choices choices--inline" role="radiogroup">
      {opts.map(([v, label]) => (
        <label key={String(v)} className={`choice choice--small ${value === v ? 'choice--checked' : ''}`} htmlFor={`${id}-${v}`}>
          <input
            type="radio"
            id={`${id}-${v}`}
            name={id}
            value={String(v)}
            className="choice__input"
            checked={value === v}
            disabled={disabled}
            onChange={() => onChange(v)}
          />
          <span className="choice__label">{label}</span>
        </label>
      ))}
    </div>
  );
}
