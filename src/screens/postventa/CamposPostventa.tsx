/**
 * The text fields of the after-sale forms (botón de arrepentimiento / baja, lookup of a tracking code): label, help,
 * the field's error linked by aria-describedby, and the input. One component so both screens render a field the same
 * accessible way (GOV.UK pattern: help, then error, then input).
 */
import { useTranslation } from 'react-i18next';

/** One field: its name (the request's property), autocomplete, keyboard and input type. */
export interface CampoPostventa {
  name: string;
  autoComplete: string;
  inputMode: 'text' | 'numeric' | 'email';
  type?: 'text' | 'email';
  autoCapitalize?: 'characters' | 'none';
}

/**
 * @param prefijo id prefix of the inputs (`<prefijo>-<name>`) @param textos es.json area with `<name>` (label) and
 *   `<name>Ayuda` (help) @param valores the typed values by name @param errores the field errors by name
 */
export function CamposPostventa({ campos, prefijo, textos, valores, errores, onChange }: {
  campos: CampoPostventa[];
  prefijo: string;
  textos: string;
  valores: Record<string, string>;
  errores: Record<string, string | undefined>;
  onChange: (name: string, value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      {campos.map((c) => {
        const id = `${prefijo}-${c.name}`;
        const error = errores[c.name];
        return (
          <div className="field" key={c.name}>
            <label className="field__label" htmlFor={id}>{t(`${textos}.${c.name}`)}</label>
            <p className="field__help" id={`${id}__help`}>{t(`${textos}.${c.name}Ayuda`)}</p>
            {error && <p className="field__error" id={`${id}__error`}><span className="visually-hidden">Error: </span>{error}</p>}
            <div className="input">
              <input
                id={id}
                name={c.name}
                className="input__control"
                type={c.type ?? 'text'}
                inputMode={c.inputMode}
                autoComplete={c.autoComplete}
                autoCapitalize={c.autoCapitalize}
                spellCheck={c.autoCapitalize ? false : undefined}
                value={valores[c.name]}
                aria-invalid={error ? true : undefined}
                aria-describedby={`${id}__help${error ? ` ${id}__error` : ''}`}
                onChange={(e) => onChange(c.name, e.target.value)}
              />
            </div>
          </div>
        );
      })}
    </>
  );
}
