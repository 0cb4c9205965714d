/**
 * A phone asked as one field — «11 5555-1234», «0351 15 555-1234», «+54 9 3541 12-3456» — that fills the two wire
 * fields named in `ui:options.fields` (area code without the 0, number without the 15), split by `partirTelefono`
 * (server/src/domain/validation/numeracion.ts: libphonenumber-js, the one rule the server's ENACOM check agrees with).
 * A root-level field: every other property of the step renders first with RJSF's ObjectField (the e-mail above it).
 * The parser loads on its own chunk when the field first shows; what was typed before it arrives is split then, and a
 * submit made meanwhile waits for that (FormContext › holdSubmit) instead of failing on a phone not written yet.
 */
import type { FieldProps } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { FormContext } from '../context';
import { useRestOfObject } from './rest-of-object';
import { blurOnEnter, describedBy } from '../a11y';
import { FieldError } from './FieldError';

type Partir = typeof import('../../core/numeracion.ts').partirTelefono;

interface Names {
  areaCode: string;
  number: string;
}

let parser: Promise<Partir> | null = null;
function loadParser(): Promise<Partir> {
  parser ??= import('../../core/numeracion.ts').then((m) => m.partirTelefono);
  return parser;
}

/** How a stored pair reads in the field: «11 55551234» (empty when there is no number). */
export function telefonoMostrado(areaCod: unknown, phoneNumber: unknown): string {
  return [areaCod, phoneNumber].filter((v) => typeof v === 'string' && v !== '').join(' ');
}

/** The one phone input of a step, after every other property of it (RJSF's ObjectField). */
export function PhoneField(props: FieldProps) {
  const { uiSchema, formData, onChange, registry, fieldPathId, disabled, readonly } = props;
  const { t, i18n } = useTranslation();
  const ctx = registry.formContext as FormContext;
  const names = (getUiOptions(uiSchema).fields ?? {}) as Names;
  const data = (formData ?? {}) as Record<string, unknown>;
  const { text, type } = usePhoneText({ data, names, onChange, path: fieldPathId.path, ctx });

  const { rest, errorOf: errOf } = useRestOfObject(props, Object.values(names));
  // the number's own error first (nothing or too few digits), then the area code's (missing, or unknown to ENACOM)
  const error = errOf(names.number) ?? errOf(names.areaCode);
  const id = `${fieldPathId.$id}_${names.number}`;
  const key = `${ctx.stepId}.fields.${names.number}`;
  const help = i18n.exists(`${key}.help`) ? t(`${key}.help`) : '';

  return (
    <div className="form-fields">
      {rest}
      <div
        className={`field field--${names.number} ${error ? 'field--invalid' : ''}`}
        data-field={names.number}
        data-fields={`${names.areaCode} ${names.number}`}
      >
        <label className="field__label" htmlFor={id}>
          {t(`${key}.label`)}
        </label>
        {help && (
          <p className="field__help" id={`${id}__help`}>
            {help}
          </p>
        )}
        <FieldError id={id} message={error} />
        <div className="input">
          <input
            id={id}
            name={id}
            className="input__control"
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            placeholder={i18n.exists(`${key}.placeholder`) ? t(`${key}.placeholder`) : undefined}
            value={text}
            disabled={disabled || readonly}
            aria-invalid={!!error || undefined}
            aria-describedby={describedBy(id, { help, error })}
            onChange={(e) => type(e.target.value)}
            onKeyDown={blurOnEnter}
          />
        </div>
      </div>
    </div>
  );
}

/**
 * The phone's text and what typing does: each text is split into the wire pair (area code, number) and written with
 * `onChange`; text typed before the parser arrived is split once it does (a submit meanwhile is held for it). A pair
 * written from outside (restored answers) replaces the text.
 * @returns the text shown and `type(text)`, the input's change handler
 */
function usePhoneText(f: {
  data: Record<string, unknown>;
  names: Names;
  onChange: FieldProps['onChange'];
  path: FieldProps['fieldPathId']['path'];
  ctx: FormContext;
}) {
  const { data, names } = f;
  const stored = telefonoMostrado(data[names.areaCode], data[names.number]);
  const [text, setText] = useState(stored);
  const [partir, setPartir] = useState<Partir | null>(null);
  /** The pair this field last wrote: a different one came from outside (restored answers) and is shown. */
  const written = useRef(stored);
  if (stored !== written.current) {
    written.current = stored;
    setText(stored);
  }
  useEffect(() => {
    let live = true;
    loadParser().then((p) => live && setPartir(() => p));
    return () => void (live = false);
  }, []);

  const latest = useRef({ data, onChange: f.onChange, path: f.path });
  latest.current = { data, onChange: f.onChange, path: f.path };
  const write = (typed: string, split: Partir) => {
    const { areaCod, phoneNumber } = split(typed);
    const next: Record<string, unknown> = { ...latest.current.data, [names.areaCode]: areaCod, [names.number]: phoneNumber };
    for (const k of [names.areaCode, names.number]) if (next[k] === undefined) delete next[k];
    written.current = telefonoMostrado(areaCod, phoneNumber);
    latest.current.onChange(next, latest.current.path);
  };
  // text typed before the parser arrived is split once it does: by the first of this promise and the effect below to
  // run; the promise writes synchronously (flushSync), so a submit held until it settles validates the written pair
  const pending = useRef<string | null>(null);
  const owed = useRef<Promise<void> | null>(null);
  const owe = () => {
    if (owed.current) return;
    owed.current = loadParser().then((split) => {
      owed.current = null;
      const typed = pending.current;
      pending.current = null;
      if (typed !== null) flushSync(() => write(typed, split));
    });
    f.ctx.holdSubmit(owed.current);
  };
  useEffect(() => {
    if (partir && pending.current !== null) {
      write(pending.current, partir);
      pending.current = null;
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [partir]);
  const type = (value: string) => {
    setText(value);
    if (partir) write(value, partir);
    else {
      pending.current = value;
      owe();
    }
  };
  return { text, type };
}
