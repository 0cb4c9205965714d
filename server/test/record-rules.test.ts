/**
 * What the recorder writes replays as is on a later day — dates relative to the day, the phone of the length its area
 * code needs (ENACOM list), a valid document, the schemas' own test values kept (a refused card stays refused), only
 * the submit's declared calls, the result as expectations.
 * The clock is moved: a recording made on 2026-11-25 is replayed 400 days later.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadReplayProduct } from '../../scripts/replay.ts';
import { resolveAnswer } from '../../tools/replay/fixture.ts';
import {
  declaredCall,
  isSchemaExample,
  phoneFor,
  recordedAnswers,
  relativeDate,
  resultExpectations,
} from '../../src/recorder/record-rules.ts';
import pagoSchema from '../../schemas/metodo-de-pago.schema.json' with { type: 'json' };
import type { Pins } from '../../src/recorder/pins.ts';
import { loadLists } from '../src/domain/listas/index.ts';
import { validarDocumento } from '../src/domain/validation/documento.ts';
import { validarTelefono } from '../src/domain/validation/telefono.ts';

const RECORDED = new Date('2026-11-25T15:00:00Z'); // 12:00 in Buenos Aires
const LATER = new Date(RECORDED.getTime() + 400 * 86_400_000);
const { flow } = loadReplayProduct('.');

/** Age in whole years on `on` (YYYY-MM-DD) of someone born `born`. */
const age = (born: string, on: string) => {
  const [by, bm, bd] = born.split('-').map(Number);
  const [y, m, d] = on.split('-').map(Number);
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
};

describe('a recording replays as is', () => {
  it('records dates relative to the day: a start date stays ahead, a birth date keeps its age when the clock moves', () => {
    const answers = recordedAnswers(
      { initPolicyDate: '2026-11-27', ddjj: { actividad: 'Docente' }, birthDate: '1985-04-12', metros: 80 },
      RECORDED,
    );
    expect(answers).toEqual({ initPolicyDate: '$hoy+2', ddjj: { actividad: 'Docente' }, birthDate: '$hoy-15202', metros: 80 });
    expect(resolveAnswer(answers.initPolicyDate, RECORDED)).toBe('2026-11-27');
    expect(resolveAnswer(answers.initPolicyDate, LATER)).toBe('2028-01-01');
    expect(resolveAnswer(answers.birthDate, RECORDED)).toBe('1985-04-12');
    const bornLater = resolveAnswer(answers.birthDate, LATER) as string;
    expect(bornLater).toBe('1986-05-17');
    expect(age(bornLater, '2027-12-30')).toBe(age('1985-04-12', '2026-11-25')); // 41 both times
    expect(relativeDate('2026-11-25', RECORDED)).toBe('$hoy');
    expect(relativeDate('no es fecha', RECORDED)).toBe('no es fecha');
  });

  it('fits the placeholder phone to the area code, valid for ENACOM numbering (2, 3 and 4-digit codes)', () => {
    const { codigosArea } = loadLists(join('server/data/ar'));
    for (const [area, numero] of [
      ['11', '55551234'],
      ['221', '5555123'],
      ['3541', '555512'],
      ['2964', '555512'],
    ]) {
      expect(phoneFor(area)).toBe(numero);
      expect(validarTelefono(area, phoneFor(area), codigosArea), area).toEqual({ valido: true });
      const recorded = recordedAnswers({ email: 'ana.perez@example.com', areaCod: area, phoneNumber: '55551234' }, RECORDED, '55551234');
      expect(recorded.phoneNumber).toBe(numero);
    }
  });

  it('the document placeholder is valid for every document type', () => {
    const placeholder = flow.recorder!.replace!['/answers/datos-personales/numberDoc'] as string;
    for (const type of ['DNI', 'LE', 'LC', 'PAS'] as const) expect(validarDocumento(type, placeholder), type).toEqual({ valido: true });
  });

  it("keeps the payment step's own example values (the card and the CBU refused at emission) and replaces any other", () => {
    expect(isSchemaExample(pagoSchema, 'numberPaymentCard', '4000 0000 0000 0002')).toBe(true);
    expect(isSchemaExample(pagoSchema, 'numberPaymentCard', '4000000000000002')).toBe(true);
    expect(isSchemaExample(pagoSchema, 'numberCBU', '2850590900000000000000')).toBe(true);
    expect(isSchemaExample(pagoSchema, 'numberPaymentCard', '4111 1111 1111 1111')).toBe(false);
    expect(isSchemaExample(pagoSchema, 'numberPaymentCard', '2850590900000000000000')).toBe(false); // another field's
    expect(isSchemaExample(undefined, 'numberPaymentCard', '4000 0000 0000 0002')).toBe(false);
  });

  it('keeps the calls a submit declares and drops the funnel and lists', () => {
    expect(declaredCall(flow, 'vigencia', { method: 'POST', path: '/cotizacion/cotizar' })).toBe(true);
    expect(declaredCall(flow, 'vigencia', { method: 'POST', path: '/embudo/eventos' })).toBe(false);
    expect(declaredCall(flow, 'localidad', { method: 'GET', path: '/listas/localidades' })).toBe(false);
    expect(declaredCall(flow, 'confirmacion', { method: 'GET', path: '/emision/estado/123e4567-e89b-12d3-a456-426614174000' })).toBe(true);
  });

  it('records the money where it first shows and the policy number on the result', () => {
    const plan = (cod: string, premio: number) => ({
      codPlan: cod,
      premio,
      premioCuota: premio / 10,
      coberturas: {
        primary: [
          { codCobertura: '101', sumaAsegurada: 1000, selecc: 'S' },
          { codCobertura: '102', sumaAsegurada: 5, selecc: 'N' },
        ],
      },
    });
    const pins: Pins = {};
    const quoted = { data: { cotizacion: { planes: [plan('BASICO', 100), plan('INTEGRAL', 300)] } } };
    expect(resultExpectations(quoted, false, pins)).toEqual({
      planes: { BASICO: { premio: 100, premioCuota: 10 }, INTEGRAL: { premio: 300, premioCuota: 30 } },
    });
    expect(resultExpectations(quoted, false, pins)).toEqual({});
    const chosen = { data: { ...quoted.data, planElegido: plan('INTEGRAL', 300) } };
    expect(resultExpectations(chosen, false, pins)).toEqual({
      plan: { codPlan: 'INTEGRAL', premio: 300, premioCuota: 30, coberturas: { 101: 1000 } },
    });
    expect(resultExpectations({ data: { ...chosen.data, emision: { numSecuPol: 'HOG-2026-000123' } } }, true, pins)).toEqual({
      policyNumber: true,
    });
  });
});
