/**
 * A standalone form of the flow (flow.json › forms.<id>) sent through its call: what the after-sale screens share.
 * `answers` are the ones last sent (the form's data when it is shown again).
 * `send(answers)` runs the form's call with the answers at `/input`, one request at a time; on success `result` is the
 * reply, on failure the server's field errors go by form field (through the call's bindings: calls.ts ›
 * inputFieldErrors) and anything else is the banner (the error's Spanish message, else es.json › errors.generic).
 */
import { useUnit } from 'effector-react';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { inputFieldErrors } from '../../engine/calls';
import type { FlowEngine } from '../../engine/model';

type Json = Record<string, unknown>;

export function useStandaloneForm<R>(engine: FlowEngine, id: string) {
  const { t } = useTranslation();
  const form = engine.flow.forms?.[id];
  const [context, runCall] = useUnit([engine.$context, engine.callFx]);
  /** The flow's calls for the form's widgets (as on a step). */
  const call = useCallback((name: string, input?: Json) => runCall({ name, input }), [runCall]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<string | null>(form ? null : t('errors.generic'));
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<R | null>(null);
  /** The answers last sent: the form shows them again when it comes back (e.g. "look up another"). */
  const [answers, setAnswers] = useState<Json>({});
  const send = async (answers: Json) => {
    if (!form || sending) return;
    setAnswers(answers);
    setErrors({});
    setBanner(null);
    setSending(true);
    try {
      setResult((await runCall({ name: form.call, input: answers })) as R);
    } catch (err) {
      const { fields, rest } = inputFieldErrors(engine.flow.calls[form.call], err instanceof ApiError ? err.errors : []);
      setErrors(fields);
      setBanner(Object.keys(fields).length && !rest.length ? null : (err as Error)?.message || t('errors.generic'));
    } finally {
      setSending(false);
    }
  };
  return { form, context, call, answers, errors, banner, sending, result, send, reset: () => setResult(null) };
}
