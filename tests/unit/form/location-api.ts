/** A fake of the API client's `get` for the location lists (shapes of schemas/api/README.md › listas). */
import { vi } from 'vitest';

export const provincias = [
  { id: '06', nombre: 'Buenos Aires', iso: 'AR-B' },
  { id: '14', nombre: 'Córdoba', iso: 'AR-X' },
];

const localidades = [
  { id: '06434010', nombre: 'Lanús', provinciaId: '06', provincia: 'Buenos Aires', departamentoId: '06434', departamento: 'Lanús' },
  { id: '06434020', nombre: 'Lanús Este', provinciaId: '06', provincia: 'Buenos Aires', departamentoId: '06434', departamento: 'Lanús' },
  { id: '06441030', nombre: 'La Plata', provinciaId: '06', provincia: 'Buenos Aires', departamentoId: '06441', departamento: 'La Plata' },
  {
    id: '06427010',
    nombre: 'Banfield',
    provinciaId: '06',
    provincia: 'Buenos Aires',
    departamentoId: '06490',
    departamento: 'Lomas de Zamora',
  },
  // two localities of one name in different departments: the name alone is ambiguous
  {
    id: '06028010',
    nombre: 'San José',
    provinciaId: '06',
    provincia: 'Buenos Aires',
    departamentoId: '06028',
    departamento: 'Almirante Brown',
  },
  {
    id: '06840010',
    nombre: 'San José',
    provinciaId: '06',
    provincia: 'Buenos Aires',
    departamentoId: '06840',
    departamento: 'Tres de Febrero',
  },
  { id: '14014010', nombre: 'Córdoba', provinciaId: '14', provincia: 'Córdoba', departamentoId: '14014', departamento: 'Capital' },
  // the same name in another province: told apart by the province the option reads
  { id: '14133180', nombre: 'San José', provinciaId: '14', provincia: 'Córdoba', departamentoId: '14133', departamento: 'San Javier' },
];

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

type Query = Record<string, string | number | undefined> | undefined;

/**
 * `get` answering `/listas/provincias` and `/listas/localidades` (accent-insensitive word prefix; text after a comma
 * filters by the province's name, as the server does: server/src/domain/lists › buscarLocalidades).
 */
export function fakeLocationApi() {
  const get = vi.fn(async (path: string, query?: Query): Promise<unknown> => {
    if (path === '/listas/provincias') return provincias;
    if (path === '/listas/localidades') {
      const [name = '', province] = String(query?.q ?? '').split(',');
      const q = fold(name.trim());
      return localidades
        .filter((l) => !query?.provincia || l.provinciaId === query.provincia)
        .filter((l) => province === undefined || fold(l.provincia).startsWith(fold(province.trim())))
        .filter(
          (l) =>
            fold(l.nombre)
              .split(/\s+/)
              .some((w) => w.startsWith(q)) || fold(l.nombre).startsWith(q),
        )
        .slice(0, Number(query?.limit ?? 20));
    }
    throw new Error(`ruta inesperada ${path}`);
  });
  return { get: get as unknown as <T>(path: string, query?: Query) => Promise<T>, calls: get };
}
