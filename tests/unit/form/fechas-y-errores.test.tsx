/**
 * Forms: dates typed día/mes/año whatever the browser's language (DateWidget, src/form/date-text.ts), and the
 * GOV.UK error summary (each error names its field and links to it; an error goes once its field is corrected, the
 * focus staying where the visitor types).
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fechaDigitos, fechaMostrada, fechaTexto, fechaValor } from '../../../src/form/date-text';
import { ar, localIso } from './dates-helper';
import { describedByTexts, renderStep } from './render-step';

describe('date-text', () => {
  it('reads what is typed as day, month, year', () => {
    expect(fechaValor('12041985')).toBe('1985-04-12');
    expect(fechaValor('12/04/1985')).toBe('1985-04-12');
    expect(fechaValor('1/4/1985')).toBe('1985-04-01');
    expect(fechaValor('28112026')).toBe('2026-11-28');
    expect(fechaValor('1985-04-12')).toBe('1985-04-12'); // an ISO date (autofill, paste) stays that date
    expect(fechaValor('')).toBeUndefined();
    expect(fechaValor('12/04/19')).toBe('12/04/19'); // not a date yet: refused by format date
  });
  it('shows the digits with their slashes and at most 8 digits', () => {
    expect(fechaTexto(fechaDigitos('12'))).toBe('12');
    expect(fechaTexto(fechaDigitos('120'))).toBe('12/0');
    expect(fechaTexto(fechaDigitos('12/'))).toBe('12');
    expect(fechaTexto(fechaDigitos('1/'))).toBe('01');
    expect(fechaTexto(fechaDigitos('120419851'))).toBe('12/04/1985');
    expect(fechaMostrada('1985-04-12')).toBe('12/04/1985');
    expect(fechaMostrada(undefined)).toBe('');
  });
});

describe('DateWidget', () => {
  it('12041985 typed is 12 April 1985: shown 12/04/1985, submitted 1985-04-12', async () => {
    const { user, submit, onSubmit } = await renderStep('vigencia');
    const input = screen.getByLabelText('Inicio de la cobertura');
    const tomorrow = localIso(1);
    await user.clear(input);
    await user.type(input, ar(tomorrow).replace(/\//g, ''));
    expect(input).toHaveValue(ar(tomorrow));
    await user.click(submit);
    expect(onSubmit.mock.calls.map((c) => c[0])).toEqual([{ initPolicyDate: tomorrow }]);
  });

  it('an impossible or unfinished date is refused with a message in words', async () => {
    const { user, submit, onSubmit } = await renderStep('vigencia');
    const input = screen.getByLabelText('Inicio de la cobertura');
    await user.clear(input);
    await user.type(input, '31022027');
    expect(input).toHaveValue('31/02/2027');
    await user.click(submit);
    expect(describedByTexts(input)).toContain('Error: Ingresá una fecha válida: día, mes y año.');
    await user.clear(input);
    await user.type(input, '120419');
    expect(describedByTexts(input)).toContain('Error: Ingresá una fecha válida: día, mes y año.');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('a date 31 days ahead is out of range and the message says the range in words', async () => {
    const { user, submit } = await renderStep('vigencia');
    const input = screen.getByLabelText('Inicio de la cobertura');
    await user.clear(input);
    await user.type(input, ar(localIso(31)));
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent(
      `Inicio de la cobertura: La cobertura tiene que empezar entre el ${ar(localIso(1))} y el ${ar(localIso(30))}.`,
    );
  });
});

describe('error summary', () => {
  it('names each field with its label, once per error, and links to it', async () => {
    const { user, submit } = await renderStep('datos-personales');
    await user.click(submit);
    const links = within(screen.getByRole('alert')).getAllByRole('link');
    expect(links.map((a) => a.textContent)).toEqual([
      'Nombre: Este dato es obligatorio.',
      'Apellido: Este dato es obligatorio.',
      'Número de documento: Este dato es obligatorio.',
      'Sexo según tu DNI: Este dato es obligatorio.',
      'Fecha de nacimiento: Este dato es obligatorio.',
      'Profesión u ocupación: Este dato es obligatorio.',
      '¿Sos persona expuesta políticamente?: Este dato es obligatorio.',
      '¿Sos sujeto obligado ante la UIF?: Este dato es obligatorio.',
      'Acepto que Hogar Protegido Seguros S.A. trate mis datos personales para cotizar, emitir y administrar mi póliza (Ley 25.326): Para continuar tenés que aceptar el tratamiento de tus datos personales.',
    ]);
    expect(links.map((a) => a.getAttribute('href'))).toContain('#datos-personales_birthDate');
    await user.click(links[4]!);
    expect(screen.getByLabelText('Fecha de nacimiento')).toHaveFocus();
  });

  it('the card-expiry error goes once the expiry is right, and the focus stays in the field', async () => {
    const { user, submit } = await renderStep('metodo-de-pago');
    await user.click(screen.getByRole('radio', { name: /Tarjeta de crédito/ }));
    await user.click(submit);
    const expiry = screen.getByLabelText('Vencimiento');
    expect(describedByTexts(expiry)).toEqual(['Error: Ingresá el vencimiento.']);
    await user.click(expiry);
    await user.type(expiry, '1230');
    expect(expiry).toHaveValue('12/30');
    expect(expiry).toHaveFocus();
    expect(expiry).not.toHaveAttribute('aria-invalid');
    expect(describedByTexts(expiry)).toEqual([]);
    expect(within(screen.getByRole('alert')).queryByText(/^Vencimiento/)).toBeNull();
    expect(
      within(screen.getByRole('alert')).getByRole('link', { name: 'Número de tarjeta: Ingresá el número de la tarjeta.' }),
    ).toBeInTheDocument();
  });
});
