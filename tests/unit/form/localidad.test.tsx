/** Step "localidad": province select + locality combobox fed by the lists API (LocationField). */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeLocationApi } from './location-api';
import { describedByTexts, renderStep } from './render-step';

// LocationField caches the province list for the page's lifetime (module scope), so one fake serves the file.
const api = fakeLocationApi();

async function setup(formData?: Record<string, unknown>) {
  const r = await renderStep('localidad', { api, formData });
  const province = screen.getByLabelText('Provincia') as HTMLSelectElement;
  await screen.findByRole('option', { name: 'Buenos Aires' });
  const locality = screen.getByRole('combobox', { name: 'Localidad' });
  return { ...r, province, locality };
}

describe('localidad (LocationField)', () => {
  it('loads the provinces into the select, after the placeholder', async () => {
    const { province } = await setup();
    expect(api.calls).toHaveBeenCalledWith('/listas/provincias');
    expect([...province.options].map((o) => o.text)).toEqual(['Elegí la provincia', 'Buenos Aires', 'Córdoba']);
    expect(province).toHaveValue('');
  });

  it('the locality box is disabled until a province is chosen', async () => {
    const { user, province, locality } = await setup();
    expect(locality).toBeDisabled();
    expect(describedByTexts(locality)).toEqual(['Primero elegí la provincia.']);
    await user.selectOptions(province, 'Buenos Aires');
    expect(locality).toBeEnabled();
    expect(screen.queryByText('Primero elegí la provincia.')).not.toBeInTheDocument();
    expect(locality).toHaveAttribute('placeholder', 'Escribí al menos 2 letras');
  });

  it('one letter does not search; two letters list the matching localities of the province', async () => {
    const { user, province, locality } = await setup();
    await user.selectOptions(province, 'Buenos Aires');
    api.calls.mockClear();
    await user.type(locality, 'l');
    await new Promise((r) => setTimeout(r, 300));
    expect(api.calls).not.toHaveBeenCalled();
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await user.type(locality, 'a');
    const options = await screen.findAllByRole('option', { name: /^La/ });
    expect(options.map((o) => o.firstElementChild?.textContent)).toEqual(['Lanús', 'Lanús Este', 'La Plata']);
    // the department is shown under a locality only when it differs from its name
    expect(options[1]).toHaveTextContent(/^Lanús EsteLanús$/);
    expect(options[0]).toHaveTextContent(/^Lanús$/);
    expect(api.calls).toHaveBeenLastCalledWith('/listas/localidades', { provincia: '06', q: 'la', limit: 12 });
    expect(locality).toHaveAttribute('aria-expanded', 'true');
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
  });

  it('no match says so', async () => {
    const { user, province, locality } = await setup();
    await user.selectOptions(province, 'Buenos Aires');
    await user.type(locality, 'zz');
    expect(await screen.findByText('No encontramos esa localidad en la provincia elegida.')).toBeInTheDocument();
  });

  it('ArrowDown + Enter picks a locality and the form submits the five location fields', async () => {
    const { user, submit, onSubmit, province, locality } = await setup();
    await user.selectOptions(province, 'Buenos Aires');
    await user.type(locality, 'lan');
    await screen.findByRole('option', { name: /Lanús Este/ });
    await user.keyboard('{ArrowDown}');
    expect(locality).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: /Lanús Este/ }).id);
    await user.keyboard('{Enter}');
    expect(locality).toHaveValue('Lanús Este');
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    expect(onSubmit).not.toHaveBeenCalled(); // Enter picked, it did not submit
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      idProvincia: '06',
      provincia: 'Buenos Aires',
      codLocalidad: '06434020',
      localidad: 'Lanús Este',
      departamento: 'Lanús',
    });
  });

  it('a click picks a locality too', async () => {
    const { user, submit, onSubmit, province, locality } = await setup();
    await user.selectOptions(province, 'Buenos Aires');
    await user.type(locality, 'plata');
    await user.click(await screen.findByRole('option', { name: /La Plata/ }));
    expect(locality).toHaveValue('La Plata');
    await user.click(submit);
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ idProvincia: '06', codLocalidad: '06441030', localidad: 'La Plata', departamento: 'La Plata' });
  });

  it('changing the province clears the locality', async () => {
    const { user, onChange, province, locality } = await setup({
      idProvincia: '06', provincia: 'Buenos Aires', codLocalidad: '06434010', localidad: 'Lanús', departamento: 'Lanús',
    });
    expect(province).toHaveValue('06');
    expect(locality).toHaveValue('Lanús');
    await user.selectOptions(province, 'Córdoba');
    expect(locality).toHaveValue('');
    expect(onChange).toHaveBeenLastCalledWith({ idProvincia: '14', provincia: 'Córdoba' });
  });

  it('submitting empty asks for the province and the locality, with the errors linked', async () => {
    const { user, submit, onSubmit, province, locality } = await setup();
    await user.click(submit);
    const summary = screen.getByRole('alert');
    expect(summary).toHaveTextContent('Elegí la provincia.');
    expect(summary).toHaveTextContent('Elegí la localidad de la lista.');
    expect(province).toHaveAttribute('aria-invalid', 'true');
    expect(describedByTexts(province)).toEqual(['Elegí la provincia.']);
    expect(describedByTexts(locality)).toEqual(['Elegí la localidad de la lista.']);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('typed text that was not picked from the list is not a locality', async () => {
    const { user, submit, onSubmit, province, locality } = await setup();
    await user.selectOptions(province, 'Buenos Aires');
    await user.type(locality, 'Lanús');
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Elegí la localidad de la lista.');
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
