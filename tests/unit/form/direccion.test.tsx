/** Step "direccion": the location picker followed by the ordinary address fields and the terms. */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeLocationApi } from './location-api';
import { describedByTexts, renderStep } from './render-step';

const api = fakeLocationApi();
const TYC = 'Leí y acepto los términos y condiciones y la política de privacidad.';
const TYC_ERROR = 'Para continuar tenés que aceptar los términos y condiciones.';
const picked = { idProvince: '06', province: 'Buenos Aires', codLocation: '06434010', location: 'Lanús', department: 'Lanús' };

async function setup(formData?: Record<string, unknown>) {
  const r = await renderStep('direccion', { api, formData });
  await screen.findByRole('option', { name: 'Buenos Aires' });
  return r;
}

/** Ticks the terms box (it starts unticked: RJSF must not turn `const: true` into a default). */
async function acceptTerms(user: Awaited<ReturnType<typeof renderStep>>['user']) {
  const tyc = screen.getByRole('checkbox', { name: TYC });
  if (!(tyc as HTMLInputElement).checked) await user.click(tyc);
  expect(tyc).toBeChecked();
}

const follows = (a: Element, b: Element) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;

describe('direccion (LocationField + ordinary fields)', () => {
  it('renders the ordinary fields after the picker, each reachable by its label', async () => {
    await setup();
    const province = screen.getByLabelText('Provincia');
    const locality = screen.getByRole('combobox', { name: 'Localidad' });
    const street = screen.getByLabelText('Calle');
    const number = screen.getByLabelText('Número');
    const noNumber = screen.getByRole('checkbox', { name: 'Sin número' });
    const zip = screen.getByLabelText('Código postal');
    const tyc = screen.getByRole('checkbox', { name: TYC });
    expect(screen.getByLabelText('Piso (opcional)')).toBeInTheDocument();
    expect(screen.getByLabelText('Depto. (opcional)')).toBeInTheDocument();
    const order = [province, locality, street, number, noNumber, zip, tyc];
    for (let i = 1; i < order.length; i++) expect(follows(order[i - 1]!, order[i]!)).toBe(true);
    expect(street).toHaveAttribute('autocomplete', 'address-line1');
    expect(describedByTexts(zip)).toEqual(['4 números o el CPA completo (ej.: C1425ABC).']);
  });

  it('picks a province and a locality with the picker and submits the whole address', async () => {
    const { user, submit, onSubmit } = await setup();
    await user.selectOptions(screen.getByLabelText('Provincia'), '06');
    await user.type(screen.getByRole('combobox', { name: 'Localidad' }), 'banf');
    await user.click(await screen.findByRole('option', { name: /Banfield/ }));
    await user.type(screen.getByLabelText('Calle'), 'Av. Hipólito Yrigoyen');
    await user.type(screen.getByLabelText('Número'), '1234');
    await user.type(screen.getByLabelText('Código postal'), '1828');
    await acceptTerms(user);
    await user.click(submit);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      idProvince: '06',
      province: 'Buenos Aires',
      codLocation: '06427010',
      location: 'Banfield',
      department: 'Lomas de Zamora',
      addressName: 'Av. Hipólito Yrigoyen',
      numberAddress: '1234',
      noAddressNumber: false,
      zipCode: '1828',
      checkTyC: true,
    });
  });

  it('the number is required unless "Sin número" is ticked, which disables it', async () => {
    const { user, submit, onSubmit } = await setup({ ...picked, addressName: 'Pasaje sin salida', zipCode: '1824', checkTyC: true });
    const number = screen.getByLabelText('Número');
    expect(number).toBeEnabled();
    await user.click(submit);
    expect(describedByTexts(number)).toContain('Error: Ingresá el número o marcá «Sin número».');
    expect(onSubmit).not.toHaveBeenCalled();

    await user.type(number, '12');
    await user.click(screen.getByRole('checkbox', { name: 'Sin número' }));
    expect(screen.getByLabelText('Número')).toBeDisabled();
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    const sent = onSubmit.mock.calls[0]![0];
    expect(sent).toMatchObject({ noAddressNumber: true, addressName: 'Pasaje sin salida' });
    expect(sent).not.toHaveProperty('numberAddress');
  });

  it('not accepting the terms blocks the step with its message', async () => {
    const { user, submit, onSubmit } = await setup({
      ...picked,
      addressName: 'Mitre',
      numberAddress: '100',
      zipCode: '1824',
      checkTyC: false,
    });
    const tyc = screen.getByRole('checkbox', { name: TYC });
    expect(tyc).not.toBeChecked();
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent(TYC_ERROR);
    expect(tyc).toHaveAttribute('aria-invalid', 'true');
    expect(describedByTexts(tyc)).toEqual([`Error: ${TYC_ERROR}`]);
    expect(onSubmit).not.toHaveBeenCalled();
    await user.click(tyc);
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ checkTyC: true });
  });

  it('unticking the terms box blocks the step again', async () => {
    const { user, submit, onSubmit } = await setup({
      ...picked,
      addressName: 'Mitre',
      numberAddress: '100',
      zipCode: '1824',
      checkTyC: true,
    });
    await user.click(screen.getByRole('checkbox', { name: TYC }));
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent(TYC_ERROR);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  // KNOWN BUG (src/form/StepForm.tsx + schemas/direccion.schema.json): RJSF 6 uses `const` as a default
  // (experimental_defaultFormStateBehavior.constAsDefaults defaults to 'always'), so `checkTyC: { const: true }`
  // arrives pre-ticked and a visitor who never touched it "accepts" the terms. Remove `.fails` once fixed.
  it('the terms box starts unticked and an untouched form is not submitted', async () => {
    const { user, submit, onSubmit } = await setup({ ...picked, addressName: 'Mitre', numberAddress: '100', zipCode: '1824' });
    expect(screen.getByRole('checkbox', { name: TYC })).not.toBeChecked();
    await user.click(submit);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('a postal code must be 4 digits or a full CPA', async () => {
    const { user, submit, onSubmit } = await setup({ ...picked, addressName: 'Mitre', numberAddress: '100', checkTyC: true });
    const zip = screen.getByLabelText('Código postal');
    await user.type(zip, '18');
    await user.click(submit);
    expect(describedByTexts(zip)).toContain('Error: Ingresá 4 números o el CPA completo.');
    await user.clear(zip);
    await user.type(zip, 'B1824ABC');
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ zipCode: 'B1824ABC' });
  });
});
