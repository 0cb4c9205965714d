/** Step "adicionales": the chosen plan's optional coverages as switches (CoverageTogglesWidget). */
import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { plans } from './plans';
import { makeContext, renderStep } from './render-step';

const context = makeContext({ planElegido: plans[1] });

describe('adicionales (CoverageToggles)', () => {
  it('lists each optional coverage as a switch with its sum and what it adds to the installment, taxes included', async () => {
    await renderStep('adicionales', { context });
    const switches = screen.getAllByRole('switch');
    expect(switches).toHaveLength(2);
    expect(screen.getByRole('switch', { name: /Cámaras fotográficas/ })).not.toBeChecked();
    expect(screen.getByText('Robo y daño accidental')).toBeInTheDocument();
    expect(screen.getByText('$ 500.000')).toBeInTheDocument();
    expect(screen.getByText('+ $ 1.500,60 por mes, impuestos incluidos')).toBeInTheDocument();
    expect(screen.queryByText(/\$ 1\.234,50/)).not.toBeInTheDocument(); // never the bare prima
  });

  it('toggling a coverage adds its code; toggling again removes it', async () => {
    const { user, onChange } = await renderStep('adicionales', { context });
    const cam = screen.getByRole('switch', { name: /Cámaras fotográficas/ });
    await user.click(cam);
    expect(cam).toBeChecked();
    expect(onChange).toHaveBeenLastCalledWith({ coberturasOpcionales: ['501'] });
    await user.click(screen.getByRole('switch', { name: /Notebooks y tablets/ }));
    expect(onChange).toHaveBeenLastCalledWith({ coberturasOpcionales: ['501', '502'] });
    await user.click(cam);
    expect(cam).not.toBeChecked();
    expect(onChange).toHaveBeenLastCalledWith({ coberturasOpcionales: ['502'] });
  });

  it('the switch flips in the tap itself; re-pricing hears of it in the next task, once per burst, with the latest answers', async () => {
    const { onChange } = await renderStep('adicionales', { context });
    const cam = screen.getByRole('switch', { name: /Cámaras fotográficas/ });
    const note = screen.getByRole('switch', { name: /Notebooks y tablets/ });
    await act(() => new Promise((r) => setTimeout(r, 10)));
    onChange.mockClear();
    // two taps within one task (no awaiting between them): the page shows both at once, the engine is told once
    act(() => {
      cam.click();
      note.click();
    });
    expect(cam).toBeChecked();
    expect(note).toBeChecked();
    expect(onChange).not.toHaveBeenCalled();
    await act(() => new Promise((r) => setTimeout(r, 10)));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenLastCalledWith({ coberturasOpcionales: ['501', '502'] });
  });

  it('tapping the coverage name toggles it too', async () => {
    const { user, onChange } = await renderStep('adicionales', { context });
    await user.click(screen.getByText('Notebooks y tablets'));
    expect(onChange).toHaveBeenLastCalledWith({ coberturasOpcionales: ['502'] });
  });

  it('submits the chosen codes (none is fine)', async () => {
    const { user, submit, onSubmit } = await renderStep('adicionales', { context, formData: { coberturasOpcionales: ['502'] } });
    expect(screen.getByRole('switch', { name: /Notebooks y tablets/ })).toBeChecked();
    await user.click(screen.getByRole('switch', { name: /Notebooks y tablets/ }));
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual({ coberturasOpcionales: [] });
  });

  it('a plan without optional coverages says so', async () => {
    const none = makeContext({ planElegido: { ...plans[1], coberturas: { ...plans[1]!.coberturas, optional: [] } } });
    await renderStep('adicionales', { context: none });
    expect(screen.getByText('Tu plan no tiene coberturas adicionales disponibles.')).toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
  });
});
