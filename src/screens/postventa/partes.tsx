/**
 * The parts the after-sale screens share (TramiteScreen, ConsultaScreen): the form page around a standalone form of
 * the flow, and the line that says until when a withdrawal is still open after a baja.
 * Texts: src/i18n/es.json › postventa.formulario.*, legal.bajaArrepentimientoHasta, legal.botones.arrepentimiento.
 */
import { Suspense, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PaginaSimple } from '../../app/Legal';
import { formatDateAr } from '../../core/dates.ts';
import { RUTAS_POSTVENTA } from '../../core/rutas.ts';
import { LazyStepForm } from '../../form/LazyStepForm';
import { Icon } from '../../form/widgets/Icon';
import type { useStandaloneForm } from './useStandaloneForm';

/**
 * The page of an after-sale form: its title (focused through `titulo`), lead, `aviso` (e.g. the baja's notice), the
 * "no account needed" note, the server's error banner, the form itself (StepForm, loaded lazily) and `pie` under it.
 * @param estado what useStandaloneForm returns for the form
 * @param submitLabel the button's text (the caller's "sending…" text while `estado.sending`)
 */
export function FormularioPostventa(p: {
  titulo: RefObject<HTMLHeadingElement | null>;
  encabezado: string;
  bajada: string;
  aviso?: ReactNode;
  estado: Omit<ReturnType<typeof useStandaloneForm>, 'result'>;
  submitLabel: string;
  formKey?: string;
  pie?: ReactNode;
}) {
  const { t } = useTranslation();
  const { form, context, call, answers, errors, banner, send } = p.estado;
  return (
    <PaginaSimple>
      <div className="step step--postventa">
        <div className="step__body">
          <div className="step-head">
            <h1 className="step-title" tabIndex={-1} ref={p.titulo}>
              {p.encabezado}
            </h1>
            <p className="step-lead">{p.bajada}</p>
            {p.aviso}
            <p className="note">
              <Icon name="candado" /> {t('postventa.formulario.sinCuenta')}
            </p>
          </div>
          {banner && (
            <div className="banner banner--error" role="alert">
              <Icon name="alerta" /> <span>{banner}</span>
            </div>
          )}
          {form && (
            <Suspense fallback={<div className="form-skeleton" aria-busy="true" />}>
              <LazyStepForm
                key={p.formKey}
                stepId={form.schema}
                formData={answers}
                serverErrors={errors}
                context={context}
                call={call}
                submitLabel={p.submitLabel}
                onSubmit={(answers) => void send(answers)}
              />
            </Suspense>
          )}
          {p.pie}
        </div>
      </div>
    </PaginaSimple>
  );
}

/** After a baja inside the 10 days: until when (`hasta`, YYYY-MM-DD) the withdrawal is still open, with its link. */
export function ArrepentimientoAbierto({ hasta }: { hasta?: string }) {
  const { t } = useTranslation();
  if (!hasta) return null;
  return (
    <p className="result__lead">
      {t('legal.bajaArrepentimientoHasta', { hasta: formatDateAr(hasta) })}{' '}
      <Link to={RUTAS_POSTVENTA.arrepentimiento}>{t('legal.botones.arrepentimiento')}</Link>
    </p>
  );
}
