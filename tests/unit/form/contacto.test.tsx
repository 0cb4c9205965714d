/**
 * Step "contacto": e-mail and the phone as ONE field (PhoneField) that the form sends as the wire's areaCod +
 * phoneNumber, split by libphonenumber-js; Spanish messages, server checks (ENACOM) shown on the phone.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { describedByTexts, renderStep } from './render-step';

const EMAIL = 'E-mail';
const PHONE = 'Celular';
const HELP = 'Con el código de área, como lo marcás. Ej.: 11 5555-1234 o 3541 12-3456.';

async function typed(phone: string) {
  const r = await renderStep('contacto');
  await r.user.type(screen.getByLabelText(EMAIL), 'ana@example.com');
  await r.user.type(screen.getByLabelText(PHONE), phone);
  await r.user.click(r.submit);
  return r;
}

describe('contacto', () => {
  it('two inputs: the e-mail, then one phone input with a tel keyboard, its example and no separate area code', async () => {
    await renderStep('contacto');
    const inputs = screen.getAllByRole('textbox');
    expect(inputs.map((i) => i.getAttribute('id'))).toEqual(['contacto_email', 'contacto_phoneNumber']);
    expect(screen.getByLabelText(EMAIL)).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText(EMAIL)).toHaveAttribute('autocomplete', 'email');
    const phone = screen.getByLabelText(PHONE);
    expect(phone).toHaveAttribute('type', 'tel');
    expect(phone).toHaveAttribute('autocomplete', 'tel-national');
    expect(phone).toHaveAttribute('placeholder', '11 5555-1234');
    expect(describedByTexts(phone)).toEqual([HELP]);
    expect(screen.queryByLabelText('Código de área')).not.toBeInTheDocument();
  });

  it.each([
    ['11 5555-1234', '11', '55551234'],
    ['3541 12-3456', '3541', '123456'],
    ['03541 15 12-3456', '3541', '123456'],
    ['+54 9 351 555-1234', '351', '5551234'],
    ['3541123456', '3541', '123456'],
  ])('«%s» is sent as areaCod %s + phoneNumber %s', async (text, areaCod, phoneNumber) => {
    const { onSubmit } = await typed(text);
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0]).toEqual({ email: 'ana@example.com', areaCod, phoneNumber });
  });

  it('the number without its area code asks for the code, on the phone field', async () => {
    const { onSubmit } = await typed('55551234');
    const msg = 'Falta el código de área: escribilo antes del número, por ejemplo 11 5555-1234 o 3541 12-3456.';
    expect(screen.getByRole('alert')).toHaveTextContent(`Celular: ${msg}`);
    expect(describedByTexts(screen.getByLabelText(PHONE))).toEqual([HELP, `Error: ${msg}`]);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('too few digits get one message that says what a phone is', async () => {
    const { onSubmit } = await typed('11 5555');
    const msg = 'Revisá el celular: código de área y número suman 10 cifras, por ejemplo 11 5555-1234 o 3541 12-3456.';
    const summary = screen.getByRole('alert');
    expect(summary.querySelectorAll('li')).toHaveLength(1);
    expect(summary).toHaveTextContent(`Celular: ${msg}`);
    expect(screen.getByLabelText(PHONE)).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('empty: the phone is required', async () => {
    const { user, submit, onSubmit } = await renderStep('contacto');
    await user.type(screen.getByLabelText(EMAIL), 'ana@example.com');
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Celular: Ingresá tu celular con el código de área.');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('an invalid e-mail gets the Spanish example message, linked to the input', async () => {
    const { user, submit, onSubmit } = await renderStep('contacto');
    await user.type(screen.getByLabelText(EMAIL), 'ana@');
    await user.type(screen.getByLabelText(PHONE), '11 5555-1234');
    await user.click(submit);
    const msg = 'Ingresá un e-mail válido, por ejemplo nombre@correo.com.';
    expect(screen.getByRole('alert')).toHaveTextContent(msg);
    expect(describedByTexts(screen.getByLabelText(EMAIL))).toContain(`Error: ${msg}`);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("restored answers show as one number; the server's area-code error shows on the phone field", async () => {
    await renderStep('contacto', {
      formData: { email: 'ana@example.com', areaCod: '999', phoneNumber: '5555123' },
      serverErrors: {
        areaCod: 'Ese código de área no existe en la numeración argentina (ENACOM). Revisalo: va sin el 0, como 11, 351 o 3541.',
      },
    });
    const phone = screen.getByLabelText(PHONE);
    expect(phone).toHaveValue('999 5555123');
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(describedByTexts(phone)).toContain(
      'Error: Ese código de área no existe en la numeración argentina (ENACOM). Revisalo: va sin el 0, como 11, 351 o 3541.',
    );
    expect(screen.getByLabelText(EMAIL)).not.toHaveAttribute('aria-invalid');
  });

  it('Enter in an input blurs it (closes the phone keyboard)', async () => {
    const { user } = await renderStep('contacto');
    const email = screen.getByLabelText(EMAIL);
    await user.click(email);
    await user.keyboard('ana@example.com{Enter}');
    expect(email).not.toHaveFocus();
    const phone = screen.getByLabelText(PHONE);
    await user.click(phone);
    await user.keyboard('{Enter}');
    expect(document.activeElement).not.toBe(phone);
  });
});
