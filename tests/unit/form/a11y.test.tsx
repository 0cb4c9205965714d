/**
 * Accessibility basics on every form step, after an empty submit (so errors are on screen):
 * every control has an accessible name, every invalid control points at its message through
 * aria-describedby, and choice groups are fieldsets named by their legend.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeLocationApi } from './location-api';
import { plans } from './plans';
import { makeContext, renderStep, type RenderStepOptions } from './render-step';

const api = fakeLocationApi();
const context = makeContext({ cotizacion: { planes: plans }, planElegido: plans[1] });

type User = Awaited<ReturnType<typeof renderStep>>['user'];
const cases: [string, ((user: User) => Promise<void>)?, RenderStepOptions?][] = [
  ['propiedad', (u) => u.click(screen.getByRole('radio', { name: /Casa/ }))],
  ['permanencia'],
  ['metros'],
  ['contacto'],
  // the start comes preselected (tomorrow; its own effect fills it after the first render): once it shows, the visitor
  // clears it to get the error
  ['vigencia', async (u) => u.clear(await screen.findByDisplayValue(/^\d{2}\/\d{2}\/\d{4}$/))],
  ['datos-personales'],
  ['metodo-de-pago', (u) => u.click(screen.getByRole('radio', { name: /Tarjeta de crédito/ }))],
  ['metodo-de-pago', (u) => u.click(screen.getByRole('radio', { name: /Débito en cuenta/ }))],
  ['localidad'],
  ['direccion', undefined, { formData: { checkTyC: false } }],
  ['cotizacion'],
  ['adicionales'],
];

describe.each(cases)('%s', (stepId, prepare, opts) => {
  it('controls are named, errors are linked, groups are fieldsets with a legend', async () => {
    const { user, submit } = await renderStep(stepId, { api, context, ...opts });
    if (stepId === 'direccion') await screen.findByRole('option', { name: 'Buenos Aires' });
    await prepare?.(user);
    await user.click(submit);

    const controls = [...document.querySelectorAll<HTMLElement>('form input, form select')];
    expect(controls.length).toBeGreaterThan(0);
    for (const c of controls) expect(c).toHaveAccessibleName();

    // Every control that is not a radio/checkbox is reachable by its visible label.
    for (const c of controls.filter((c) => !['radio', 'checkbox'].includes(c.getAttribute('type') ?? ''))) {
      const label = document.querySelector(`label[for="${c.id}"]`);
      expect(label, `label de #${c.id}`).not.toBeNull();
      expect(screen.getByLabelText(label!.textContent!)).toBe(c);
    }

    // Radios of choice groups live in a fieldset with a legend (plan cards: a named radiogroup).
    for (const radio of screen.queryAllByRole('radio')) {
      const fieldset = radio.closest('fieldset');
      expect(fieldset).not.toBeNull();
      const legend = fieldset!.querySelector(':scope > legend');
      if (legend) expect(within(screen.getByRole('group', { name: legend.textContent! })).getAllByRole('radio')).toContain(radio);
      else expect(radio.closest('[role="radiogroup"]')).toHaveAccessibleName();
    }

    // Every invalid control or group names its message via aria-describedby, and the summary lists it.
    const summary = screen.queryByRole('alert');
    const invalid = [...document.querySelectorAll('[aria-invalid="true"]:not([role="radiogroup"]), fieldset.field--invalid')];
    if (stepId === 'adicionales') expect(summary).toBeNull();
    else expect(invalid.length).toBeGreaterThan(0);
    for (const el of invalid) {
      const ids = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
      const messages = ids.map((id) => document.getElementById(id)).filter((n) => n?.classList.contains('field__error'));
      expect(messages, `mensaje enlazado a ${el.id || el.getAttribute('data-field')}`).toHaveLength(1);
      const text = messages[0]!.textContent!.replace(/^Error: /, '');
      expect(text).not.toBe('');
      expect(within(summary!).getAllByText(text).length).toBeGreaterThan(0);
    }
  });
});

describe('focus after a failed submit (GOV.UK error summary)', () => {
  it('moves to the error summary, whose link for each field focuses that field', async () => {
    const { user, submit } = await renderStep('contacto');
    await user.click(submit);
    const summary = screen.getByRole('alert');
    expect(summary).toHaveFocus();
    await user.click(within(summary).getByRole('link', { name: 'E-mail: Este dato es obligatorio.' }));
    expect(screen.getByLabelText('E-mail')).toHaveFocus();
  });

  it('also for a format error further down', async () => {
    const { user, submit } = await renderStep('contacto', { formData: { email: 'ana@example.com', phoneNumber: '55551234' } });
    await user.click(submit);
    const summary = screen.getByRole('alert');
    expect(summary).toHaveFocus();
    // the area code's error is about the one phone input, which the link focuses
    expect(
      within(summary)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Celular: Falta el código de área: escribilo antes del número, por ejemplo 11 5555-1234 o 3541 12-3456.']);
    await user.click(within(summary).getByRole('link'));
    expect(screen.getByLabelText('Celular')).toHaveFocus();
  });

  it('the link of an unanswered choice group focuses its first radio', async () => {
    const { user, submit } = await renderStep('propiedad');
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveFocus();
    await user.click(within(screen.getByRole('alert')).getByRole('link', { name: /^Tipo de vivienda: / }));
    expect(screen.getByRole('radio', { name: /Casa/ })).toHaveFocus();
  });
});
