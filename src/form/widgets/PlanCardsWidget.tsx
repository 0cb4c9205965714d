/**
 * The quote's plans as selectable cards: name, monthly premium (premioCuota) in es-AR currency and
 * the coverages with their sums insured. Plans come from the engine context at `ui:options.plans`.
 * A tap on a plan marks it at once (an optimistic value, one small render of the cards) and hands the choice to the
 * form in a transition, which React renders in slices with the coverage list it opens (no long task on a tap).
 */
import type { WidgetProps } from '@rjsf/utils';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getAt } from '../../core/flow/pointer.ts';
import { pesos } from '../../core/money.ts';
import { detalleCuotas } from '../../core/cuotas.ts';
import type { FormContext } from '../context';
import { Icon } from './Icon';
import { useTransitionalValue } from './transitional';

export interface Cobertura {
  codCobertura: string;
  descCobertura: string;
  sumaAsegurada: number;
  sumaAseguradaString: string;
  mostrar: string;
  textoWeb: string;
  selecc: string;
  primaCobertura?: number;
  /** Optional coverages: what the monthly installment goes up by, taxes included. */
  premioCuotaAdicional?: number;
}

export interface Plan {
  codPlan: string;
  nombre: string;
  descripcion?: string;
  recomendado?: boolean;
  premio: number;
  premioCuota: number;
  ultimaCuota?: number;
  cuotas?: number;
  coberturas: Record<'primary' | 'secondary' | 'urgencyAssistance' | 'optional', Cobertura[]>;
}

export function CoverageList({ plan }: { plan: Plan }) {
  const { t } = useTranslation();
  return (
    <div className="coverages">
      {(['primary', 'secondary', 'urgencyAssistance'] as const).map((group) => {
        const items = (plan.coberturas?.[group] ?? []).filter((c) => c.mostrar !== 'N');
        if (!items.length) return null;
        return (
          <div key={group} className="coverages__group">
            <p className="coverages__title">{t(`widgets.planes.grupos.${group}`)}</p>
            <ul>
              {items.map((c) => (
                <li key={c.codCobertura} className="coverage">
                  <Icon name="check" className="coverage__icon" />
                  <span className="coverage__name">{c.descCobertura}</span>
                  {c.sumaAsegurada > 0 && <span className="coverage__sum">{c.sumaAseguradaString}</span>}
                  {c.textoWeb && <span className="coverage__text">{c.textoWeb}</span>}
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}

export function PlanCardsWidget({ id, value, onChange, registry, options }: WidgetProps) {
  const { t } = useTranslation();
  const ctx = registry.formContext as FormContext;
  const plans = (getAt(ctx.context, String(options.plans)) as Plan[] | undefined) ?? [];
  const [open, setOpen] = useState<string | null>(null);
  // the plan the visitor just tapped is marked at once; the coverage list it opens follows the form's value
  const [marked, choose] = useTransitionalValue<string | undefined>(value as string | undefined, onChange);
  return (
    <div className="plans" role="radiogroup" aria-label={t(`${ctx.stepId}.titulo`)}>
      {plans.map((plan) => {
        const checked = marked === plan.codPlan;
        const optId = `${id}-${plan.codPlan}`;
        const expanded = open === plan.codPlan || (open === null && value === plan.codPlan);
        return (
          <div
            key={plan.codPlan}
            className={`plan ${checked ? 'plan--checked' : ''} ${plan.recomendado ? 'plan--recommended' : ''}`}
            data-plan={plan.codPlan}
          >
            {plan.recomendado && <span className="plan__badge">{t('widgets.planes.recomendado')}</span>}
            <label className="plan__head" htmlFor={optId}>
              <input
                type="radio"
                className="choice__input"
                id={optId}
                name={id}
                value={plan.codPlan}
                checked={checked}
                onChange={() => choose(plan.codPlan)}
              />
              <span className="plan__name">{plan.nombre}</span>
              {plan.descripcion && <span className="plan__desc">{plan.descripcion}</span>}
              <span className="plan__price">
                <span className="plan__amount">{pesos(plan.premioCuota)}</span>
                <span className="plan__period">{t('widgets.planes.porMes')}</span>
              </span>
              <span className="plan__total">
                {t('widgets.planes.premioAnual', { monto: pesos(plan.premio), detalle: detalleCuotas(plan) })}
              </span>
              <span className="plan__select" aria-hidden="true">
                {checked ? t('widgets.planes.elegido') : t('widgets.planes.elegir')}
              </span>
            </label>
            <button
              type="button"
              className="link-button plan__toggle"
              aria-expanded={expanded}
              onClick={() => setOpen(expanded ? '' : plan.codPlan)}
            >
              {expanded ? t('widgets.planes.ocultarCoberturas') : t('widgets.planes.verCoberturas')}
            </button>
            {expanded && <CoverageList plan={plan} />}
          </div>
        );
      })}
    </div>
  );
}
