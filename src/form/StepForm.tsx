/**
 * The one place that imports @rjsf/* (CONVENTIONS §6): renders a step's JSON Schema with our
 * widgets and templates, validates with the step's precompiled validator, shows Spanish messages
 * (field-specific from es.json, else generic), and shows server-side check errors on their field.
 */
import Form from '@rjsf/core';
import type { ErrorSchema, RegistryFieldsType, RegistryWidgetsType, RJSFSchema, RJSFValidationError, UiSchema } from '@rjsf/utils';
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import { use, useCallback, useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { FlowContext } from '../core/flow/types.ts';
import { pruneExcluded } from './conditions';
import { errorMessage, localizeUiSchema } from './localize';
import { templates } from './templates';
import type { CallFlow, FormContext, HoldSubmit } from './context';
export type { FormContext } from './context';
import { loadStep } from './validators';
import { CardExpiryWidget } from './widgets/CardExpiryWidget';
import { CardNumberWidget } from './widgets/CardNumberWidget';
import { CheckboxWidget } from './widgets/CheckboxWidget';
import { ChoiceCardsWidget } from './widgets/ChoiceCardsWidget';
import { CoverageTogglesWidget } from './widgets/CoverageTogglesWidget';
import { DateWidget } from './widgets/DateWidget';
import { LocationField } from './widgets/LocationField';
import { PhoneField } from './widgets/PhoneField';
import { PlanCardsWidget } from './widgets/PlanCardsWidget';
import { UnitNumberWidget } from './widgets/UnitNumberWidget';
import { YesNoWidget } from './widgets/YesNoWidget';
import { FIELDS, WIDGETS } from './widgets/registry';

type Json = Record<string, unknown>;

/** One component per name of the widget registry (widgets/registry.ts); `select` is RJSF's own. */
const widgets = {
  ChoiceCardsWidget,
  YesNoWidget,
  CheckboxWidget,
  checkbox: CheckboxWidget,
  DateWidget,
  UnitNumberWidget,
  CardNumberWidget,
  CardExpiryWidget,
  PlanCardsWidget,
  CoverageTogglesWidget,
} satisfies Record<Exclude<keyof typeof WIDGETS, 'select'>, unknown> as RegistryWidgetsType;
const fields = { LocationField, PhoneField } satisfies Record<keyof typeof FIELDS, unknown> as RegistryFieldsType;

export interface StepFormProps {
  /** The step whose schemas/<step>.schema.json, .ui.json and precompiled validator are rendered (loaded on demand). */
  stepId: string;
  formData: Json;
  /** Messages from the server's checks, by top-level field name. */
  serverErrors?: Record<string, string>;
  context: FlowContext;
  /** Runs a flow call by name for a widget (e.g. the locality lists). */
  call: CallFlow;
  submitLabel: string;
  /**
   * Every change of the answers (a live step's re-pricing), told in the task after the one that handled the tap, the
   * latest answers only: the tap paints first, the engine's work follows (a tap never waits on a long task).
   */
  onChange?: (data: Json) => void;
  onSubmit: (data: Json) => void;
  children?: ReactNode;
}

/**
 * `notify` called in a later task with the latest value passed since the last call (one call per burst of changes);
 * none once the component is gone.
 */
function useLatestInNextTask(notify: ((data: Json) => void) | undefined): (data: Json) => void {
  const latest = useRef<{ data: Json } | null>(null);
  const target = useRef(notify);
  target.current = notify;
  useEffect(() => () => void (latest.current = null), []);
  return useCallback((data: Json) => {
    if (!target.current) return;
    const pending = latest.current !== null;
    latest.current = { data };
    if (pending) return;
    setTimeout(() => {
      const value = latest.current;
      latest.current = null;
      if (value) target.current?.(value.data);
    }, 0);
  }, []);
}

export function StepForm(props: StepFormProps) {
  const { stepId, formData, serverErrors, context, call, submitLabel, onChange, onSubmit, children } = props;
  const { t, i18n } = useTranslation();
  // suspends until the step's validator and schemas are here: the whole step (form and what follows it) appears at once,
  // nothing painted below the form is pushed down by it afterwards (no layout shift)
  const { validateFns: fns, schema, uiSchema } = use(loadStep(stepId));
  // The answers as the form holds them. A change re-renders this component only when pruning took something out, so
  // RJSF's state drops the hidden value as the engine's answers do; otherwise RJSF already holds what it emitted, and
  // handing it back as a new prop would make it derive its whole state again on every tap (a tap never waits on a long task).
  const data = useRef<Json>(formData);
  const [, setPruned] = useState(0);
  // After a failed submit the form validates on every change, so an error goes as soon as its field is right (GOV.UK:
  // nothing is checked before the visitor first submits)
  const [submitFailed, setSubmitFailed] = useState(false);
  const form = useRef<Form>(null);
  const tell = useLatestInNextTask(onChange);

  const validator = useMemo(() => createPrecompiledValidator(fns, schema as RJSFSchema), [fns, schema]);
  const ui = useMemo(() => {
    // through t(): the insurer's data (config/aseguradora.json, i18n default placeholders) fill labels and helps
    const texts = (i18n.exists(`${stepId}.fields`) ? i18n.t(`${stepId}.fields`, { returnObjects: true }) : undefined) as Parameters<
      typeof localizeUiSchema
    >[2];
    const localized = localizeUiSchema(schema, uiSchema, texts);
    return { ...localized, 'ui:submitButtonOptions': { submitText: submitLabel } } as UiSchema;
  }, [schema, uiSchema, stepId, submitLabel, i18n]);

  const extraErrors = useMemo(() => {
    const out: Json = {};
    for (const [field, message] of Object.entries(serverErrors ?? {})) out[field] = { __errors: [message] };
    return out as ErrorSchema;
  }, [serverErrors]);

  const transformErrors = (errors: RJSFValidationError[]) =>
    errors
      .filter((e) => e.name !== 'if' && e.name !== 'allOf')
      .map((e) => ({ ...e, message: errorMessage(t, stepId, e.property ?? '', e.name ?? 'type', (e.params ?? {}) as Json, schema) }));

  const prune = (d: unknown) => pruneExcluded(validator, schema as RJSFSchema, (d ?? {}) as Json);
  const holdSubmit = useHeldSubmits(form);
  const formContext = useMemo<FormContext>(() => ({ stepId, context, call, holdSubmit }), [stepId, context, call, holdSubmit]);
  return (
    <Form
      schema={schema as RJSFSchema}
      uiSchema={ui}
      formData={data.current}
      validator={validator}
      widgets={widgets}
      fields={fields}
      templates={templates}
      formContext={formContext}
      extraErrors={extraErrors}
      transformErrors={transformErrors}
      experimental_defaultFormStateBehavior={{ constAsDefaults: 'never', requiredBooleanDefault: 'skip' }}
      showErrorList="top"
      liveValidate={submitFailed ? 'onChange' : undefined}
      ref={form}
      onError={() => {
        setSubmitFailed(true);
        // a failed submit moves focus to the error summary (GOV.UK), whose links lead to each field
        (form.current?.formElement.current as HTMLFormElement | null)?.querySelector<HTMLElement>('.error-summary')?.focus();
      }}
      noHtml5Validate
      idPrefix={stepId}
      onChange={(e) => {
        const emitted = (e.formData ?? {}) as Json;
        const next = prune(emitted);
        data.current = next;
        if (next !== emitted) setPruned((n) => n + 1);
        tell(next);
      }}
      onSubmit={(e) => onSubmit(prune(e.formData))}
    >
      <div className="actions">
        <button type="submit" className="button button--primary">
          {submitLabel}
        </button>
        {children}
      </div>
    </Form>
  );
}

/**
 * The submits a widget holds (FormContext › holdSubmit): while some widget still owes the answers work, a submit is
 * stopped on the form element itself, before React hands it to RJSF, and made again once that work is done; so RJSF
 * validates what the visitor typed instead of failing on a value not written yet, and the tap is not lost.
 * @returns the form context's `holdSubmit`
 */
function useHeldSubmits(form: RefObject<Form | null>): HoldSubmit {
  const owed = useRef(new Set<Promise<unknown>>()).current;
  useEffect(() => {
    const element = form.current?.formElement.current as HTMLFormElement | null | undefined;
    if (!element) return;
    const stop = (e: SubmitEvent) => {
      if (owed.size === 0) return;
      e.preventDefault();
      e.stopPropagation();
      void Promise.allSettled(owed).then(() => element.requestSubmit());
    };
    element.addEventListener('submit', stop);
    return () => element.removeEventListener('submit', stop);
  }, [form, owed]);
  return useCallback(
    (work: Promise<unknown>) => {
      owed.add(work);
      const done = () => owed.delete(work);
      work.then(done, done);
    },
    [owed],
  );
}
