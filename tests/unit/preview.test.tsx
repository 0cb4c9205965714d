/**
 * The staff preview lists every step of the flow with the checker's verdict on it, groups the checker's problems by
 * the step whose files they are in, and takes each step's sample answers from its schema's `examples`. Walking to a
 * step through the real API is the browser's (tests/e2e/vista-previa.spec.ts).
 */
import { render, screen, within } from '@testing-library/react';
import { fork } from 'effector';
import { Provider } from 'effector-react';
import { describe, expect, it } from 'vitest';
import realFlowJson from '../../flow/flow.json';
import { Preview, sampleAnswers } from '../../src/app/Preview';
import { problemsByStep } from '../../src/app/preview-problems';
import type { FlowDef } from '../../src/engine/core/index.ts';
import { createFlowEngine } from '../../src/engine/model';
import { isSyntheticBrowser, SYNTHETIC_STORAGE_KEY } from '../../src/engine/funnel/index';
import { compileFlowNode } from '../../tools/check/conditions.ts';
import { stepSchema } from '../../src/form/validators/schemas';

const flow = compileFlowNode(realFlowJson as unknown as FlowDef);

describe('staff preview', () => {
  it('lists every step with an "Abrir" button and the checker finds nothing in the shipped flow', () => {
    const engine = createFlowEngine({ flow, genericError: 'x', timeoutError: 'y' });
    render(
      <Provider value={fork()}>
        <Preview engine={engine} />
      </Provider>,
    );
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(flow.steps.length);
    for (const [i, step] of flow.steps.entries()) {
      expect(within(rows[i]).getByRole('button', { name: `Abrir ${step.id}` })).toBeEnabled();
      expect(rows[i]).toHaveTextContent('Sin problemas');
    }
    expect(screen.queryByRole('region', { name: 'Problemas del flujo' })).toBeNull();
  });

  it("groups problems by the step whose schema, flow entry or texts they are in; the rest are the flow's", () => {
    const metros = flow.steps.findIndex((s) => s.id === 'metros');
    const { byStep, general } = problemsByStep(flow, [
      { file: 'schemas/metros.schema.json', pointer: '/properties/metros/maximum', message: 'a' },
      { file: 'schemas/vigencia.ui.json', pointer: '/initPolicyDate', message: 'b' },
      { pointer: `/steps/${metros}/next`, message: 'c' },
      { file: 'src/i18n/es.json', pointer: '/contacto/fields/email/label', message: 'd', severity: 'warning' },
      { pointer: '/calls/cotizar/body', message: 'e' },
      { file: 'server/tariffs/2026-11.json', pointer: '/superficie', message: 'f' },
    ]);
    expect(byStep.metros.map((p) => p.message)).toEqual(['a', 'c']);
    expect(byStep.vigencia.map((p) => p.message)).toEqual(['b']);
    expect(byStep.contacto.map((p) => p.message)).toEqual(['d']);
    expect(general.map((p) => p.message)).toEqual(['e', 'f']);
  });

  it('sample answers are the first root example of each form step schema', () => {
    const answers = sampleAnswers(flow, stepSchema);
    const forms = flow.steps.filter((s) => s.kind === 'form');
    expect(Object.keys(answers).sort()).toEqual(forms.map((s) => s.id).sort());
    for (const s of forms) expect(answers[s.id]).toEqual((stepSchema(s.id)?.examples as unknown[] | undefined)?.[0]);
  });

  it('marks the tab so its funnel journeys are synthetic (left out of the staff report)', () => {
    sessionStorage.removeItem(SYNTHETIC_STORAGE_KEY);
    expect(isSyntheticBrowser({ webdriver: false }, sessionStorage)).toBe(false);
    const engine = createFlowEngine({ flow, genericError: 'x', timeoutError: 'y' });
    render(
      <Provider value={fork()}>
        <Preview engine={engine} />
      </Provider>,
    );
    expect(sessionStorage.getItem(SYNTHETIC_STORAGE_KEY)).toBe('1');
    expect(isSyntheticBrowser({ webdriver: false }, sessionStorage)).toBe(true);
  });
});
