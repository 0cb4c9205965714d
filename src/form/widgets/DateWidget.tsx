/**
 * A date typed as día/mes/año in one text field, whatever the browser's language (src/form/date-text.ts): "12041985"
 * shows 12/04/1985 and keeps "1985-04-12". Its hint says the allowed range in words — the text the field schema's
 * `x-mensaje` names for its date keyword (`x-edad` / `x-diasDesdeHoy`, src/core/dates.ts), with the keyword's numbers —
 * and how to write the date. With `ui:options.suggestDaysFromToday` an empty field starts with that day (today in
 * Argentina + N, e.g. 1 = tomorrow for the policy's start), so the visitor only changes it when another day suits.
 */
import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useRef, useState } from 'react';
import { fieldBounds } from '../../core/bounds.ts';
import { useTranslation } from 'react-i18next';
import { blurOnEnter } from '../a11y';
import { fechaDigitos, fechaMostrada, fechaTexto, fechaValor } from '../date-text';
import { formatDateAr, hoyArgentina, rangoDeFechas, sumarDias } from '../../core/dates.ts';
import { xMensajeKey } from '../localize';

const KEYWORDS = ['x-edad', 'x-diasDesdeHoy'] as const;

export function DateWidget({ id, value, onChange, onBlur, options, required, disabled, rawErrors = [], uiSchema, schema }: WidgetProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(() => fechaMostrada(value));
  // the value this field last emitted: a different one came from outside (restored answers, defaults) and is shown
  const emitted = useRef<unknown>(value);
  if (value !== emitted.current) {
    emitted.current = value;
    const shown = fechaMostrada(value);
    if (shown !== text) setText(shown);
  }
  const suggest = options.suggestDaysFromToday;
  const empty = value === undefined || value === null || value === '';
  // an empty field takes the suggested day once, as an answer the visitor can keep (a cleared field stays cleared)
  const suggested = useRef(false);
  useEffect(() => {
    if (suggested.current || typeof suggest !== 'number' || !empty || disabled) return;
    suggested.current = true;
    onChange(sumarDias(hoyArgentina(), suggest));
  }, [suggest, empty, disabled, onChange]);
  const keyword = KEYWORDS.find((k) => schema[k]);
  const boundsKey = keyword ? xMensajeKey(schema as Record<string, unknown>, keyword) : undefined;
  // every placeholder of the keyword (numbers and dates) from the schema, as the form's other texts (../bounds.ts)
  const bounds = boundsKey ? t(boundsKey, fieldBounds(schema as Record<string, unknown>)) : '';
  const { min } = rangoDeFechas(schema as Parameters<typeof rangoDeFechas>[0]);
  const ejemplo = keyword === 'x-diasDesdeHoy' && min ? formatDateAr(min) : t('widgets.fecha.ejemplo');
  const hintId = `${id}__hint`;
  const described = [uiSchema?.['ui:help'] ? `${id}__help` : '', hintId, rawErrors.length ? `${id}__error` : ''].filter(Boolean).join(' ');
  return (
    <>
      <p className="field__help" id={hintId}>
        {bounds ? `${bounds} ` : ''}
        {t('widgets.fecha.formato', { ejemplo })}
      </p>
      <div className="input">
        <input
          type="text"
          id={id}
          name={id}
          className="input__control input__control--mono input__control--fecha"
          inputMode="numeric"
          placeholder={t('widgets.fecha.placeholder')}
          value={text}
          required={required}
          disabled={disabled}
          autoComplete={(options.autocomplete as string) ?? 'off'}
          aria-invalid={rawErrors.length > 0 || undefined}
          aria-describedby={described}
          onChange={(e) => {
            const shown = fechaTexto(fechaDigitos(e.target.value));
            const next = fechaValor(e.target.value);
            setText(shown);
            emitted.current = next;
            onChange(next);
          }}
          onBlur={(e) => onBlur(id, e.target.value)}
          onKeyDown={blurOnEnter}
        />
      </div>
    </>
  );
}
