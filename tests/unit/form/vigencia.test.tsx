/** Step "vigencia": the policy starts from tomorrow up to 30 days ahead (local dates); tomorrow comes chosen. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ar, localIso } from './dates-helper';
import { describedByTexts, renderStep } from './render-step';

const LABEL = 'Inicio de la cobertura';

async function setup() {
  const r = await renderStep('vigencia');
  const input = screen.getByLabelText(LABEL) as HTMLInputElement;
  const pick = (iso: string) => fireEvent.change(input, { target: { value: iso } });
  return { ...r, input, pick };
}

describe('vigencia', () => {
  it('is a dd/mm/aaaa text field whose linked hint says tomorrow … today + 30 and gives tomorrow as the example', async () => {
    const { input } = await setup();
    expect(input).toHaveAttribute('type', 'text');
    expect(input).toHaveAttribute('inputmode', 'numeric');
    expect(input).toHaveAttribute('placeholder', 'dd/mm/aaaa');
    expect(describedByTexts(input)).toEqual([
      `La cobertura tiene que empezar entre el ${ar(localIso(1))} y el ${ar(localIso(30))}. Escribí día, mes y año; por ejemplo, ${ar(localIso(1))}.`,
    ]);
  });

  it('today is too early: asks for a date from tomorrow', async () => {
    const { user, submit, onSubmit, pick, input } = await setup();
    pick(localIso(0));
    await user.click(submit);
    const msg = `La cobertura tiene que empezar entre el ${ar(localIso(1))} y el ${ar(localIso(30))}.`;
    expect(screen.getByRole('alert')).toHaveTextContent(msg);
    expect(describedByTexts(input)).toContain(`Error: ${msg}`);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('31 days ahead is too late: asks for a date up to today + 30', async () => {
    const { user, submit, onSubmit, pick } = await setup();
    pick(localIso(31));
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent(
      `La cobertura tiene que empezar entre el ${ar(localIso(1))} y el ${ar(localIso(30))}.`,
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('the bounds themselves are accepted', async () => {
    const { user, submit, onSubmit, pick } = await setup();
    pick(localIso(1));
    await user.click(submit);
    pick(localIso(30));
    await user.click(submit);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(onSubmit.mock.calls.map((c) => c[0])).toEqual([{ initPolicyDate: localIso(1) }, { initPolicyDate: localIso(30) }]);
  });

  it('starts with tomorrow chosen (no answer needed), and submits it as is', async () => {
    const { user, submit, onSubmit, input } = await setup();
    await waitFor(() => expect(input).toHaveValue(ar(localIso(1))));
    await user.click(submit);
    expect(onSubmit.mock.calls.map((c) => c[0])).toEqual([{ initPolicyDate: localIso(1) }]);
  });

  it('a restored start is kept, not replaced by tomorrow', async () => {
    await renderStep('vigencia', { formData: { initPolicyDate: localIso(5) } });
    expect(screen.getByLabelText(LABEL)).toHaveValue(ar(localIso(5)));
  });

  it('cleared, it is required', async () => {
    const { user, submit, onSubmit, input } = await setup();
    await waitFor(() => expect(input).toHaveValue(ar(localIso(1))));
    await user.clear(input);
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Este dato es obligatorio.');
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
