/** Step "contacto": e-mail and phone, Spanish format messages, server checks shown on their field. */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { describedByTexts, renderStep } from './render-step';

const EMAIL = 'E-mail';
const AREA = 'Código de área';
const PHONE = 'Número de celular';

describe('contacto', () => {
  it('each input is reachable by its label, with the right type and autocomplete', async () => {
    await renderStep('contacto');
    expect(screen.getByLabelText(EMAIL)).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText(EMAIL)).toHaveAttribute('autocomplete', 'email');
    expect(screen.getByLabelText(EMAIL)).toHaveAttribute('placeholder', 'nombre@correo.com');
    expect(screen.getByLabelText(AREA)).toHaveAttribute('inputmode', 'numeric');
    expect(screen.getByLabelText(PHONE)).toHaveAttribute('autocomplete', 'tel-local');
    expect(describedByTexts(screen.getByLabelText(AREA))).toEqual(['Sin el 0. Ej.: 11']);
    expect(describedByTexts(screen.getByLabelText(PHONE))).toEqual(['Sin el 15. Ej.: 55551234']);
  });

  it('an invalid e-mail gets the Spanish example message, linked to the input', async () => {
    const { user, submit, onSubmit } = await renderStep('contacto');
    await user.type(screen.getByLabelText(EMAIL), 'ana@');
    await user.type(screen.getByLabelText(AREA), '11');
    await user.type(screen.getByLabelText(PHONE), '55551234');
    await user.click(submit);
    const msg = 'Ingresá un e-mail válido, por ejemplo nombre@correo.com.';
    expect(screen.getByRole('alert')).toHaveTextContent(msg);
    const email = screen.getByLabelText(EMAIL);
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(describedByTexts(email)).toContain(`Error: ${msg}`);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('an area code with the leading 0 gets the areaCod pattern message', async () => {
    const { user, submit, onSubmit } = await renderStep('contacto');
    await user.type(screen.getByLabelText(EMAIL), 'ana@example.com');
    await user.type(screen.getByLabelText(AREA), '011');
    await user.type(screen.getByLabelText(PHONE), '55551234');
    await user.click(submit);
    const msg = 'Ingresá el código de área sin el 0, por ejemplo 11 o 351.';
    const area = screen.getByLabelText(AREA);
    expect(describedByTexts(area)).toEqual(['Sin el 0. Ej.: 11', `Error: ${msg}`]);
    expect(screen.getByLabelText(PHONE)).not.toHaveAttribute('aria-invalid');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('a valid form submits the three strings', async () => {
    const { user, submit, onSubmit } = await renderStep('contacto');
    await user.type(screen.getByLabelText(EMAIL), 'ana@example.com');
    await user.type(screen.getByLabelText(AREA), '11');
    await user.type(screen.getByLabelText(PHONE), '55551234');
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual({ email: 'ana@example.com', areaCod: '11', phoneNumber: '55551234' });
  });

  it('a server error is shown next to its field', async () => {
    await renderStep('contacto', {
      formData: { email: 'ana@example.com', areaCod: '99', phoneNumber: '55551234' },
      serverErrors: { areaCod: 'El código de área no existe.' },
    });
    const area = screen.getByLabelText(AREA);
    expect(area).toHaveAttribute('aria-invalid', 'true');
    expect(describedByTexts(area)).toContain('Error: El código de área no existe.');
    expect(screen.getByLabelText(EMAIL)).not.toHaveAttribute('aria-invalid');
  });

  it('Enter in an input blurs it (closes the phone keyboard)', async () => {
    const { user } = await renderStep('contacto');
    const email = screen.getByLabelText(EMAIL);
    await user.click(email);
    expect(email).toHaveFocus();
    await user.keyboard('ana@example.com{Enter}');
    expect(email).not.toHaveFocus();
    expect(document.activeElement).toBe(document.body);
    const area = screen.getByLabelText(AREA);
    await user.click(area);
    await user.keyboard('{Enter}');
    expect(document.activeElement).not.toBe(area);
  });
});
