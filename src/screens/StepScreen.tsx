/**
 * Renders a step by its kind — landing, form, review, result — from the flow and es.json texts.
 * Nothing here names a concrete step.
 */
import { useUnit } from 'effector-react';
import { Suspense, useCallback, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { resolveBinding, when } from '../core/flow/bindings.ts';
import { getAt } from '../core/flow/pointer.ts';
import type { Step } from '../core/flow/types.ts';
import type { FlowEngine } from '../engine/model';
import { pesos } from '../core/money.ts';
import { formatDateAr } from '../core/dates.ts';
import { detalleCuotas } from '../core/cuotas.ts';
import { loadStepForm } from '../form/load';
import { LazyStepForm as StepForm } from '../form/LazyStepForm';
import { Icon } from '../form/widgets/Icon';
import { StepExtras } from './StepExtras';
import { conEnlaces } from '../app/enlaces';
import { useFrame } from './frame';

type Json = Record<string, unknown>;

/** Warms up the form engine chunk (src/boot/boot-ui.tsx calls it on the first interaction). */
export const prefetchForms = () => void loadStepForm();

function Heading({ step }: { step: Step }) {
  const { t, i18n } = useTranslation();
  const sub = i18n.exists(`${step.id}.bajada`) ? t(`${step.id}.bajada`) : null;
  return (
    <div className="step-head">
      <h1 className="step-title" tabIndex={-1}>
        {t(`${step.id}.titulo`)}
      </h1>
      {sub && <p className="step-lead">{sub}</p>}
    </div>
  );
}

/**
 * The step's legal notice (es.json › <step>.avisoLegal), always shown under the title: e.g. the Ley 25.326 notice
 * where personal data are first asked, the 10-day withdrawal right before buying. Marked words are links.
 */
function LegalNote({ step }: { step: Step }) {
  const { t, i18n } = useTranslation();
  if (!i18n.exists(`${step.id}.avisoLegal`)) return null;
  return (
    <p className="legal-note" data-testid="aviso-legal">
      {conEnlaces(t(`${step.id}.avisoLegal`), true)}
    </p>
  );
}

/** The step's notices whose condition holds (flow: `notices`). */
function Notices({ engine, step }: { engine: FlowEngine; step: Step }) {
  const { t } = useTranslation();
  const context = useUnit(engine.$context);
  const frame = useFrame();
  const shown = frame ? [] : (step.notices ?? []).filter((n) => when(engine.flow, n.when, context));
  return (
    <>
      {shown.map((n) => (
        <div key={n.text} className="banner banner--info" role="status">
          <Icon name="alerta" /> <span>{t(`${step.id}.avisos.${n.text}`)}</span>
        </div>
      ))}
    </>
  );
}

function BackButton({ engine, step }: { engine: FlowEngine; step: Step }) {
  const { t } = useTranslation();
  const back = useUnit(engine.backClicked);
  if (!step.back) return null;
  return (
    <button type="button" className="button button--ghost" onClick={() => back({ stepId: step.id })}>
      <Icon name="flecha" /> {t('app.volver')}
    </button>
  );
}

function Banner({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <div className="banner banner--error" role="alert">
      <Icon name="alerta" /> <span>{message}</span>
    </div>
  );
}

/**
 * The summary's box: the lines a flow summary defines, in one place for the real summary and its placeholder.
 * `values` undefined is the placeholder (a step's frame, before the journey is restored): every line the summary `def`
 * defines is there, values blank, so the real box later takes its place without moving anything (on a phone what wraps
 * with the values keeps its room, and the amount has a column of its own width: styles.css › .summary__note--total). On a live step
 * (`live`, step `onChange`) the "recalculating" line keeps its room while hidden, so re-pricing never moves the form.
 * Amounts in ARS (formatted es-AR), `since` an ISO date.
 */
function SummaryBox({
  def,
  live,
  values,
}: {
  def: NonNullable<FlowEngine['flow']['summaries']>[string];
  live?: boolean;
  values?: { title: string; amount: unknown; total?: unknown; since?: string; repricing: boolean };
}) {
  const { t } = useTranslation();
  const blank = '\u00a0';
  const repricing = values?.repricing ?? false;
  const hasTotal = values ? values.total !== undefined : !!def.total;
  const hasSince = values ? !!values.since : !!def.since;
  return (
    <aside
      className={`summary${values ? '' : ' summary--placeholder'}`}
      {...(values ? { 'aria-live': 'polite' as const, 'aria-busy': repricing } : { 'aria-hidden': true })}
    >
      <p className="summary__title">{t('app.resumen.titulo')}</p>
      <p className="summary__plan">{values ? values.title : blank}</p>
      <p className="summary__price">
        <span className="summary__amount" {...(values ? { 'data-testid': 'premio-cuota' } : {})}>
          {values ? pesos(values.amount) : blank}
        </span>{' '}
        <span>{t('app.resumen.porMes')}</span>
      </p>
      {hasTotal && (
        <p className="summary__note summary__note--total">{values ? t('app.resumen.total', { monto: pesos(values.total) }) : blank}</p>
      )}
      {live ? (
        <p className={`summary__note ${repricing ? '' : 'is-hidden'}`} aria-hidden={!repricing}>
          {values ? t('app.recotizando') : blank}
        </p>
      ) : (
        repricing && <p className="summary__note">{t('app.recotizando')}</p>
      )}
      {hasSince && (
        <p className="summary__note">{values?.since ? t('app.resumen.vigencia', { fecha: formatDateAr(values.since) }) : blank}</p>
      )}
    </aside>
  );
}

/**
 * A flow-level summary (title, monthly amount, start date) beside the form (step `summary`), read from the journey;
 * in a step's frame its box with no values ({@link SummaryBox}), the same element the values later fill in place.
 */
function Summary({ engine, name, live }: { engine: FlowEngine; name: string; live?: boolean }) {
  const [context, repricing] = useUnit([engine.$context, engine.$repricing]);
  const frame = useFrame();
  const def = engine.flow.summaries?.[name];
  if (def && frame) return <SummaryBox def={def} live={live} />;
  const title = def ? (getAt(context, def.title) as string | undefined) : undefined;
  if (!def || !title) return null;
  const values = {
    title,
    amount: getAt(context, def.amount),
    total: def.total ? getAt(context, def.total) : undefined,
    since: def.since ? (getAt(context, def.since) as string | undefined) : undefined,
    repricing,
  };
  return <SummaryBox def={def} live={live} values={values} />;
}

/** The step's submit label: es.json › <step>.cta, else "Continuar". */
function useSubmitLabel(step: Step): string {
  const { t, i18n } = useTranslation();
  return i18n.exists(`${step.id}.cta`) ? t(`${step.id}.cta`) : t('app.continuar');
}

/**
 * Shell shared by form and review steps: heading, legal note, notices, error banner, the content, and the summary
 * aside. In a step's frame (src/screens/frame.ts: prerendered, and its hydration) it shows what needs no journey —
 * heading, legal note, the summary's empty box — and a placeholder instead of `children`; it is the same element tree once
 * the journey is restored, so React fills it in place: the texts painted first (often the page's largest, LCP) are
 * not replaced by new elements, and nothing moves.
 */
function StepFrame({
  engine,
  step,
  banner,
  children,
}: {
  engine: FlowEngine;
  step: Step;
  banner: string | null | undefined;
  children: ReactNode;
}) {
  const frame = useFrame();
  return (
    <div className={`step step--${step.id} ${step.summary ? 'step--with-summary' : ''} ${step.onChange ? 'step--live' : ''}`}>
      <div className="step__body">
        <Heading step={step} />
        <LegalNote step={step} />
        <Notices engine={engine} step={step} />
        <Banner message={frame ? null : banner} />
        {frame ? <div className="form-skeleton" aria-busy="true" /> : children}
      </div>
      {step.summary && <Summary engine={engine} name={step.summary} live={!!step.onChange} />}
    </div>
  );
}

function LandingScreen({ engine, step }: { engine: FlowEngine; step: Step }) {
  const { t } = useTranslation();
  const submit = useUnit(engine.stepSubmitted);
  const benefits = t(`${step.id}.beneficios`, { returnObjects: true }) as string[];
  return (
    <section className="hero">
      <h1 className="hero__title" tabIndex={-1}>
        {t(`${step.id}.titulo`)}
      </h1>
      <p className="hero__lead">{t(`${step.id}.bajada`)}</p>
      <ul className="hero__list">
        {Array.isArray(benefits) &&
          benefits.map((b) => (
            <li key={b}>
              <Icon name="check" /> {b}
            </li>
          ))}
      </ul>
      <button type="button" className="button button--primary button--large" onClick={() => submit({ stepId: step.id, formData: {} })}>
        {t(`${step.id}.cta`)}
      </button>
      <p className="hero__note">{t(`${step.id}.aclaracion`)}</p>
    </section>
  );
}

function FormScreen({ engine, step }: { engine: FlowEngine; step: Step }) {
  const { t, i18n } = useTranslation();
  const [context, errors, submit, change, runCall] = useUnit([
    engine.$context,
    engine.$errors,
    engine.stepSubmitted,
    engine.fieldsChanged,
    engine.callFx,
  ]);
  const callFlow = useCallback((name: string, input?: Json) => runCall({ name, input }), [runCall]);
  const submitLabel = useSubmitLabel(step);
  const defaults = step.defaults ? (resolveBinding(step.defaults, context) as Json) : {};
  const formData = { ...defaults, ...context.answers[step.id] };
  const stepErrors = errors[step.id];
  return (
    <StepFrame engine={engine} step={step} banner={stepErrors?.banner}>
      <Suspense fallback={<div className="form-skeleton" aria-busy="true" />}>
        <StepForm
          key={step.id}
          stepId={step.id}
          formData={formData}
          serverErrors={stepErrors?.fields}
          context={context}
          call={callFlow}
          submitLabel={submitLabel}
          onChange={step.onChange ? (d) => change({ stepId: step.id, formData: d }) : undefined}
          onSubmit={(d) => submit({ stepId: step.id, formData: d })}
        >
          <BackButton engine={engine} step={step} />
        </StepForm>
        {/* inside the boundary: they appear with the form, never pushed down by it after being painted */}
        <StepExtras engine={engine} step={step} />
        {i18n.exists(`${step.id}.nota`) && (
          <p className="note">
            <Icon name="candado" /> {t(`${step.id}.nota`)}
          </p>
        )}
      </Suspense>
    </StepFrame>
  );
}

function formatValue(value: unknown, format?: string): string {
  if (value === undefined || value === null || value === '') return '—';
  if (format === 'currency') return pesos(value);
  if (format === 'date' && typeof value === 'string') return formatDateAr(value);
  // a plan (`premioCuota`, `ultimaCuota`, `cuotas`): its installments, e.g. "11 cuotas de $ X y una de $ Y"
  if (format === 'cuotas' && typeof value === 'object' && typeof (value as Json).premioCuota === 'number')
    return detalleCuotas(value as Parameters<typeof detalleCuotas>[0]);
  return String(value);
}

function ReviewScreen({ engine, step }: { engine: FlowEngine; step: Step }) {
  const { t } = useTranslation();
  const [context, errors, submit, edit] = useUnit([engine.$context, engine.$errors, engine.stepSubmitted, engine.editClicked]);
  const submitLabel = useSubmitLabel(step);
  return (
    <StepFrame engine={engine} step={step} banner={errors[step.id]?.banner}>
      {(step.review ?? []).map((section) => (
        <section key={section.title} className="review">
          <div className="review__head">
            <h2 className="review__title">{t(`${step.id}.secciones.${section.title}`)}</h2>
            {section.edit && (
              <button type="button" className="link-button" onClick={() => edit({ stepId: section.edit as string })}>
                {t(`${step.id}.editar`)}
                <span className="visually-hidden"> {t(`${step.id}.secciones.${section.title}`)}</span>
              </button>
            )}
          </div>
          <dl className="review__rows">
            {section.rows.map((row) => (
              <div key={row.label} className="review__row">
                <dt>{t(`${step.id}.filas.${row.label}`)}</dt>
                <dd>{formatValue(resolveBinding(row.value, context), row.format)}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <form
        className="actions"
        onSubmit={(e) => {
          e.preventDefault();
          submit({ stepId: step.id, formData: {} });
        }}
      >
        <button type="submit" className="button button--primary">
          {submitLabel}
        </button>
        <BackButton engine={engine} step={step} />
      </form>
    </StepFrame>
  );
}

/**
 * A result step. Its frame (src/screens/frame.ts), before the journey is restored (prerendered HTML and its hydration) — its icon, title and
 * lead with "…" for each value the journey supplies, and a placeholder for the rest. The frame and the result are one
 * component, so when the journey arrives React fills the same elements in place: the lead painted first stays the
 * page's largest text (LCP), no new element replaces it.
 */
function ResultScreen({ engine, step }: { engine: FlowEngine; step: Step }) {
  const { t, i18n } = useTranslation();
  const frame = useFrame();
  const [journey, restart, open] = useUnit([engine.$context, engine.restartClicked, engine.editClicked]);
  // a frame depends on no journey state: it must equal its prerendered HTML whatever was restored
  const context = frame ? {} : journey;
  const values = step.result?.values ? (resolveBinding(step.result.values, context) as Record<string, string>) : {};
  const rows = step.result?.rows ? (resolveBinding(step.result.rows, context) as Record<string, string>) : {};
  const message = (step.result?.message ?? []).map((p) => getAt(context, p)).find((v) => typeof v === 'string' && v);
  const tone = step.result?.tone ?? 'success';
  const success = tone === 'success';
  return (
    <section className={`result result--${tone}`}>
      <span className="result__icon">
        <Icon name={success ? 'check' : 'alerta'} />
      </span>
      <h1 className="result__title" tabIndex={-1}>
        {t(`${step.id}.titulo`)}
      </h1>
      <p className="result__lead">{frame ? t(`${step.id}.bajada`).replace(/\{\{[^}]*\}\}/g, '…') : t(`${step.id}.bajada`, values)}</p>
      {frame && <div className="form-skeleton" aria-busy="true" />}
      {typeof message === 'string' && (
        <p className={`banner ${success ? 'banner--info' : 'banner--error'}`} role="status">
          {message}
        </p>
      )}
      {Object.keys(rows).length > 0 && (
        <dl className="result__data">
          {Object.entries(rows).map(([k, v]) => (
            <div key={k} className="review__row">
              <dt>{t(`${step.id}.filas.${k}`)}</dt>
              <dd data-testid={k}>{v}</dd>
            </div>
          ))}
        </dl>
      )}
      {!frame && <StepExtras engine={engine} step={step} />}
      <div className="result__actions">
        {!frame &&
          (step.actions ?? []).map((a) => (
            <button key={a.text} type="button" className="button button--primary" onClick={() => open({ stepId: a.to })}>
              {t(`${step.id}.acciones.${a.text}`)}
            </button>
          ))}
        {!frame && i18n.exists(`${step.id}.cta`) && (
          <button
            type="button"
            className={`button ${step.actions?.length ? 'button--ghost' : 'button--primary'}`}
            onClick={() => restart()}
          >
            {t(`${step.id}.cta`)}
          </button>
        )}
      </div>
    </section>
  );
}

/**
 * The screen of `step` by its kind. Before the journey is restored (its frame, src/screens/frame.ts) a landing shows
 * whole (it needs no journey); a form or review step shows {@link StepFrame}'s frame, a result step ResultScreen's.
 */
export function StepScreen({ engine, step }: { engine: FlowEngine; step: Step }) {
  // each kind renders its own frame, as the same element tree it fills once the journey is restored
  switch (step.kind) {
    case 'landing':
      return <LandingScreen engine={engine} step={step} />;
    case 'form':
      return <FormScreen engine={engine} step={step} />;
    case 'review':
      return <ReviewScreen engine={engine} step={step} />;
    case 'result':
      return <ResultScreen engine={engine} step={step} />;
  }
}
