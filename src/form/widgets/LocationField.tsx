/**
 * Locality picker (INDEC codes, from `/listas/provincias` and `/listas/localidades`, SOURCES: server/data/ar). A
 * root-level field: it owns the location properties named in `ui:options.fields` and renders every other property
 * with RJSF's ObjectField, so a step can mix the picker with ordinary fields (address step).
 * `ui:options.province`: "select" (default) asks the province in a dropdown, then searches its localities;
 * "search" asks one thing — a combobox over every province whose options read «Lanús, Buenos Aires» — and fills
 * the province's id and name from the locality picked (one answer instead of two; the wire still gets both).
 */
import type { FieldProps } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import { useEffect, useId, useRef, useState, type Dispatch, type KeyboardEvent, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormContext } from '../context';
import { FieldError } from './FieldError';
import { useRestOfObject } from './rest-of-object';
import { useTransitionalValue } from './transitional';

interface Provincia {
  id: string;
  nombre: string;
}
interface Localidad {
  id: string;
  nombre: string;
  departamento?: string;
  provincia?: string;
  provinciaId?: string;
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

/**
 * The root-level location field: a province select (unless `ui:options.province` is "search") and the locality
 * combobox, then every other property of the step (RJSF's ObjectField).
 */
export function LocationField(props: FieldProps) {
  const { uiSchema, formData, onChange, registry, fieldPathId } = props;
  const { t, i18n } = useTranslation();
  const ctx = registry.formContext as FormContext;
  const names = (getUiOptions(uiSchema).fields ?? {}) as Names;
  const combined = getUiOptions(uiSchema).province === 'search';
  const lists = (getUiOptions(uiSchema).lists ?? {}) as Lists;
  const data = (formData ?? {}) as Record<string, unknown>;
  const { provincias, listError } = useProvincias(ctx.call, lists.provinces, !combined);

  const set = (patch: Record<string, unknown>) => {
    const next = { ...data, ...patch };
    for (const [k, v] of Object.entries(patch)) if (v === undefined) delete next[k];
    onChange(next, fieldPathId.path);
  };

  const { rest, errorOf: errOf } = useRestOfObject(props, Object.values(names));
  const stepId = ctx.stepId;

  return (
    <div className="form-fields">
      {!combined && (
        <ProvinceSelect
          id={`${fieldPathId.$id}_${names.province}`}
          name={names.province}
          label={t(`${stepId}.fields.${names.province}.label`)}
          placeholder={t(`${stepId}.fields.${names.province}.placeholder`)}
          value={(data[names.province] as string) ?? ''}
          error={errOf(names.province)}
          listError={listError}
          provincias={provincias}
          onPick={(p) =>
            set({
              [names.province]: p?.id,
              [names.provinceName]: p?.nombre,
              [names.locality]: undefined,
              [names.localityName]: undefined,
              [names.department]: undefined,
            })
          }
        />
      )}
      <LocalityCombobox
        id={`${fieldPathId.$id}_${names.locality}`}
        name={names.locality}
        label={t(`${stepId}.fields.${names.locality}.label`)}
        placeholder={t(`${stepId}.fields.${names.locality}.placeholder`)}
        help={i18n.exists(`${stepId}.fields.${names.locality}.help`) ? t(`${stepId}.fields.${names.locality}.help`) : ''}
        province={combined ? undefined : (data[names.province] as string | undefined)}
        anyProvince={combined}
        selectedName={
          combined
            ? localidadMostrada({
                nombre: data[names.localityName] as string | undefined,
                provincia: data[names.provinceName] as string | undefined,
              })
            : (data[names.localityName] as string | undefined)
        }
        error={errOf(names.locality) ?? (combined ? errOf(names.province) : undefined)}
        search={(input) => ctx.call(lists.localities, input) as Promise<Localidad[]>}
        onPick={(l) => set(localityPatch(names, combined, l))}
      />
      {rest}
    </div>
  );
}

/**
 * The provinces of flow call `list` (fetched once per page, kept for every later step; a failed fetch is retried on
 * the next mount) when `wanted`. @returns the provinces (empty until they arrive) and the fetch's error message, if any
 */
function useProvincias(call: FormContext['call'], list: string, wanted: boolean) {
  const [provincias, setProvincias] = useState<Provincia[]>([]);
  const [listError, setListError] = useState<string | null>(null);
  useEffect(() => {
    if (!wanted) return;
    provinciasCache ??= call(list) as Promise<Provincia[]>;
    provinciasCache.then(setProvincias).catch((e: Error) => {
      provinciasCache = null;
      setListError(e.message);
    });
  }, [call, list, wanted]);
  return { provincias, listError };
}

/**
 * The answers a picked locality writes (all undefined when the pick is undone): its id, name and department and, where
 * the province is not asked apart (`combined`), its province's id and name too.
 */
function localityPatch(names: Names, combined: boolean, l: Localidad | undefined): Record<string, unknown> {
  const locality = { [names.locality]: l?.id, [names.localityName]: l?.nombre, [names.department]: l?.departamento };
  return combined ? { [names.province]: l?.provinciaId, [names.provinceName]: l?.provincia, ...locality } : locality;
}

/** The province dropdown: its label, error, the list's load error, and one option per province after a placeholder. */
function ProvinceSelect(p: {
  id: string;
  name: string;
  label: string;
  placeholder: string;
  value: string;
  error?: string;
  listError: string | null;
  provincias: Provincia[];
  onPick: (p: Provincia | undefined) => void;
}) {
  return (
    <div className={`field ${p.error ? 'field--invalid' : ''}`} data-field={p.name}>
      <label className="field__label" htmlFor={p.id}>
        {p.label}
      </label>
      <FieldError id={p.id} message={p.error} />
      {p.listError && <p className="field__error">{p.listError}</p>}
      <div className="input">
        <select
          id={p.id}
          className="input__control"
          value={p.value}
          aria-invalid={!!p.error || undefined}
          aria-describedby={p.error ? `${p.id}__error` : undefined}
          onChange={(e) => p.onPick(p.provincias.find((x) => x.id === e.target.value))}
        >
          <option value="">{p.placeholder}</option>
          {p.provincias.map((x) => (
            <option key={x.id} value={x.id}>
              {x.nombre}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/** A name as people type it: no accents, case or extra spaces ("  lanus " and "Lanús" are the same). */
export function nombreComparable(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** How a locality reads where the province is not asked apart: «Lanús, Buenos Aires»; its name alone without a province. */
export function localidadMostrada(l: { nombre?: string; provincia?: string }): string | undefined {
  if (!l.nombre) return undefined;
  return l.provincia ? `${l.nombre}, ${l.provincia}` : l.nombre;
}

/**
 * The locality a typed text stands for among the search's results, if it is not ambiguous: the one result whose name
 * — or whose «name, province» — is the text (accents and case aside), or, once the visitor left the field (`settled`),
 * the only result.
 * @returns undefined when none or several fit
 */
export function localidadUnivoca<T extends { nombre: string; provincia?: string }>(
  text: string,
  results: T[],
  settled: boolean,
): T | undefined {
  const typed = nombreComparable(text);
  const full = results.filter((l) => l.provincia && nombreComparable(`${l.nombre}, ${l.provincia}`) === typed);
  if (full.length === 1) return full[0];
  const exact = results.filter((l) => nombreComparable(l.nombre) === typed);
  if (exact.length === 1) return exact[0];
  if (exact.length === 0 && settled && results.length === 1) return results[0];
  return undefined;
}

interface LocalityComboboxProps {
  id: string;
  /** The schema property it fills (data-field, as every field has). */
  name: string;
  label: string;
  placeholder: string;
  /** Shown when nothing more specific applies (searching, no results, no province). */
  help: string;
  province?: string;
  /** Searches every province (no province asked apart): options and the picked text read «name, province». */
  anyProvince?: boolean;
  selectedName?: string;
  error?: string;
  /** Searches localities: `{ provincia, q }` → matches (the flow call named in ui:options.lists.localities). */
  search: (input: { provincia?: string; q: string }) => Promise<Localidad[]>;
  onPick: (l: Localidad | undefined) => void;
}

/** Whether a pointer is down somewhere on the page, as a ref kept by document-level listeners (capture phase). */
function usePointerPressed() {
  const pressed = useRef(false);
  useEffect(() => {
    const down = () => void (pressed.current = true);
    const up = () => void (pressed.current = false);
    document.addEventListener('pointerdown', down, true);
    document.addEventListener('pointerup', up, true);
    document.addEventListener('pointercancel', up, true);
    return () => {
      document.removeEventListener('pointerdown', down, true);
      document.removeEventListener('pointerup', up, true);
      document.removeEventListener('pointercancel', up, true);
    };
  }, []);
  return pressed;
}

/** Runs `then` once the pointer press now under way is over (released or cancelled), after that event's handlers. */
function afterPress(then: () => void) {
  const later = () => {
    document.removeEventListener('pointerup', later, true);
    document.removeEventListener('pointercancel', later, true);
    setTimeout(then, 0);
  };
  document.addEventListener('pointerup', later, true);
  document.addEventListener('pointercancel', later, true);
}

/**
 * The localities matching `q` (when `wanted`), searched 200 ms after the visitor stopped typing: the last search's
 * results and the text they are for (`null` before any, or while not wanted), and whether a search is under way.
 * A newer text (or a pick) makes older answers void; a failed search counts as no results. `onResults` runs when
 * results arrive (the combobox moves its active option back to the first).
 */
function useLocalitySearch(
  wanted: boolean,
  q: string,
  p: Pick<LocalityComboboxProps, 'province' | 'anyProvince' | 'search'>,
  onResults: () => void,
) {
  const [found, setFound] = useState<{ q: string; items: Localidad[] } | null>(null);
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);
  const search = useRef(p.search);
  search.current = p.search;
  const resultsIn = useRef(onResults);
  resultsIn.current = onResults;
  useEffect(() => {
    const mine = ++seq.current;
    if (!wanted) {
      setLoading(false);
      setFound(null);
      return;
    }
    setLoading(true);
    const timer = setTimeout(() => {
      search
        .current(p.anyProvince ? { q } : { provincia: p.province ?? '', q })
        .then((items) => {
          if (mine !== seq.current) return;
          setFound({ q, items });
          resultsIn.current();
        })
        .catch(() => mine === seq.current && setFound({ q, items: [] }))
        .finally(() => mine === seq.current && setLoading(false));
    }, 200);
    return () => clearTimeout(timer);
  }, [wanted, q, p.province, p.anyProvince]);
  return { found, loading };
}

/** The help line under the combobox: what to do first, the search's state, or the locality picked (most specific first). */
function comboboxHelp(
  t: ReturnType<typeof useTranslation>['t'],
  s: {
    canSearch: boolean;
    loading: boolean;
    searched: boolean;
    picked: boolean;
    none: boolean;
    ambiguous: boolean;
    anyProvince?: boolean;
    selectedName?: string;
    help: string;
  },
): string {
  return !s.canSearch
    ? t('widgets.ubicacion.elegirProvinciaPrimero')
    : s.loading
      ? t('widgets.ubicacion.buscando')
      : s.searched && !s.picked && s.none
        ? t(s.anyProvince ? 'widgets.ubicacion.sinResultadosPais' : 'widgets.ubicacion.sinResultados')
        : s.ambiguous
          ? t('widgets.ubicacion.varias')
          : s.picked
            ? t('widgets.ubicacion.elegida', { nombre: s.selectedName })
            : s.help;
}

/** The combobox's listbox: one option per locality (its department beside it when it differs), `active` highlighted. */
function LocalityOptions(p: {
  listId: string;
  label: string;
  items: Localidad[];
  active: number;
  shownName: (l: Localidad) => string;
  pick: (l: Localidad) => void;
}) {
  return (
    <ul className="combobox__list" id={p.listId} role="listbox" aria-label={p.label} onMouseDown={(e) => e.preventDefault()}>
      {p.items.map((l, i) => (
        <li
          key={l.id}
          id={`${p.listId}-${i}`}
          role="option"
          data-value={l.id}
          aria-selected={i === p.active}
          className={`combobox__option ${i === p.active ? 'combobox__option--active' : ''}`}
          onMouseDown={(e) => {
            // keeps the focus in the input: a click picks, the blur does not close the list first
            e.preventDefault();
            p.pick(l);
          }}
        >
          <span>{p.shownName(l)}</span>
          {l.departamento && l.departamento !== l.nombre && <span className="combobox__sub">{l.departamento}</span>}
        </li>
      ))}
    </ul>
  );
}

/**
 * The combobox's keys: ArrowDown opens the list or moves the active option down, ArrowUp moves it up, Enter picks the
 * active option of the open list (or leaves the field, which takes a typed name that is one locality's), Escape closes.
 */
function comboboxKey(
  e: KeyboardEvent<HTMLInputElement>,
  s: {
    open: boolean;
    shown: boolean;
    items: Localidad[];
    active: number;
    setOpen: (open: boolean) => void;
    setActive: Dispatch<SetStateAction<number>>;
    pick: (l: Localidad) => void;
  },
) {
  if (e.key === 'ArrowDown') {
    e.preventDefault();
    if (!s.open) s.setOpen(true);
    else s.setActive((a) => Math.min(a + 1, s.items.length - 1));
  } else if (e.key === 'ArrowUp') {
    e.preventDefault();
    s.setActive((a) => Math.max(a - 1, 0));
  } else if (e.key === 'Enter') {
    if (s.shown && s.items[s.active]) {
      e.preventDefault();
      s.pick(s.items[s.active]);
    } else e.currentTarget.blur();
  } else if (e.key === 'Escape') s.setOpen(false);
}

/**
 * The locality combobox (WAI-ARIA 1.2 "combobox with listbox popup", list autocomplete): typing 2+ letters searches
 * the province's localities; ArrowDown/ArrowUp move the active option, Enter or a click picks it, Escape closes the
 * list. A typed name that is exactly one locality's is taken as picked, and so is the only match when the visitor
 * leaves the field. The list is in the page's flow (it pushes what follows down, never covers the form's buttons).
 */
function LocalityCombobox(p: LocalityComboboxProps) {
  const { t } = useTranslation();
  const c = useLocalityCombobox(p);
  const { open, active, items, shown, canSearch } = c;
  const describedBy = [p.error ? `${p.id}__error` : '', `${p.id}__help`].filter(Boolean).join(' ');
  const help = comboboxHelp(t, {
    canSearch,
    loading: c.loading,
    searched: c.searched,
    picked: c.picked,
    none: !items.length,
    ambiguous: c.ambiguous,
    anyProvince: p.anyProvince,
    selectedName: c.selectedName,
    help: p.help,
  });
  return (
    <div className={`field combobox ${p.error ? 'field--invalid' : ''}`} data-field={p.name}>
      <label className="field__label" htmlFor={p.id}>
        {p.label}
      </label>
      <FieldError id={p.id} message={p.error} />
      <div className="input">
        <input
          id={p.id}
          className="input__control"
          role="combobox"
          aria-expanded={shown}
          aria-controls={c.listId}
          aria-autocomplete="list"
          aria-activedescendant={shown && items[active] ? `${c.listId}-${active}` : undefined}
          aria-invalid={!!p.error || undefined}
          aria-describedby={describedBy}
          autoComplete="off"
          placeholder={p.placeholder}
          disabled={!canSearch}
          value={c.text}
          onChange={(e) => c.type(e.target.value)}
          onFocus={c.enter}
          onBlur={c.leave}
          onKeyDown={(e) => comboboxKey(e, { open, shown, items, active, setOpen: c.setOpen, setActive: c.setActive, pick: c.pick })}
        />
      </div>
      <p className="field__help" id={`${p.id}__help`} aria-live="polite">
        {help}
      </p>
      {shown && <LocalityOptions listId={c.listId} label={p.label} items={items} active={active} shownName={c.shownName} pick={c.pick} />}
    </div>
  );
}

/**
 * The combobox's state: the typed text, the picked locality's name as shown (`selectedName`: a pick at once, before
 * the form holds it), whether the list is open and its active option, the search's results for the text, what they
 * mean (picked, searched, ambiguous) and the handlers that change them: `type` (the visitor typed), `enter`/`leave`
 * (focus and blur), `pick` (an option chosen).
 */
function useLocalityCombobox(p: LocalityComboboxProps) {
  const [text, setText] = useState(p.selectedName ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const focused = useRef(false);
  /** A pointer is down somewhere on the page (the blur a press causes waits for its release: see leave). */
  const pressed = usePointerPressed();
  const listId = useId();
  const onPick = useRef(p.onPick);
  onPick.current = p.onPick;

  const shownName = (l: Localidad) => (p.anyProvince ? (localidadMostrada(l) ?? l.nombre) : l.nombre);
  // the locality as the visitor just picked it, by its name: shown at once, while the form takes the pick in a
  // transition (the whole form re-renders with it; a tap never waits on a long task, as a plan's)
  const [selectedName, choosePick] = useTransitionalValue(p.selectedName, p.onPick, shownName);
  const typing = useTypedOverPicks(p.selectedName, onPick, setText);

  const q = text.trim();
  const picked = !!selectedName && text === selectedName;
  const canSearch = p.anyProvince || !!p.province;
  const wanted = canSearch && q.length >= 2 && !picked;
  // one search per text the visitor stopped typing for a moment; a newer text (or a pick) makes older answers void, and
  // the searching state ends with the search, whatever its outcome
  const { found, loading } = useLocalitySearch(wanted, q, p, () => setActive(0));

  const items = found && found.q === q ? found.items : [];
  // a typed name that is one locality's is that locality (also when the visitor left the field and it was the only match)
  useEffect(() => {
    if (!found || found.q !== q || picked) return;
    const match = localidadUnivoca(q, found.items, !focused.current);
    if (match) {
      typing.picked(false);
      onPick.current(match);
    }
  }, [found, q, picked, typing]);

  const pick = (l: Localidad) => {
    typing.picked(shownName(l) !== p.selectedName);
    setText(shownName(l));
    setOpen(false);
    choosePick(l);
  };
  const searched = !!found && found.q === q && !loading;
  const ambiguous = searched && !picked && !open && ambiguo(items, q);
  const type = (value: string) => {
    setText(value);
    setOpen(true);
    typing.typed();
  };
  const enter = () => {
    focused.current = true;
    setOpen(true);
  };
  const leave = () => {
    focused.current = false;
    // the list is in the page's flow: closing it moves what follows up. When a press (on «Continuar», say) took
    // the focus, the list closes once the press is over, so the button does not move between press and click
    const close = () => {
      if (focused.current) return;
      setOpen(false);
      const match = !picked && searched ? localidadUnivoca(q, items, true) : undefined;
      if (match) pick(match);
    };
    if (!pressed.current) return close();
    afterPress(close);
  };
  const shown = open && !picked && items.length > 0;
  return {
    text,
    selectedName,
    open,
    setOpen,
    active,
    setActive,
    listId,
    items,
    loading,
    picked,
    canSearch,
    searched,
    ambiguous,
    shown,
    shownName,
    pick,
    type,
    enter,
    leave,
  };
}

/**
 * The combobox's text and the picked locality kept in step as the visitor types. The text follows the answer when the
 * answer changes from outside (restored answers, a pick); typing undoes a pick and keeps what was typed (until November
 * 2026 one letter typed after a pick emptied the box: undoing the pick set the text to the empty answer). A pick still
 * on its way to the form when a key comes (it goes there in a transition) is undone once it lands.
 * @param onPick the field's latest pick handler (a ref: its functions are made once)
 * @returns `picked(landing)` (a pick made; `landing` when the answer will change with it) and `typed()` (the visitor
 *   changed the text)
 */
function useTypedOverPicks(
  selected: string | undefined,
  onPick: { readonly current: (l: Localidad | undefined) => void },
  setText: (t: string) => void,
) {
  const state = useRef({ landing: false, undoWhenLanded: false, keepText: false });
  const answer = useRef(selected);
  answer.current = selected;
  useEffect(() => {
    const s = state.current;
    s.landing = false;
    if (s.undoWhenLanded && selected) {
      // the pick typed over has landed: undone, the text left as typed
      s.undoWhenLanded = false;
      s.keepText = true;
      onPick.current(undefined);
      return;
    }
    if (s.keepText && !selected) {
      s.keepText = false;
      return;
    }
    s.keepText = false;
    setText(selected ?? '');
  }, [selected, setText, onPick]);
  // one object for the component's life (its functions read the refs)
  const [typing] = useState(() => ({
    picked: (landing: boolean) => void Object.assign(state.current, { landing, undoWhenLanded: false, keepText: false }),
    typed: () => {
      const s = state.current;
      if (s.landing) Object.assign(s, { landing: false, undoWhenLanded: true });
      else if (answer.current) {
        s.keepText = true;
        onPick.current(undefined);
      }
    },
  }));
  return typing;
}

/**
 * Whether typed text `q` names several of the results: several whose «name, province» it is, or none of those and
 * several whose name it is (accents and case aside).
 */
function ambiguo(items: Localidad[], q: string): boolean {
  const same = (full: boolean) =>
    items.filter((l) => nombreComparable(full ? `${l.nombre}, ${l.provincia ?? ''}` : l.nombre) === nombreComparable(q)).length;
  return same(true) > 1 || (same(true) === 0 && same(false) > 1);
}
