// @vitest-environment jsdom -- reads localStorage/sessionStorage and window events as the browser has them
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { allSettled, createEvent, createStore, fork } from 'effector';
import { createPersistence, omitPointers, readState, writeState } from './index';

const CARD = '4509953566233704';
const CBU = '2850590940090418135201';
const EXCLUDE = ['/answers/metodo-de-pago/numberPaymentCard', '/answers/metodo-de-pago/numberCBU'];

const sampleState = () => ({
  flags: { houseDetail: false, step5: true },
  answers: {
    contacto: { email: 'ana@example.com' },
    'metodo-de-pago': { methodPayment: 'TC', namePaymentCard: 'ANA PEREZ', numberPaymentCard: CARD, numberCBU: CBU },
  },
});

/** A Storage whose every method throws, like Safari private mode or a full quota. */
const throwingStorage = (): Storage =>
  ({
    getItem: () => {
      throw new DOMException('denied', 'SecurityError');
    },
    setItem: () => {
      throw new DOMException('full', 'QuotaExceededError');
    },
    removeItem: () => {},
    clear: () => {},
    key: () => null,
    length: 0,
  }) as Storage;

beforeEach(() => localStorage.clear());
afterEach(() => vi.restoreAllMocks());

describe('omitPointers', () => {
  it('removes the leaves at the pointers and leaves the input untouched', () => {
    const state = sampleState();
    const out = omitPointers(state, EXCLUDE);
    expect(out.answers['metodo-de-pago']).toEqual({ methodPayment: 'TC', namePaymentCard: 'ANA PEREZ' });
    expect(state.answers['metodo-de-pago'].numberPaymentCard).toBe(CARD);
    expect(state.answers['metodo-de-pago'].numberCBU).toBe(CBU);
    out.answers.contacto.email = 'otra@example.com';
    expect(state.answers.contacto.email).toBe('ana@example.com'); // deep copy
  });

  it('ignores missing paths and malformed pointers', () => {
    const state = { a: { b: 1 }, list: [1, 2] };
    expect(omitPointers(state, ['/a/x/y', '/nope', 'a/b', '/list/7', '/list/-'])).toEqual(state);
  });

  it('decodes ~1 and ~0 and removes array elements', () => {
    const state = { 'a/b': { 'c~d': 1, keep: 2 }, list: ['x', 'y', 'z'] };
    expect(omitPointers(state, ['/a~1b/c~0d', '/list/1'])).toEqual({ 'a/b': { keep: 2 }, list: ['x', 'z'] });
  });
});

describe('writeState / readState', () => {
  it('never writes the card number or the CBU', () => {
    writeState(localStorage, 'k', sampleState(), EXCLUDE);
    const raw = localStorage.getItem('k')!;
    expect(raw).toContain('ana@example.com');
    expect(raw).not.toContain(CARD);
    expect(raw).not.toContain(CBU);
  });

  it('round-trips a state', () => {
    writeState(localStorage, 'k', { a: [1, { b: 'ñ' }] }, []);
    expect(readState(localStorage, 'k')).toEqual({ a: [1, { b: 'ñ' }] });
  });

  it('logs and ignores a throwing storage, a missing storage and a circular state', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    expect(() => writeState(throwingStorage(), 'k', { a: 1 }, [])).not.toThrow();
    expect(() => writeState(undefined, 'k', { a: 1 }, [])).not.toThrow();
    expect(() => writeState(localStorage, 'k', circular, [])).not.toThrow();
    expect(localStorage.getItem('k')).toBeNull();
    expect(error).toHaveBeenCalledTimes(3);
  });

  it('returns null for absent, corrupted or unreadable data', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(readState(localStorage, 'absent')).toBeNull();
    localStorage.setItem('k', '{"flags": {tru');
    expect(readState(localStorage, 'k')).toBeNull();
    expect(readState(throwingStorage(), 'k')).toBeNull();
    expect(readState(undefined, 'k')).toBeNull();
    expect(error).toHaveBeenCalledTimes(2);
  });
});

describe('createPersistence', () => {
  const setup = (storage?: () => Storage | undefined) => {
    const changed = createEvent<ReturnType<typeof sampleState>>();
    const $state = createStore(sampleState()).on(changed, (_, s) => s);
    const persistence = createPersistence({ key: 'cotizador-hogar:estado', $state, exclude: EXCLUDE, storage });
    return { changed, $state, ...persistence };
  };

  it('writes every change, without the card number', async () => {
    const { changed } = setup();
    const scope = fork();
    const next = sampleState();
    next.flags.step5 = false;
    await allSettled(changed, { scope, params: next });
    const raw = localStorage.getItem('cotizador-hogar:estado')!;
    expect(JSON.parse(raw).flags.step5).toBe(false);
    expect(raw).not.toContain(CARD);

    const again = { ...next, flags: { ...next.flags, step5: true } };
    await allSettled(changed, { scope, params: again });
    expect(JSON.parse(localStorage.getItem('cotizador-hogar:estado')!).flags.step5).toBe(true);
  });

  it('restores what was written, minus the excluded fields', async () => {
    const { changed, restoreFx } = setup();
    await allSettled(changed, { scope: fork(), params: sampleState() });
    const restored = await allSettled(restoreFx, { scope: fork() });
    expect(restored).toEqual({
      status: 'done',
      value: {
        flags: { houseDetail: false, step5: true },
        answers: {
          contacto: { email: 'ana@example.com' },
          'metodo-de-pago': { methodPayment: 'TC', namePaymentCard: 'ANA PEREZ' },
        },
      },
    });
  });

  it('restores corrupted JSON as null', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { restoreFx } = setup();
    localStorage.setItem('cotizador-hogar:estado', '{not json');
    expect(await allSettled(restoreFx, { scope: fork() })).toEqual({ status: 'done', value: null });
  });

  it('keeps the app working when storage throws', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { changed, $state, restoreFx } = setup(throwingStorage);
    const scope = fork();
    const next = sampleState();
    next.flags.step5 = false;
    await allSettled(changed, { scope, params: next });
    expect(scope.getState($state).flags.step5).toBe(false);
    expect(await allSettled(restoreFx, { scope })).toEqual({ status: 'done', value: null });
    expect(error).toHaveBeenCalledTimes(2);
  });
});
