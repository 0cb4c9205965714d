/**
 * Step "localidad": one combobox finds the locality in every province («Lanús, Buenos Aires») and fills the province
 * from it (LocationField with ui:options.province "search"), fed by the lists API.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeLocationApi } from './location-api';
import { describedByTexts, renderStep } from './render-step';

const api = fakeLocationApi();

async function setup(formData?: Record<string, unknown>) {
  const r = await renderStep('localidad', { api, formData });
  const locality = screen.getByRole('combobox', { name: 'Localidad' });
  return { ...r, locality };
}

const LANUS = { idProvincia: '06', provincia: 'Buenos Aires', codLocalidad: '06434010', localidad: 'Lanús', departamento: 'Lanús' };

describe('localidad (LocationField, one search over every province)', () => {
  it('asks one thing: no province select, the combobox enabled from the start with its example and help', async () => {
    const { locality } = await setup();
    expect(screen.queryByLabelText('Provincia')).not.toBeInTheDocument();
    expect(screen.queryAllByRole('textbox').length + screen.queryAllByRole('combobox').length).toBe(1);
    expect(locality).toBeEnabled();
    expect(locality).toHaveAttribute('placeholder', 'Por ejemplo, Lanús');
    expect(describedByTexts(locality)).toEqual(['Cada opción dice su provincia.']);
    expect(api.calls).not.toHaveBeenCalledWith('/listas/provincias');
  });

  it('two letters search every province; each option reads «locality, province»', async () => {
    const { user, locality } = await setup();
    api.calls.mockClear();
    await user.type(locality, 'la');
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.firstElementChild?.textContent)).toEqual([
      'Lanús, Buenos Aires',
      'Lanús Este, Buenos Aires',
      'La Plata, Buenos Aires',
    ]);
    expect(api.calls).toHaveBeenLastCalledWith('/listas/localidades', { q: 'la', limit: 12 });
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
  });

  it('«Lanús» typed exactly is Lanús, Buenos Aires: the box reads so and the form submits the province with it', async () => {
    const { user, submit, onSubmit, locality } = await setup();
    await user.type(locality, 'lanus');
    await waitFor(() => expect(locality).toHaveValue('Lanús, Buenos Aires'));
    expect(describedByTexts(locality)).toEqual(['Elegiste Lanús, Buenos Aires.']);
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual(LANUS);
  });

  it('same-named localities of different provinces are told apart by the province: the name alone waits for a pick', async () => {
    const { user, submit, onSubmit, locality, onChange } = await setup();
    await user.type(locality, 'San José');
    const options = await screen.findAllByRole('option', { name: /^San José/ });
    expect(options.map((o) => o.textContent)).toEqual([
      'San José, Buenos AiresAlmirante Brown',
      'San José, Buenos AiresTres de Febrero',
      'San José, CórdobaSan Javier',
    ]);
    await user.tab();
    expect(locality).toHaveValue('San José');
    expect(describedByTexts(locality)).toEqual([
      'Hay más de una localidad con ese nombre: elegí la tuya de la lista, que dice la provincia.',
    ]);
    expect(onChange.mock.lastCall?.[0] ?? {}).not.toHaveProperty('codLocalidad');

    await user.clear(locality);
    await user.type(locality, 'San José, Córdoba');
    expect(await screen.findByText('Elegiste San José, Córdoba.')).toBeInTheDocument();
    await user.click(submit);
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      idProvincia: '14',
      provincia: 'Córdoba',
      codLocalidad: '14133180',
      localidad: 'San José',
      departamento: 'San Javier',
    });
  });

  it('ArrowDown + Enter picks an option (Enter does not submit); a click picks too', async () => {
    const { user, submit, onSubmit, locality } = await setup();
    await user.type(locality, 'lan');
    await screen.findByRole('option', { name: /Lanús Este/ });
    await user.keyboard('{ArrowDown}');
    expect(locality).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: /Lanús Este/ }).id);
    await user.keyboard('{Enter}');
    expect(locality).toHaveValue('Lanús Este, Buenos Aires');
    expect(onSubmit).not.toHaveBeenCalled();
    await user.clear(locality);
    await user.type(locality, 'plata');
    await user.click(await screen.findByRole('option', { name: /La Plata/ }));
    expect(locality).toHaveValue('La Plata, Buenos Aires');
    await user.click(submit);
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      idProvincia: '06',
      provincia: 'Buenos Aires',
      codLocalidad: '06441030',
      localidad: 'La Plata',
      departamento: 'La Plata',
    });
  });

  it('a key typed right after a pick, before the form has taken it, keeps the key and undoes the pick', async () => {
    const { user, submit, onSubmit, locality } = await setup();
    await user.type(locality, 'plata');
    const option = await screen.findByRole('option', { name: /La Plata/ });
    // the pick and the next key in one go: the form takes the pick in a transition, which act renders only at its end
    act(() => {
      fireEvent.mouseDown(option);
      fireEvent.change(locality, { target: { value: 'La Plata, Buenos Airesx' } });
    });
    expect(locality).toHaveValue('La Plata, Buenos Airesx');
    expect(describedByTexts(locality)).not.toContain('Elegiste La Plata, Buenos Aires.');
    await user.click(submit);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(locality).toHaveValue('La Plata, Buenos Airesx');
  });

  it('no match says so, and submitting then gives one error, on the locality (the province is not asked apart)', async () => {
    const { user, submit, onSubmit, locality } = await setup();
    await user.type(locality, 'Lanzarote');
    expect(
      await screen.findByText('No encontramos esa localidad. Revisá cómo está escrita o probá con una parte del nombre.'),
    ).toBeInTheDocument();
    await user.click(submit);
    const summary = screen.getByRole('alert');
    expect(summary.querySelectorAll('li')).toHaveLength(1);
    expect(summary).toHaveTextContent('Localidad: Escribí tu localidad y elegila de la lista.');
    expect(locality).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('restored answers read «locality, province»; editing the text drops the province with the locality', async () => {
    const { user, locality, onChange } = await setup(LANUS);
    expect(locality).toHaveValue('Lanús, Buenos Aires');
    await user.type(locality, 'x');
    expect(onChange).toHaveBeenLastCalledWith({});
    expect(locality).toHaveValue('Lanús, Buenos Airesx');
  });

  it('"Buscando…" ends when the search does, also when the visitor left the field before it started', async () => {
    let answer!: () => void;
    const gate = new Promise<void>((r) => (answer = r));
    const slow = {
      get: async (path: string, query?: Record<string, string | number | undefined>) =>
        path === '/listas/localidades' ? gate.then(() => api.get(path, query)) : api.get(path, query),
    };
    await renderStep('localidad', { api: slow });
    const { default: userEvent } = await import('@testing-library/user-event');
    const user = userEvent.setup();
    const locality = screen.getByRole('combobox', { name: 'Localidad' });
    await user.type(locality, 'zz');
    await user.tab();
    expect(await screen.findByText('Buscando…')).toBeInTheDocument();
    answer();
    expect(
      await screen.findByText('No encontramos esa localidad. Revisá cómo está escrita o probá con una parte del nombre.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Buscando…')).not.toBeInTheDocument();
  });

  it('after a failed submit, picking the locality clears its error and its summary line', async () => {
    const { user, submit, locality } = await setup();
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Localidad: Escribí tu localidad y elegila de la lista.');
    await user.type(locality, 'plata');
    await user.click(await screen.findByRole('option', { name: /La Plata/ }));
    expect(locality).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(locality).toHaveFocus();
  });

  it('a press on «Continuar» with the list open does not move the button before the click: the list closes on release', async () => {
    const { user, submit, locality } = await setup();
    await user.type(locality, 'la');
    await screen.findByRole('listbox');
    await user.pointer({ keys: '[MouseLeft>]', target: submit });
    expect(locality).not.toHaveFocus();
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    await user.pointer({ keys: '[/MouseLeft]', target: submit });
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
  });
});
