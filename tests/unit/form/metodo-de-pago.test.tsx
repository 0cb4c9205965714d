/** Step "metodo-de-pago": credit card (grouped number, brand, MM/AA) or CBU debit (22 digits). */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatExpiry } from '../../../src/form/widgets/CardExpiryWidget';
import { groupCardDigits } from '../../../src/form/widgets/CardNumberWidget';
import { describedByTexts, renderStep } from './render-step';

const HOLDER = 'Nombre como figura en la tarjeta';
const NUMBER = 'Número de tarjeta';
const EXPIRY = 'Vencimiento';
const CBU = 'CBU';

describe('groupCardDigits', () => {
  it('groups 4-4-4-4 and drops anything that is not a digit', () => {
    expect(groupCardDigits('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(groupCardDigits('4242-4242 42a')).toBe('4242 4242 42');
    expect(groupCardDigits('')).toBe('');
  });
  it('groups American Express 4-6-5', () => {
    expect(groupCardDigits('378282246310005')).toBe('3782 822463 10005');
    expect(groupCardDigits('3412345')).toBe('3412 345');
  });
  it('keeps at most 19 digits (4-4-4-4-3)', () => {
    expect(groupCardDigits('1234567890123456789999')).toBe('1234 5678 9012 3456 789');
  });
});

describe('formatExpiry', () => {
  it('adds the slash after the month and keeps 4 digits', () => {
    expect(formatExpiry('1230')).toBe('12/30');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('123')).toBe('12/3');
    expect(formatExpiry('12/309')).toBe('12/30');
    expect(formatExpiry('ab')).toBe('');
  });
});

describe('metodo-de-pago', () => {
  it('the two methods are a fieldset with its legend; no detail field before choosing', async () => {
    await renderStep('metodo-de-pago');
    const group = screen.getByRole('group', { name: 'Medio de pago' });
    expect(group.tagName).toBe('FIELDSET');
    expect(screen.getByRole('radio', { name: /Tarjeta de crédito/ })).not.toBeChecked();
    expect(screen.queryByLabelText(NUMBER)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(CBU)).not.toBeInTheDocument();
  });

  it('a credit card shows holder, number and expiry, not the CBU', async () => {
    const { user } = await renderStep('metodo-de-pago');
    await user.click(screen.getByRole('radio', { name: /Tarjeta de crédito/ }));
    expect(screen.getByLabelText(HOLDER)).toHaveAttribute('autocomplete', 'cc-name');
    expect(screen.getByLabelText(NUMBER)).toHaveAttribute('autocomplete', 'cc-number');
    expect(screen.getByLabelText(EXPIRY)).toHaveAttribute('placeholder', 'MM/AA');
    expect(screen.queryByLabelText(CBU)).not.toBeInTheDocument();
  });

  it('the card number is shown in groups of 4 with its brand; the expiry gets its slash', async () => {
    const { user } = await renderStep('metodo-de-pago');
    await user.click(screen.getByRole('radio', { name: /Tarjeta de crédito/ }));
    const number = screen.getByLabelText(NUMBER);
    expect(screen.queryByText('Visa')).not.toBeInTheDocument();
    await user.type(number, '4242424242424242');
    expect(number).toHaveValue('4242 4242 4242 4242');
    expect(screen.getByText('Visa')).toBeInTheDocument();
    const expiry = screen.getByLabelText(EXPIRY);
    await user.type(expiry, '1230');
    expect(expiry).toHaveValue('12/30');
  });

  it('an American Express number is grouped 4-6-5 with its brand', async () => {
    const { user } = await renderStep('metodo-de-pago');
    await user.click(screen.getByRole('radio', { name: /Tarjeta de crédito/ }));
    await user.type(screen.getByLabelText(NUMBER), '378282246310005');
    expect(screen.getByLabelText(NUMBER)).toHaveValue('3782 822463 10005');
    expect(screen.getByText('American Express')).toBeInTheDocument();
  });

  it('a card with missing details is not submitted; each field says what is missing', async () => {
    const { user, submit, onSubmit } = await renderStep('metodo-de-pago');
    await user.click(screen.getByRole('radio', { name: /Tarjeta de crédito/ }));
    await user.click(submit);
    const summary = screen.getByRole('alert');
    expect(summary).toHaveTextContent('Ingresá el nombre del titular.');
    expect(summary).toHaveTextContent('Ingresá el número de la tarjeta.');
    expect(summary).toHaveTextContent('Ingresá el vencimiento.');
    expect(describedByTexts(screen.getByLabelText(EXPIRY))).toEqual(['Error: Ingresá el vencimiento.']);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('a complete card is submitted', async () => {
    const { user, submit, onSubmit } = await renderStep('metodo-de-pago');
    await user.click(screen.getByRole('radio', { name: /Tarjeta de crédito/ }));
    await user.type(screen.getByLabelText(HOLDER), 'ANA PEREZ');
    await user.type(screen.getByLabelText(NUMBER), '4242424242424242');
    await user.type(screen.getByLabelText(EXPIRY), '1230');
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      methodPayment: 'TC',
      namePaymentCard: 'ANA PEREZ',
      numberPaymentCard: '4242 4242 4242 4242',
      expirationPaymentCard: '12/30',
    });
  });

  it('CBU debit hides the card fields and requires the 22-digit CBU', async () => {
    const { user, submit, onSubmit } = await renderStep('metodo-de-pago');
    await user.click(screen.getByRole('radio', { name: /Tarjeta de crédito/ }));
    await user.type(screen.getByLabelText(NUMBER), '4242424242424242');
    await user.click(screen.getByRole('radio', { name: /Débito en cuenta \(CBU\)/ }));
    expect(screen.queryByLabelText(HOLDER)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(NUMBER)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(EXPIRY)).not.toBeInTheDocument();
    const cbu = screen.getByLabelText(CBU);
    expect(describedByTexts(cbu)).toEqual(['Son 22 números. Lo encontrás en tu home banking.']);

    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Ingresá el CBU.');
    expect(screen.getByRole('alert')).not.toHaveTextContent('tarjeta');

    await user.type(cbu, '0110599520000001234');
    await user.click(submit);
    expect(describedByTexts(cbu)).toContain('Error: El CBU tiene 22 números.');
    expect(onSubmit).not.toHaveBeenCalled();

    await user.type(cbu, '567');
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual({ methodPayment: 'CBU', numberCBU: '0110599520000001234567' });
  });
});
