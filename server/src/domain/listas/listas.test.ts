/** Reference lists from server/data/ar: counts from SOURCES.md and the locality search. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAN_JOSE_PRIMERAS } from '../../../../tests/support/localidades.ts';
import { loadLists, normalizar } from './index.ts';

const lists = loadLists(join(import.meta.dirname, '../../../data/ar'));

describe('loadLists', () => {
  it('loads the row counts documented in SOURCES.md', () => {
    expect(lists.provincias).toHaveLength(24);
    expect([...lists.departamentosPorProvincia.values()].flat()).toHaveLength(525);
    expect(lists.localidadesPorId.size).toBe(3526);
    expect(lists.codigosArea.size).toBe(301);
    expect(lists.bancos.size).toBe(65);
  });
  it('gives CABA a department name and keeps missing coordinates as null', () => {
    expect(lists.localidadesPorId.get('02000010')).toMatchObject({ departamento: 'Ciudad Autónoma de Buenos Aires', lat: -34.61329 });
    expect(lists.localidadesPorId.get('06434010')).toMatchObject({ lat: null, lon: null });
  });
});

describe('buscarLocalidades', () => {
  it('normalizes accents, case and punctuation', () => {
    expect(normalizar('  Malvinas Argentinas (Almirante Brown) ')).toBe('malvinas argentinas almirante brown');
  });
  it('puts names that start with the text first, then word matches, and honours limit and province', () => {
    const r = lists.buscarLocalidades({ q: 'SAN MARTIN', limit: 50 });
    expect(r.length).toBeGreaterThan(3);
    const firstWordMatch = r.findIndex((l) => !normalizar(l.nombre).startsWith('san martin'));
    expect(r.slice(0, firstWordMatch).every((l) => normalizar(l.nombre).startsWith('san martin'))).toBe(true);
    expect(r.slice(firstWordMatch).every((l) => normalizar(l.nombre).includes(' san martin'))).toBe(true);
    expect(lists.buscarLocalidades({ q: 'san', limit: 5 })).toHaveLength(5);
    expect(lists.buscarLocalidades({ provincia: '94', q: 'ushu', limit: 5 }).map((l) => l.nombre)).toEqual(['Ushuaia']);
    expect(lists.buscarLocalidades({ provincia: '02', limit: 20 }).map((l) => l.id)).toEqual(['02000010']);
  });
  it('searches every province without one; «name, province» as the options read keeps that province only', () => {
    const shown = (q: string) => lists.buscarLocalidades({ q, limit: 12 }).map((l) => `${l.nombre}, ${l.provincia}`);
    expect(shown('Lanús')).toEqual(['Lanús, Buenos Aires']);
    expect(shown('Lanús, Buenos Aires')).toEqual(['Lanús, Buenos Aires']);
    expect(shown('San José').slice(0, 7)).toEqual(SAN_JOSE_PRIMERAS);
    expect(shown('san jose, entre rios')).toEqual(['San José, Entre Ríos', 'San José de Feliciano, Entre Ríos']);
    // a province named by a later word too: «Santa Cruz» for «fuego» would not match, «del Fuego» does
    expect(shown('Ushuaia, del fuego')).toEqual(['Ushuaia, Tierra del Fuego, Antártida e Islas del Atlántico Sur']);
    expect(shown('Lanús, Córdoba')).toEqual([]);
  });
});
