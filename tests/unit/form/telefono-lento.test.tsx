/**
 * A visitor on a slow phone types the phone and taps «Continuar» before the phone parser's chunk (src/core/numeracion.ts,
 * libphonenumber-js) has arrived: the tap is not lost. The submit waits for the typed phone to be split and then goes
 * through once, with the wire's areaCod + phoneNumber, and no error flashes meanwhile (FormContext › holdSubmit).
 * The chunk is held by mocking the module with a factory that waits on a gate the test opens.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderStep } from './render-step';

const gate = vi.hoisted(() => {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
});

vi.mock('../../../src/core/numeracion.ts', async (original) => {
  await gate.opened;
  return original();
});

describe('contacto, the parser not here yet', () => {
  it('«Continuar» tapped before the parser arrives sends the phone once it has, with no error shown meanwhile', async () => {
    const r = await renderStep('contacto');
    await r.user.type(screen.getByLabelText('E-mail'), 'ana@example.com');
    await r.user.type(screen.getByLabelText('Celular'), '3541 12-3456');
    await r.user.click(r.submit);

    // held: nothing sent, and no error summary for a phone the visitor did type
    expect(r.onSubmit).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    gate.open();
    await waitFor(() => expect(r.onSubmit).toHaveBeenCalledTimes(1));
    expect(r.onSubmit.mock.calls[0]![0]).toEqual({ email: 'ana@example.com', areaCod: '3541', phoneNumber: '123456' });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Celular')).toHaveValue('3541 12-3456');
  });
});
