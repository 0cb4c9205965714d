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
    expect(describedByTexts(province)).toEqual(['Error: Elegí la provincia.']);
    expect(describedByTexts(locality)).toEqual(['Error: Elegí la localidad de la lista.', 'Primero elegí la provincia.']);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('typed text that matches no locality is not a locality', async () => {
    const { user, submit, onSubmit, province, locality } = await setup();
    await user.selectOptions(province, 'Buenos Aires');
    await user.type(locality, 'Lanzarote');
    expect(await screen.findByText('No encontramos esa localidad en la provincia elegida.')).toBeInTheDocument();
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Localidad: Elegí la localidad de la lista.');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('a name typed exactly (accents and case aside) is that locality, without opening the list', async () => {
    const { user, submit, onSubmit, province, locality } = await setup();
    await user.selectOptions(province, 'Buenos Aires');
    await user.type(locality, 'lanus');
    await waitFor(() => expect(locality).toHaveValue('Lanús'));
    expect(screen.queryByText('Buscando…')).not.toBeInTheDocument();
    await user.click(submit);
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ codLocalidad: '06434010', localidad: 'Lanús' });
  });

  it('the only match is taken when the visitor leaves the field; an ambiguous name is not, and says so', async () => {
    const { user, province, locality, onChange } = await setup();
    await user.selectOptions(province, 'Buenos Aires');
    await user.type(locality, 'banf');
    await screen.findByRole('option', { name: /Banfield/ });
    await user.tab();
    expect(locality).toHaveValue('Banfield');
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ codLocalidad: '06427010' }));

    await user.clear(locality);
    await user.type(locality, 'San José');
    expect(await screen.findAllByRole('option', { name: /^San José/ })).toHaveLength(2);
    await user.tab();
    expect(locality).toHaveValue('San José');
    expect(describedByTexts(locality)).toEqual(['Hay más de una localidad con ese nombre: elegí la tuya de la lista.']);
    expect(onChange.mock.lastCall![0]).not.toHaveProperty('codLocalidad');
  });

  it('"Buscando…" ends when the search does, also when the visitor left the field before it started', async () => {
    let answer!: () => void;
    const gate = new Promise<void>((r) => (answer = r));
    const slow = { get: async (path: string, query?: Record<string, string | number | undefined>) => (path === '/listas/localidades' ? gate.then(() => api.get(path, query)) : api.get(path, query)) };
    await renderStep('localidad', { api: slow });
    await screen.findByRole('option', { name: 'Buenos Aires' });
    const { default: userEvent } = await import('@testing-library/user-event');
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Provincia'), 'Buenos Aires');
    const locality = screen.getByRole('combobox', { name: 'Localidad' });
    await user.type(locality, 'zz');
    await user.tab();
    expect(await screen.findByText('Buscando…')).toBeInTheDocument();
    answer();
    expect(await screen.findByText('No encontramos esa localidad en la provincia elegida.')).toBeInTheDocument();
    expect(screen.queryByText('Buscando…')).not.toBeInTheDocument();
  });

  it('after a failed submit, picking the locality clears its error and its summary line', async () => {
    const { user, submit, province, locality } = await setup();
    await user.selectOptions(province, 'Buenos Aires');
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Localidad: Elegí la localidad de la lista.');
    await user.type(locality, 'plata');
    await user.click(await screen.findByRole('option', { name: /La Plata/ }));
    expect(locality).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Elegí la localidad de la lista.')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(locality).toHaveFocus();
  });

  it('a press on «Continuar» with the list open does not move the button before the click: the list closes on release', async () => {
    const { user, submit, province, locality } = await setup();
    await user.selectOptions(province, 'Buenos Aires');
    await user.type(locality, 'la');
    await screen.findByRole('listbox');
    await user.pointer({ keys: '[MouseLeft>]', target: submit });
    expect(locality).not.toHaveFocus();
    expect(screen.getByRole('listbox')).toBeInTheDocument(); // still there while the button is pressed
    await user.pointer({ keys: '[/MouseLeft]', target: submit });
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
  });
});

