/** The result steps of the shipped flow show what the server said about the policy: its number, and any notice. */
import { cleanup, render, screen } from '@testing-library/react';
import { allSettled, fork } from 'effector';
import { Provider } from 'effector-react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import realFlowJson from '../../flow/flow.json';
import { compileFlowNode } from '../../tools/check/conditions.ts';
import type { FlowDef } from '../../src/core/flow/types.ts';
import { createFlowEngine } from '../../src/engine/model';
import { emptyState } from '../../src/engine/state';
import { i18n } from '../../src/i18n';
import { StepScreen } from '../../src/screens/StepScreen';

afterEach(cleanup);
const flow = compileFlowNode(realFlowJson as unknown as FlowDef);

async function showSuccess(emision: Record<string, unknown>) {
  const engine = createFlowEngine({ flow, genericError: 'x', timeoutError: 'y' });
  const scope = fork();
  await allSettled(engine.stateRestored, {
    scope,
    params: { ...emptyState(flow), data: { emision, planElegido: { nombre: 'Intermedio' } } },
  });
  const step = flow.steps.find((s) => s.kind === 'result' && s.result?.tone === 'success')!;
  render(
    <Provider value={scope}>
      <I18nextProvider i18n={i18n}>
        <StepScreen engine={engine} step={step} />
      </I18nextProvider>
    </Provider>,
  );
}

describe('thank-you screen', () => {
  it('shows the notice the server sent with the policy (vigencia moved) as information, not as an error', async () => {
    const mensaje = 'Tu cobertura empieza el 25/11/2026 porque la fecha elegida ya pasó.';
    await showSuccess({ estado: 'EMITIDA', numSecuPol: 'HOG-2026-000123', mensaje });
    expect(screen.getByTestId('poliza')).toHaveTextContent('HOG-2026-000123');
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent(mensaje);
    expect(notice).toHaveClass('banner--info');
  });

  it('shows no notice when the server sent none', async () => {
    await showSuccess({ estado: 'EMITIDA', numSecuPol: 'HOG-2026-000124' });
    expect(screen.queryByRole('status')).toBeNull();
  });
});
