/** Step "propiedad": required type of home, the country question only for a house (SPEC §3). */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderStep } from './render-step';

const COUNTRY = '¿Está en un barrio cerrado o country?';

describe('propiedad', () => {
  it('submitting empty shows the error summary and the required message, and does not submit', async () => {
    const { user, submit, onSubmit } = await renderStep('propiedad');
    await user.click(submit);
    const summary = await screen.findByRole('alert');
    expect(summary).toHaveTextContent('Revisá los datos marcados para continuar.');
    expect(within(summary).getByText('Este dato es obligatorio.')).toBeInTheDocument();
    const group = screen.getByRole('group', { name: 'Tipo de vivienda' });
    expect(within(group).getByText('Este dato es obligatorio.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('asks about the gated community only for a house', async () => {
    const { user } = await renderStep('propiedad');
    expect(screen.queryByText(COUNTRY)).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /Casa/ }));
    expect(screen.getByRole('group', { name: COUNTRY })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Sí' })).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /Departamento/ }));
    expect(screen.queryByText(COUNTRY)).not.toBeInTheDocument();
  });

  it('a house needs the gated-community answer', async () => {
    const { user, submit, onSubmit } = await renderStep('propiedad');
    await user.click(screen.getByRole('radio', { name: /Casa/ }));
    await user.click(submit);
    const group = screen.getByRole('group', { name: COUNTRY });
    expect(within(group).getByText('Este dato es obligatorio.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
    await user.click(within(group).getByRole('radio', { name: 'No' }));
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual({ tipoVivienda: 'CASA', barrioCerrado: 'N' });
  });

  it('switching to Departamento drops a stale barrioCerrado answer', async () => {
    const { user, submit, onSubmit } = await renderStep('propiedad');
    await user.click(screen.getByRole('radio', { name: /Casa/ }));
    await user.click(screen.getByRole('radio', { name: 'Sí' }));
    await user.click(screen.getByRole('radio', { name: /Departamento/ }));
    await user.click(submit);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual({ tipoVivienda: 'DEPARTAMENTO' });
  });

  it('back to Casa after Departamento, the gated-community question is asked afresh (the dropped answer is gone)', async () => {
    const { user, submit, onSubmit } = await renderStep('propiedad');
    await user.click(screen.getByRole('radio', { name: /Casa/ }));
    await user.click(screen.getByRole('radio', { name: 'Sí' }));
    await user.click(screen.getByRole('radio', { name: /Departamento/ }));
    await user.click(screen.getByRole('radio', { name: /Casa/ }));
    const group = screen.getByRole('group', { name: COUNTRY });
    expect(within(group).getByRole('radio', { name: 'Sí' })).not.toBeChecked();
    expect(within(group).getByRole('radio', { name: 'No' })).not.toBeChecked();
    await user.click(submit);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('a stale barrioCerrado in the saved answers is not submitted either', async () => {
    const { user, submit, onSubmit } = await renderStep('propiedad', { formData: { tipoVivienda: 'CASA', barrioCerrado: 'S' } });
    expect(screen.getByRole('radio', { name: 'Sí' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: /Departamento/ }));
    await user.click(submit);
    expect(onSubmit.mock.calls[0]![0]).toEqual({ tipoVivienda: 'DEPARTAMENTO' });
  });

  it('the type of home is a fieldset with a legend, options show their hints', async () => {
    await renderStep('propiedad');
    const group = screen.getByRole('group', { name: 'Tipo de vivienda' });
    expect(group.tagName).toBe('FIELDSET');
    expect(within(group).getAllByRole('radio')).toHaveLength(3);
    expect(within(group).getByRole('radio', { name: /Casa.*Con o sin jardín/ })).toBeInTheDocument();
  });
});
