/** A server's field errors mapped back to the form fields that fed the request, through the call's bindings. */
import { describe, expect, it } from 'vitest';
import { fieldErrorsOf, inputFieldErrors } from './calls.ts';
import type { CallDef } from '../core/flow/types.ts';

const errors = [
  { field: '/dni', message: 'Ingresá el DNI sin puntos (7 u 8 números).' },
  { field: '/canal', message: 'Canal desconocido.' },
];

describe('field errors of a call', () => {
  it('a standalone form: errors on fields bound from /input go on those fields, the rest apart', () => {
    const call: CallDef = { method: 'POST', path: '/postventa/baja', body: { dni: '/input/dni', canal: { const: 'web' } } };
    expect(inputFieldErrors(call, errors)).toEqual({
      fields: { dni: 'Ingresá el DNI sin puntos (7 u 8 números).' },
      rest: ['Canal desconocido.'],
    });
  });

  it("a step: errors on fields bound from the step's answers go on those fields", () => {
    const call: CallDef = { method: 'POST', path: '/x', body: { dni: '/answers/datos-personales/numberDoc', canal: '/input/canal' } };
    expect(fieldErrorsOf(call, 'datos-personales', errors)).toEqual({
      fields: { numberDoc: 'Ingresá el DNI sin puntos (7 u 8 números).' },
      rest: ['Canal desconocido.'],
    });
  });
});
