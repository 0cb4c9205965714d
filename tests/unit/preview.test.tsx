/** The staff preview lists every step of the flow and opens any of them with sample answers, past its guard. */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { allSettled, fork } from 'effector';
import { Provider } from 'effector-react';
import { describe, expect, it } from 'vitest';
import realFlowJson from '../../flow/flow.json';
import { Preview, sampleAnswers } from '../../src/app/Preview';
import { resolveGuard, type FlowDef } from '../../src/engine/core/index.ts';
import { createFlowEngine } from '../../src/engine/model';
import { compileFlowNode } from '../../src/check/conditions.ts';

const flow = compileFlowNode(realFlowJson as unknown as FlowDef);

describe('staff preview', () => {
  it('lists every step and opens the chosen one with sample answers and its flag set', async () => {
    const engine = createFlowEngine({ flow, genericError: 'x', timeoutError: 'y' });
    const navigations: string[] = [];
    const scope = fork({ handlers: [[engine.navigateFx, ({ stepId }: { stepId: string }) => void navigations.push(stepId)]] });
    render(
      <Provider value={scope}>
        <Preview engine={engine} />
      </Provider>,
    );
    expect(screen.getAllByRole('row')).toHaveLength(flow.steps.length + 1);
    const target = flow.steps.find((s) => s.kind === 'review') as (typeof flow.steps)[number];
    await userEvent.click(screen.getByRole('button', { name: `Abrir ${target.id}` }));
    await allSettled(scope);
    const state = scope.getState(engine.$state);
    expect(resolveGuard(flow, state.flags, target.id)).toEqual({ kind: 'allow' });
    expect(state.answers).toEqual(sampleAnswers(flow));
    expect(Object.keys(state.answers).length).toBe(flow.steps.filter((s) => s.kind === 'form').length);
    expect(navigations).toEqual([target.id]);
  });
});
