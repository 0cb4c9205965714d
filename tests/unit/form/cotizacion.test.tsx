/** Step "cotizacion": the quote's plans as cards (PlanCardsWidget), premiums in es-AR currency. */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { plans } from './plans';
import { makeContext, renderStep } from './render-step';

const context = makeContext({ cotizacion: { planes: plans } });

function card(name: string): HTMLElement {
  const el = screen.getByRole('radio', { name: new RegExp(`^${name}`) }).closest('[data-plan]');
  if (!(el instanceof HTMLElement)) throw new Error(`sin tarjeta para ${name}`);
  return el;
}

describe('cotizacion (PlanCards)', () => {
  it('shows each plan with its name and monthly premium in es-AR format; the recommended one is marked', async () => {
    await renderStep('cotizacion', { context });
    const group = screen.getByRole('radiogroup', { name: 'Elegí tu plan' });
    expect(within(group).getAllByRole('radio')).toHaveLength(3);
    // the screen writes Intl's no-break space after the sign, as the PDFs and e-mails do (one formatter)
    expect(within(card('Básico')).getByText('$ 15.234,50').textContent).toBe('$\u00a015.234,50');
    expect(within(card('Intermedio')).getByText('$ 27.346,33')).toBeInTheDocument();
    expect(
      within(card('Intermedio')).getByText('Premio anual $ 328.155,96, impuestos incluidos: 12 cuotas de $ 27.346,33'),
    ).toBeInTheDocument();
    // the last installment absorbs the cents: the cuotas add up to the premio
    expect(
      within(card('Básico')).getByText('Premio anual $ 182.813,95, impuestos incluidos: 11 cuotas de $ 15.234,50 y una de $ 15.234,45'),
    ).toBeInTheDocument();
    expect(within(card('Integral')).getByText('$ 1.234.567,80')).toBeInTheDocument();
    expect(screen.getAllByText('por mes')).toHaveLength(3);
    expect(screen.getAllByText('Recomendado')).toHaveLength(1);
    expect(within(card('Intermedio')).getByText('Recomendado')).toBeInTheDocument();
    expect(within(card('Básico')).queryByText('Recomendado')).not.toBeInTheDocument();
  });

  it('"Ver coberturas" expands the coverage list with the sums insured, and hides it again', async () => {
    const { user } = await renderStep('cotizacion', { context });
    const c = card('Intermedio');
    expect(within(c).queryByText('Robo contenido')).not.toBeInTheDocument();
    const toggle = within(c).getByRole('button', { name: 'Ver coberturas' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveTextContent('Ocultar coberturas');
    expect(within(c).getByText('Coberturas principales')).toBeInTheDocument();
    expect(within(c).getByText('Incendio edificio')).toBeInTheDocument();
    expect(within(c).getByText('$ 45.000.000')).toBeInTheDocument();
    expect(within(c).getByText('Robo contenido')).toBeInTheDocument();
    expect(within(c).getByText('$ 3.000.000')).toBeInTheDocument();
    expect(within(c).getByText('Cristales')).toBeInTheDocument();
    expect(within(c).getByText('Cerrajería de urgencia')).toBeInTheDocument();
    expect(within(c).getByText('Hasta 3 servicios por año')).toBeInTheDocument();
    expect(within(c).queryByText('Cobertura oculta')).not.toBeInTheDocument(); // mostrar: 'N'
    expect(within(card('Básico')).queryByText('Incendio edificio')).not.toBeInTheDocument();
    await user.click(toggle);
    expect(within(c).queryByText('Robo contenido')).not.toBeInTheDocument();
  });

  it('submitting without choosing asks to choose a plan', async () => {
    const { user, submit, onSubmit } = await renderStep('cotizacion', { context });
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Elegí un plan para continuar.');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('choosing a plan submits its code', async () => {
    const { user, submit, onSubmit } = await renderStep('cotizacion', { context });
    await user.click(screen.getByRole('radio', { name: /^Integral/ }));
    expect(screen.getByRole('radio', { name: /^Integral/ })).toBeChecked();
    expect(within(card('Integral')).getByText('Plan elegido')).toBeInTheDocument();
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual({ codPlan: 'INTEGRAL' });
  });

  it('a previously chosen plan is checked and its coverages open', async () => {
    await renderStep('cotizacion', { context, formData: { codPlan: 'BASICO' } });
    expect(screen.getByRole('radio', { name: /^Básico/ })).toBeChecked();
    expect(within(card('Básico')).getByRole('button', { name: 'Ocultar coberturas' })).toHaveAttribute('aria-expanded', 'true');
  });

  it("choosing another plan marks it, closes the old plan's coverages and opens the new one's", async () => {
    const { user } = await renderStep('cotizacion', { context, formData: { codPlan: 'BASICO' } });
    await user.click(screen.getByRole('radio', { name: /^Integral/ }));
    expect(screen.getByRole('radio', { name: /^Integral/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /^Básico/ })).not.toBeChecked();
    expect(within(card('Integral')).getByRole('button', { name: 'Ocultar coberturas' })).toHaveAttribute('aria-expanded', 'true');
    expect(within(card('Básico')).getByRole('button', { name: 'Ver coberturas' })).toHaveAttribute('aria-expanded', 'false');
  });
});
