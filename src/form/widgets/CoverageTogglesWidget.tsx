/**
 * Optional coverages of the chosen plan as switches; the value is the list of chosen codCobertura.
 * The flow re-prices on change (`onChange` calls of the step). A switch flips at once; the form gets the new list in a
 * transition (src/form/widgets/transitional.ts).
 */
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { getAt } from '../../core/flow/pointer.ts';
import { pesos } from '../../core/money.ts';
import type { FormContext } from '../context';
import type { Cobertura } from './PlanCardsWidget';
import { useTransitionalValue } from './transitional';

export function CoverageTogglesWidget({ id, value, onChange, registry, options }: WidgetProps) {
  const { t } = useTranslation();
  const ctx = registry.formContext as FormContext;
  const coverages = (getAt(ctx.context, String(options.coverages)) as Cobertura[] | undefined) ?? [];
  const [shown, choose] = useTransitionalValue<unknown>(value, onChange);
  const chosen: string[] = Array.isArray(shown) ? shown : [];
  if (!coverages.length) return <p className="muted">{t('widgets.coberturas.sinAdicionales')}</p>;
  return (
    <ul className="toggles">
      {coverages.map((c) => {
        const on = chosen.includes(c.codCobertura);
        const optId = `${id}-${c.codCobertura}`;
        return (
          <li key={c.codCobertura} className={`toggle ${on ? 'toggle--on' : ''}`}>
            <label htmlFor={optId} className="toggle__label">
              <span className="toggle__text">
                <span className="toggle__name">{c.descCobertura}</span>
                {c.textoWeb && <span className="toggle__desc">{c.textoWeb}</span>}
                <span className="toggle__sum">{c.sumaAseguradaString}</span>
                {typeof c.premioCuotaAdicional === 'number' && (
                  <span className="toggle__price">{t('widgets.coberturas.porMes', { monto: pesos(c.premioCuotaAdicional) })}</span>
                )}
              </span>
              <span className="toggle__side">
                <input
                  type="checkbox"
                  role="switch"
                  id={optId}
                  name={id}
                  value={c.codCobertura}
                  className="switch"
                  checked={on}
                  aria-checked={on}
                  onChange={() => choose(on ? chosen.filter((x) => x !== c.codCobertura) : [...chosen, c.codCobertura])}
                />
              </span>
            </label>
          </li>
        );
      })}
    </ul>
  );
}
