/**
 * Templates that give RJSF our look: labelled fields with help and errors wired by
 * aria-describedby, fieldsets for choice groups, a GOV.UK-style error summary, our buttons.
 */
import type {
  BaseInputTemplateProps,
  DescriptionFieldProps,
  ErrorListProps,
  FieldTemplateProps,
  ObjectFieldTemplateProps,
  SubmitButtonProps,
  TemplatesType,
  TitleFieldProps,
} from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { fieldState } from '../conditions';
import { blurOnEnter, describedBy } from '../a11y';
import { FieldError } from '../widgets/FieldError';
import { GROUP_WIDGETS, SELF_LABELLED } from '../widgets/registry';

function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, rawErrors = [], rawHelp, hidden, uiSchema, schema, fieldPathId } = props;
  if (hidden) return <div hidden>{children}</div>;
  if (fieldPathId.path.length === 0 || schema.type === 'object') return <>{children}</>;
  const name = String(fieldPathId.path[fieldPathId.path.length - 1]);
  const widget = String(uiSchema?.['ui:widget'] ?? '');
  const options = getUiOptions(uiSchema);
  const showLabel = options.label !== false && !SELF_LABELLED.has(widget);
  const described = describedBy(id, { help: rawHelp, error: rawErrors.length });
  const errors = <FieldError id={id} message={rawErrors[0]} />;
  const help = rawHelp ? (
    <p className="field__help" id={`${id}__help`}>
      {rawHelp}
    </p>
  ) : null;
  const cls = `field field--${name} ${rawErrors.length ? 'field--invalid' : ''} ${options.width ? `field--${String(options.width)}` : ''}`;
  if (GROUP_WIDGETS.has(widget)) {
    return (
      <fieldset className={cls} aria-describedby={described} data-field={name}>
        {showLabel && <legend className="field__label">{label}</legend>}
        {help}
        {errors}
        {children}
      </fieldset>
    );
  }
  return (
    <div className={cls} data-field={name} data-disabled={schema.readOnly === true || undefined}>
      {showLabel && (
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
      )}
      {help}
      {errors}
      {children}
    </div>
  );
}

/** Renders an object's fields; a field its schema's conditions exclude for the current answers is not drawn. */
function ObjectFieldTemplate({ properties, fieldPathId, title, uiSchema, schema }: ObjectFieldTemplateProps) {
  const inner = properties
    .filter((p) => !p.hidden && fieldState(schema, p.name) !== 'hidden')
    .map((p) => <div key={p.name}>{p.content}</div>);
  if (fieldPathId.path.length === 0) return <div className="form-fields">{inner}</div>;
  const help = uiSchema?.['ui:help'] as string | undefined;
  return (
    <fieldset className="subform">
      <legend className="subform__title">{title}</legend>
      {help && <p className="field__help">{help}</p>}
      {inner}
    </fieldset>
  );
}

/**
 * The control an error at RJSF path `property` (".ddjj.actividad") is about: the element with RJSF's id for it
 * (`<idPrefix>_ddjj_actividad`), else the first control whose id starts with it (a radio group's first option),
 * else the control of a field that fills several properties and lists them in `data-fields` (one phone input for
 * area code and number).
 */
export function controlFor(form: ParentNode, idPrefix: string, property: string): HTMLElement | null {
  const path = property.replace(/^\./, '').split('.').filter(Boolean);
  const id = [idPrefix, ...path].join('_');
  return (
    form.querySelector<HTMLElement>(`[id="${CSS.escape(id)}"]:is(input, select, textarea, button)`) ??
    form.querySelector<HTMLElement>(`:is(input, select, textarea, button)[id^="${CSS.escape(id)}"]`) ??
    (path.length
      ? form.querySelector<HTMLElement>(`[data-fields~="${CSS.escape(path[path.length - 1]!)}"] :is(input, select, textarea)`)
      : null)
  );
}

/** The label of the field at RJSF path `property` in the (localized) ui schema: its `ui:title`, else the schema's title. */
function labelOf(uiSchema: unknown, schema: unknown, property: string): string | undefined {
  let ui = uiSchema as Record<string, unknown> | undefined;
  let node = schema as Record<string, unknown> | undefined;
  for (const p of property.replace(/^\./, '').split('.').filter(Boolean)) {
    ui = ui?.[p] as Record<string, unknown> | undefined;
    node = (node?.properties as Record<string, Record<string, unknown>> | undefined)?.[p];
  }
  const label = (ui?.['ui:title'] as string | undefined) ?? (node?.title as string | undefined);
  return label?.replace(/[.:]\s*$/, '');
}

/** Where the field at RJSF path `property` comes on the page: its index at each level (ui:order, else the schema's order). */
function placeOf(uiSchema: unknown, schema: unknown, property: string): number[] {
  let ui = uiSchema as Record<string, unknown> | undefined;
  let node = schema as Record<string, unknown> | undefined;
  const place: number[] = [];
  for (const p of property.replace(/^\./, '').split('.').filter(Boolean)) {
    const keys = Object.keys((node?.properties as object | undefined) ?? {});
    const order = (ui?.['ui:order'] as string[] | undefined) ?? keys;
    const at = order.indexOf(p);
    place.push(at >= 0 ? at : order.length + keys.indexOf(p));
    ui = ui?.[p] as Record<string, unknown> | undefined;
    node = (node?.properties as Record<string, Record<string, unknown>> | undefined)?.[p];
  }
  return place;
}

function byPlace(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * Error summary at the top of the form (GOV.UK pattern): a focusable box (StepForm moves focus to it on a failed
 * submit) listing each error as "<field label>: <message>" in the order of the fields on the page, a link that moves
 * focus to the field.
 */
function ErrorListTemplate({ errors, uiSchema, schema, registry }: ErrorListProps) {
  const { t } = useTranslation();
  const idPrefix = registry.globalFormOptions?.idPrefix ?? (registry.formContext as { stepId?: string } | undefined)?.stepId ?? 'root';
  const seen = new Set<string>();
  const unique = errors
    .filter((e) => {
      const key = `${e.property}|${e.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    // in the order the fields come on the page (GOV.UK), not the validator's
    .map((e) => ({ e, place: placeOf(uiSchema, schema, e.property ?? '') }))
    .sort((a, b) => byPlace(a.place, b.place))
    .map(({ e }) => e);
  return (
    <div className="error-summary" role="alert" tabIndex={-1} aria-labelledby="resumen-de-errores">
      <h2 className="error-summary__title" id="resumen-de-errores">
        {t('errors.resumen')}
      </h2>
      <ul className="error-summary__list">
        {unique.map((e) => {
          const label = e.property ? labelOf(uiSchema, schema, e.property) : undefined;
          const text = (
            <>
              {label ? <span className="error-summary__field">{label}:</span> : null}
              {label ? ' ' : null}
              <span>{e.message}</span>
            </>
          );
          const target = e.property ? [idPrefix, ...e.property.replace(/^\./, '').split('.').filter(Boolean)].join('_') : '';
          return (
            <li key={`${e.property}-${e.message}`}>
              {target ? (
                <a
                  href={`#${target}`}
                  onClick={(ev) => {
                    const control = controlFor(ev.currentTarget.closest('form') ?? document, idPrefix, e.property ?? '');
                    if (!control) return;
                    ev.preventDefault();
                    control.focus();
                    (control.closest('.field') ?? control).scrollIntoView({ block: 'start' });
                  }}
                >
                  {text}
                </a>
              ) : (
                text
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** Text input with our options: inputMode, autocomplete, prefix, width; Enter blurs (SPEC §5). */
function BaseInputTemplate(props: BaseInputTemplateProps) {
  const {
    id,
    value,
    type,
    placeholder,
    required,
    disabled,
    readonly,
    autofocus,
    onChange,
    onBlur,
    onFocus,
    options,
    rawErrors = [],
    schema,
    uiSchema,
  } = props;
  const off = disabled || readonly;
  const inputType =
    (options.inputType as string) || (type === 'number' || type === 'integer' || schema.type === 'integer' ? 'text' : type) || 'text';
  const numeric = schema.type === 'integer' || schema.type === 'number';
  return (
    <div className="input">
      {options.prefix ? (
        <span className="input__affix" aria-hidden="true">
          {String(options.prefix)}
        </span>
      ) : null}
      <input
        id={id}
        name={id}
        className="input__control"
        type={inputType}
        inputMode={(options.inputMode as React.HTMLAttributes<HTMLInputElement>['inputMode']) ?? (numeric ? 'numeric' : undefined)}
        autoComplete={(options.autocomplete as string) ?? undefined}
        placeholder={placeholder}
        required={required}
        disabled={off}
        autoFocus={autofocus}
        aria-invalid={rawErrors.length > 0 || undefined}
        aria-describedby={describedBy(id, { help: uiSchema?.['ui:help'], error: rawErrors.length })}
        value={value ?? ''}
        onChange={(e) => {
          const raw = e.target.value;
          if (!numeric) return onChange(raw === '' ? options.emptyValue : raw);
          const digits = raw.replace(/[^0-9]/g, '');
          onChange(digits === '' ? undefined : Number(digits));
        }}
        onBlur={(e) => onBlur(id, e.target.value)}
        onFocus={(e) => onFocus(id, e.target.value)}
        onKeyDown={blurOnEnter}
      />
      {options.unit ? <span className="input__affix input__affix--end">{String(options.unit)}</span> : null}
    </div>
  );
}

function SubmitButton({ uiSchema }: SubmitButtonProps) {
  const { submitText, norender } = getUiOptions(uiSchema);
  if (norender) return null;
  return (
    <button type="submit" className="button button--primary">
      {submitText as string}
    </button>
  );
}

function TitleField({ title, id }: TitleFieldProps) {
  return <span id={id}>{title}</span>;
}

function DescriptionField({ description, id }: DescriptionFieldProps) {
  return description ? (
    <p id={id} className="field__help">
      {description}
    </p>
  ) : null;
}

export const templates: Partial<TemplatesType> = {
  FieldTemplate,
  ObjectFieldTemplate,
  ErrorListTemplate,
  BaseInputTemplate,
  TitleFieldTemplate: TitleField,
  DescriptionFieldTemplate: DescriptionField,
  ButtonTemplates: { SubmitButton } as TemplatesType['ButtonTemplates'],
};
