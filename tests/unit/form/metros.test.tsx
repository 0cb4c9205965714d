/** Step "metros": whole m² between 20 and 1000, typed in a numeric box with the unit beside it. */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { describedByTexts, renderStep } from './render-step';

const LABEL = 'Superficie cubierta';

describe('metros', () => {
  it('shows the unit m² and the help, and the box is focused and numeric', async () => {
    await renderStep('metros');
    const input = screen.getByLabelText(LABEL);
    expect(screen.getByText('m²')).toBeInTheDocument();
    expect(input).toHaveAttribute('inputmode', 'numeric');
    expect(input).toHaveFocus();
    expect(describedByTexts(input)).toContain('Si no sabés el número exacto, ingresá uno aproximado. Entre 20 y 1000 m².');
  });

  it('typing letters keeps only the digits', async () => {
    const { user, onChange } = await renderStep('metros');
    const input = screen.getByLabelText(LABEL);
    await user.type(input, 'a8b0c');
    expect(input).toHaveValue('80');
    expect(onChange).toHaveBeenLastCalledWith({ metros: 80 });
    await user.clear(input);
    await user.type(input, 'xyz');
    expect(input).toHaveValue('');
  });

  it('5 m² is below the minimum', async () => {
    const { user, submit, onSubmit } = await renderStep('metros');
    await user.type(screen.getByLabelText(LABEL), '5');
    await user.click(submit);
    expect(screen.getAllByText('La superficie mínima es de 20 m².').length).toBeGreaterThan(0);
    const input = screen.getByLabelText(LABEL);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(describedByTexts(input).join(' ')).toContain('La superficie mínima es de 20 m².');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('1500 m² asks to talk to an adviser', async () => {
    const { user, submit, onSubmit } = await renderStep('metros');
    await user.type(screen.getByLabelText(LABEL), '1500');
    await user.click(submit);
    expect(screen.getAllByText('Para más de 1000 m² comunicate con un asesor.').length).toBeGreaterThan(0);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('80 m² is submitted as a number', async () => {
    const { user, submit, onSubmit } = await renderStep('metros');
    await user.type(screen.getByLabelText(LABEL), '80');
    await user.click(submit);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual({ metros: 80 });
  });

  it('the bounds are inclusive: 20 and 1000 are accepted', async () => {
    const { user, submit, onSubmit } = await renderStep('metros');
    const input = screen.getByLabelText(LABEL);
    await user.type(input, '20');
    await user.click(submit);
    await user.clear(input);
    await user.type(input, '1000');
    await user.click(submit);
    expect(onSubmit.mock.calls.map((c) => c[0])).toEqual([{ metros: 20 }, { metros: 1000 }]);
  });
});
