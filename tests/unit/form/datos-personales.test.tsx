/** Step "datos-personales": identity, age 18–99 and the UIF sworn statement (Sí/No as booleans). */
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { localIso } from './dates-helper';
import { describedByTexts, renderStep } from './render-step';

const PPE = '¿Sos persona expuesta políticamente?';
const LYT = '¿Sos sujeto obligado ante la UIF?';

type User = Awaited<ReturnType<typeof renderStep>>['user'];

/** Pastes `text` into the field labelled `label` (one change instead of one per key: keeps the file fast). */
async function paste(user: User, label: string, text: string) {
  await user.click(screen.getByLabelText(label));
  await user.paste(text);
}

async function fillValid(user: User, birthDate = localIso(0, -30), declarations = true) {
  await paste(user, 'Nombre', 'Ana');
  await paste(user, 'Apellido', 'Pérez');
  await paste(user, 'Número de documento', '30123456');
  await user.click(screen.getByRole('radio', { name: 'Femenino' }));
  fireEvent.change(screen.getByLabelText('Fecha de nacimiento'), { target: { value: birthDate } });
  await paste(user, 'Profesión u ocupación', 'Docente');
  if (declarations) {
    // the sworn statement has no pre-filled answer: each question is answered explicitly
    await user.click(within(screen.getByRole('group', { name: PPE })).getByRole('radio', { name: 'No' }));
    await user.click(within(screen.getByRole('group', { name: LYT })).getByRole('radio', { name: 'No' }));
  }
  await user.click(screen.getByRole('checkbox', { name: /trate mis datos personales/ })); // Ley 25.326 consent
}

describe('datos-personales', () => {
  it('every field is reachable by its label; DNI is the default document type', async () => {
    await renderStep('datos-personales');
    for (const label of [
      'Nombre',
      'Apellido',
      'Tipo de documento',
      'Número de documento',
      'Fecha de nacimiento',
      'Profesión u ocupación',
    ]) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    expect(screen.getByLabelText('Tipo de documento')).toHaveDisplayValue('DNI');
    expect(screen.getByRole('option', { name: 'Pasaporte' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Sexo según tu DNI' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Declaración jurada' })).toBeInTheDocument();
  });

  it('a person who is 17 is told to be over 18', async () => {
    const { user, submit, onSubmit } = await renderStep('datos-personales');
    await fillValid(user, localIso(1, -18)); // turns 18 tomorrow
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Para contratar tenés que tener entre 18 y 99 años.');
    expect(describedByTexts(screen.getByLabelText('Fecha de nacimiento'))).toContain(
      'Error: Para contratar tenés que tener entre 18 y 99 años.',
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('a person who turns 18 today may continue; the birth-date hint says the 18–99 bounds in words', async () => {
    const { user, submit, onSubmit } = await renderStep('datos-personales');
    const birth = screen.getByLabelText('Fecha de nacimiento');
    expect(describedByTexts(birth)).toEqual([
      'Para contratar tenés que tener entre 18 y 99 años. Escribí día, mes y año; por ejemplo, 27/03/1985.',
    ]);
    await fillValid(user, localIso(0, -18));
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('100 years old is refused with the birth-date message', async () => {
    const { user, submit, onSubmit } = await renderStep('datos-personales');
    await fillValid(user, localIso(0, -100));
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Para contratar tenés que tener entre 18 y 99 años.');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('a DNI with dots gets the "sin puntos" message', async () => {
    const { user, submit, onSubmit } = await renderStep('datos-personales');
    await fillValid(user);
    const dni = screen.getByLabelText('Número de documento');
    await user.clear(dni);
    await user.type(dni, '12.345');
    await user.click(submit);
    expect(describedByTexts(dni)).toEqual(['Sin puntos.', 'Error: Ingresá entre 7 y 8 números, sin puntos.']);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('the sworn statement answers Sí/No as booleans, each question a fieldset with its legend', async () => {
    const { user, submit, onSubmit, onChange } = await renderStep('datos-personales');
    const ppe = screen.getByRole('group', { name: PPE });
    const lyt = screen.getByRole('group', { name: LYT });
    expect(ppe.tagName).toBe('FIELDSET');
    expect(within(ppe).getByRole('radio', { name: 'No' })).not.toBeChecked(); // a sworn statement has no pre-filled answer
    expect(describedByTexts(ppe)).toEqual(['Funcionarios públicos y sus familiares (Resolución UIF 35/2023).']);
    await user.click(within(ppe).getByRole('radio', { name: 'Sí' }));
    expect(within(ppe).getByRole('radio', { name: 'Sí' })).toBeChecked();
    expect(within(lyt).getByRole('radio', { name: 'No' })).not.toBeChecked();
    await user.click(submit);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(describedByTexts(lyt)).toContain('Error: Este dato es obligatorio.');
    await user.click(within(lyt).getByRole('radio', { name: 'No' }));
    expect(onChange.mock.lastCall![0].ddjj).toEqual({ ppe: true, lyt: false });
    await fillValid(user, undefined, false);
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      firstName: 'Ana',
      lastName: 'Pérez',
      typeDoc: 'DNI',
      numberDoc: '30123456',
      genere: 'F',
      birthDate: localIso(0, -30),
      ddjj: { actividad: 'Docente', ppe: true, lyt: false },
      consentimientoDatos: true,
    });
  });

  it('asks for the Ley 25.326 consent, showing who keeps the data and the AAIP rights, and does not continue without it', async () => {
    const { user, submit, onSubmit } = await renderStep('datos-personales');
    await fillValid(user);
    await user.click(screen.getByRole('checkbox', { name: /trate mis datos personales/ })); // unticks it
    expect(screen.getByText(/Responsable de la base de datos: Hogar Protegido Seguros S.A./)).toBeInTheDocument();
    expect(screen.getByText(/Agencia de Acceso a la Información Pública \(AAIP\)/)).toBeInTheDocument();
    await user.click(submit);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(
      screen.getByText('Para continuar tenés que aceptar el tratamiento de tus datos personales.', { selector: '.field__error' }),
    ).toBeInTheDocument();
  });

  it('names with digits get "Usá solo letras."', async () => {
    const { user, submit } = await renderStep('datos-personales');
    await fillValid(user);
    await user.type(screen.getByLabelText('Nombre'), '2');
    await user.click(submit);
    expect(describedByTexts(screen.getByLabelText('Nombre'))).toContain('Error: Usá solo letras.');
  });
});
