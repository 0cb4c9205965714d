/**
 * A step's `extras` (flow): download links to API documents and calls run in place (e.g. "Enviarme la cotización"),
 * with their texts from es.json › <step>.extras.*. Nothing here names a concrete step.
 */
import { useUnit } from 'effector-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_BASE } from '../api/client';
import { api } from '../api/instance';
import type { Step } from '../core/flow/types.ts';
import { buildRequest } from '../engine/calls';
import type { FlowEngine } from '../engine/model';
import { Icon } from '../form/widgets/Icon';

type Estado = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; message: string } | { kind: 'error'; message: string };

function CallExtra({ engine, step, text, call, done }: { engine: FlowEngine; step: Step; text: string; call: string; done: string }) {
  const { t } = useTranslation();
  const context = useUnit(engine.$context);
  const [estado, setEstado] = useState<Estado>({ kind: 'idle' });
  const run = async () => {
    setEstado({ kind: 'busy' });
    try {
      const req = buildRequest(engine.flow.calls[call], context);
      const reply = (req.method === 'GET' ? await api.get(req.path, req.query) : await api.post(req.path, req.body)) as Record<
        string,
        unknown
      >;
      setEstado({ kind: 'done', message: t(`${step.id}.extras.${done}`, reply) });
    } catch (err) {
      setEstado({ kind: 'error', message: (err as Error)?.message || t('errors.generic') });
    }
  };
  return (
    <div className="extra">
      <button
        type="button"
        className="button button--ghost"
        onClick={run}
        disabled={estado.kind === 'busy' || estado.kind === 'done'}
        aria-busy={estado.kind === 'busy'}
      >
        <Icon name="sobre" /> {t(`${step.id}.extras.${text}`)}
      </button>
      {estado.kind === 'done' && (
        <p className="banner banner--info" role="status">
          {estado.message}
        </p>
      )}
      {estado.kind === 'error' && (
        <p className="banner banner--error" role="alert">
          {estado.message}
        </p>
      )}
    </div>
  );
}

/** The step's extras, or nothing. */
export function StepExtras({ engine, step }: { engine: FlowEngine; step: Step }) {
  const { t } = useTranslation();
  const context = useUnit(engine.$context);
  if (!step.extras?.length) return null;
  return (
    <div className="extras">
      {step.extras.map((x) => {
        if ('call' in x) return <CallExtra key={x.text} engine={engine} step={step} text={x.text} call={x.call} done={x.done} />;
        const req = buildRequest({ method: 'GET', path: x.download.path, params: x.download.params }, context);
        if (req.path.includes('//') || req.path.endsWith('/')) return null; // a parameter is not there yet
        return (
          <a key={x.text} className="button button--ghost extra" href={`${API_BASE}${req.path}`} download data-testid={`extra-${x.text}`}>
            <Icon name="descarga" /> {t(`${step.id}.extras.${x.text}`)}
          </a>
        );
      })}
    </div>
  );
}
