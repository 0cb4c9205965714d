/**
 * Province + locality picker (INDEC codes, from `/listas/provincias` and `/listas/localidades`,
 * SOURCES: server/data/ar). A root-level field: it owns the location properties named in
 * `ui:options.fields` and renders every other property with RJSF's ObjectField, so a step can
 * mix the picker with ordinary fields (address step).
 */
import type { FieldProps, RJSFSchema } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormContext } from '../context';

interface Provincia {
  id: string;
  nombre: string;
}
interface Localidad {
  id: string;
  nombre: string;
  departamento?: string;
  provincia?: string;
}
/** Flow calls that feed the lists (ui:options.lists). */
interface Lists {
  provinces: string;
  localities: string;
}

interface Names {
  province: string;
  provinceName: string;
  locality: string;
  localityName: string;
  department: string;
}

let provinciasCache: Promise<Provincia[]> | null = null;

export function LocationField(props: FieldProps) {
  const { schema, uiSchema, formData, onChange, registry, fieldPathId, errorSchema } = props;
  const { t, i18n } = useTranslation();
  const ctx = registry.formContext as FormContext;
  const names = (getUiOptions(uiSchema).fields ?? {}) as Names;
  const lists = (getUiOptions(uiSchema).lists ?? {}) as Lists;
  const data = (formData ?? {}) as Record<string, unknown>;
  const [provincias, setProvincias] = useState<Provincia[]>([]);
  const [listError, setListError] = useState<string | null>(null);

  useEffect(() => {
    provinciasCache ??= ctx.call(lists.provinces) as Promise<Provincia[]>;
    provinciasCache.then(setProvincias).catch((e: Error) => {
      provinciasCache = null;
      setListError(e.message);
    });
  }, [ctx.call, lists.provinces]);

  const set = (patch: Record<string, unknown>) => {
    const next = { ...data, ...patch };
    for (const [k, v] of Object.entries(patch)) if (v === undefined) delete next[k];
    onChange(next, fieldPathId.path);
  };

  const ownKeys = new Set(Object.values(names));
  const restSchema = useMemo(() => {
    const props = { ...((schema.properties ?? {}) as Record<string, RJSFSchema>) };
    for (const k of ownKeys) delete props[k];
    return { ...schema, properties: props, required: (schema.required ?? []).filter((r) => !ownKeys.has(r)) } as RJSFSchema;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [schema]);
  const restUi = useMemo(() => {
    const { ['ui:field']: _f, ['ui:options']: _o, ...rest } = uiSchema ?? {};
    return rest;
  }, [uiSchema]);
  const ObjectField = registry.fields.ObjectField;
  const hasRest = Object.keys(restSchema.properties ?? {}).length > 0;
  const errOf = (k: string) => (errorSchema as Record<string, { __errors?: string[] }> | undefined)?.[k]?.__errors?.[0];
  const stepId = ctx.stepId;
  const provinceId = `${fieldPathId.$id}_${names.province}`;
  const provErr = errOf(names.province);

  return (
    <div className="form-fields">
      <div className={`field ${provErr ? 'field--invalid' : ''}`} data-field={names.province}>
        <label className="field__label" htmlFor={provinceId}>
          {t(`${stepId}.fields.${names.province}.label`)}
        </label>
        {provErr && <p className="field__error" id={`${provinceId}__error`}>{provErr}</p>}
        {listError && <p className="field__error">{listError}</p>}
        <div className="input">
          <select
            id={provinceId}
            className="input__control"
            value={(data[names.province] as string) ?? ''}
            aria-invalid={!!provErr || undefined}
            aria-describedby={provErr ? `${provinceId}__error` : undefined}
            onChange={(e) => {
              const p = provincias.find((x) => x.id === e.target.value);
              set({ [names.province]: p?.id, [names.provinceName]: p?.nombre, [names.locality]: undefined, [names.localityName]: undefined, [names.department]: undefined });
            }}
          >
            <option value="">{t(`${stepId}.fields.${names.province}.placeholder`)}</option>
            {provincias.map((p) => (
              <option key={p.id} value={p.id}>
                {p.nombre}
              </option>
            ))}
          </select>
        </div>
      </div>
      <LocalityCombobox
        id={`${fieldPathId.$id}_${names.locality}`}
        name={names.locality}
        label={t(`${stepId}.fields.${names.locality}.label`)}
        placeholder={t(`${stepId}.fields.${names.locality}.placeholder`)}
        help={i18n.exists(`${stepId}.fields.${names.locality}.help`) ? t(`${stepId}.fields.${names.locality}.help`) : ''}
        province={data[names.province] as string | undefined}
        selectedName={data[names.localityName] as string | undefined}
        error={errOf(names.locality)}
        search={(input) => ctx.call(lists.localities, input) as Promise<Localidad[]>}
        onPick={(l) => set({ [names.locality]: l?.id, [names.localityName]: l?.nombre, [names.department]: l?.departamento })}
      />
      {hasRest && <ObjectField {...props} schema={restSchema} uiSchema={restUi} />}
    </div>
  );
}

function LocalityCombobox(p: {
  id: string;
  /** The schema property it fills (data-field, as every field has). */
  name: string;
  label: string;
  placeholder: string;
  /** Shown when nothing more specific applies (searching, no results, no province). */
  help: string;
  province?: string;
  selectedName?: string;
  error?: string;
  /** Searches localities: `{ provincia, q }` → matches (the flow call named in ui:options.lists.localities). */
  search: (input: { provincia: string; q: string }) => Promise<Localidad[]>;
  onPick: (l: Localidad | undefined) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(p.selectedName ?? '');
  const [items, setItems] = useState<Localidad[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [loading, setLoading] = useState(false);
  const listId = useId();
  const seq = useRef(0);

  useEffect(() => setText(p.selectedName ?? ''), [p.selectedName]);

  useEffect(() => {
    if (!open || !p.province || text.trim().length < 2 || text === p.selectedName) {
      setItems([]);
      return;
    }
    const mine = ++seq.current;
    setLoading(true);
    const timer = setTimeout(() => {
      p
        .search({ provincia: p.province ?? '', q: text.trim() })
        .then((r) => mine === seq.current && (setItems(r), setActive(0)))
        .catch(() => mine === seq.current && setItems([]))
        .finally(() => mine === seq.current && setLoading(false));
    }, 200);
    return () => clearTimeout(timer);
  }, [text, open, p.province, p.selectedName, p.search]);

  const pick = (l: Localidad) => {
    p.onPick(l);
    setText(l.nombre);
    setOpen(false);
  };
  const describedBy = p.error ? `${p.id}__error` : `${p.id}__help`;
  const help = !p.province ? t('widgets.ubicacion.elegirProvinciaPrimero') : loading ? t('widgets.ubicacion.buscando') : open && text.trim().length >= 2 && !items.length && text !== p.selectedName ? t('widgets.ubicacion.sinResultados') : p.help;
  return (
    <div className={`field combobox ${p.error ? 'field--invalid' : ''}`} data-field={p.name}>
      <label className="field__label" htmlFor={p.id}>
        {p.label}
      </label>
      {p.error && <p className="field__error" id={`${p.id}__error`}>{p.error}</p>}
      <div className="input">
        <input
          id={p.id}
          className="input__control"
          role="combobox"
          aria-expanded={open && items.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && items[active] ? `${listId}-${active}` : undefined}
          aria-invalid={!!p.error || undefined}
          aria-describedby={describedBy}
          autoComplete="off"
          placeholder={p.placeholder}
          disabled={!p.province}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            if (p.selectedName) p.onPick(undefined);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setActive((a) => Math.min(a + 1, items.length - 1));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setActive((a) => Math.max(a - 1, 0));
            } else if (e.key === 'Enter') {
              if (open && items[active]) {
                e.preventDefault();
                pick(items[active]);
              } else e.currentTarget.blur();
            } else if (e.key === 'Escape') setOpen(false);
          }}
        />
      </div>
      <p className="field__help" id={`${p.id}__help`} aria-live="polite">
        {help}
      </p>
      {open && items.length > 0 && (
        <ul className="combobox__list" id={listId} role="listbox">
          {items.map((l, i) => (
            <li
              key={l.id}
              id={`${listId}-${i}`}
              role="option"
              data-value={l.id}
              aria-selected={i === active}
              className={`combobox__option ${i === active ? 'combobox__option--active' : ''}`}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(l);
              }}
            >
              <span>{l.nombre}</span>
              {l.departamento && l.departamento !== l.nombre && <span className="combobox__sub">{l.departamento}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
