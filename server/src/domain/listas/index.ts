/**
 * Reference lists: Argentine territorial units, ENACOM area codes and BCRA banks read once from the CSVs
 * in `server/data/ar` (see its SOURCES.md: INDEC/Georef via datos.gob.ar, ENACOM, BCRA) and kept in memory,
 * plus the fixed catalogues of the quote form (`catalogos.ts`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Banco } from '../validation/cbu.ts';
import type { CodigoArea } from '../validation/telefono.ts';

export interface Provincia {
  id: string;
  nombre: string;
  iso: string;
}
export interface Departamento {
  id: string;
  nombre: string;
  provinciaId: string;
}
/** Census locality (INDEC 8-digit code); lat/lon WGS 84, null when BAHRA has no coordinates. */
export interface Localidad {
  id: string;
  nombre: string;
  provinciaId: string;
  provincia: string;
  departamentoId: string;
  departamento: string;
  lat: number | null;
  lon: number | null;
}

export interface Lists {
  provincias: Provincia[];
  provinciasPorId: ReadonlyMap<string, Provincia>;
  departamentosPorProvincia: ReadonlyMap<string, Departamento[]>;
  localidadesPorId: ReadonlyMap<string, Localidad>;
  codigosArea: ReadonlyMap<string, CodigoArea>;
  bancos: ReadonlyMap<string, Banco>;
  /** Localities matching a search; see `buscarLocalidades`. */
  buscarLocalidades(opts: { provincia?: string; q?: string; limit: number }): Localidad[];
}

/** Search key: lower-case, without diacritics or punctuation, single spaces: "Malvinas Argentinas (Almirante Brown)" → "malvinas argentinas almirante brown". */
export function normalizar(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function readCsv(dir: string, file: string): Record<string, string>[] {
  return parse(readFileSync(join(dir, file), 'utf8'), { columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
}

const collator = new Intl.Collator('es-AR');

const cargadas = new Map<string, Lists>();

/**
 * Every list from `dir` (server/data/ar), read and parsed once per process and folder (~70 ms of CSV parsing for the
 * ~4,000 localities; a process that builds several apps — tests, the flow walker — shares them). The lists are
 * read-only: nothing changes them after the load.
 * @throws Error when a file is missing or unreadable (start-up fails loudly); a failed load is not kept.
 */
export function loadLists(dir: string): Lists {
  let listas = cargadas.get(dir);
  if (!listas) {
    listas = leerListas(dir);
    cargadas.set(dir, listas);
  }
  return listas;
}

function leerListas(dir: string): Lists {
  const provincias = readCsv(dir, 'provincias.csv')
    .map((r) => ({ id: r.id, nombre: r.nombre, iso: r.iso_3166_2 }))
    .sort((a, b) => collator.compare(a.nombre, b.nombre));
  const provinciasPorId = new Map(provincias.map((p) => [p.id, p]));

  const departamentosPorProvincia = new Map<string, Departamento[]>();
  const nombreDepartamento = new Map<string, string>();
  for (const r of readCsv(dir, 'departamentos.csv')) {
    const d = { id: r.id, nombre: r.nombre, provinciaId: r.provincia_id };
    nombreDepartamento.set(d.id, d.nombre);
    const list = departamentosPorProvincia.get(d.provinciaId) ?? [];
    list.push(d);
    departamentosPorProvincia.set(d.provinciaId, list);
  }
  for (const list of departamentosPorProvincia.values()) list.sort((a, b) => collator.compare(a.nombre, b.nombre));

  const localidades: (Localidad & { clave: string })[] = readCsv(dir, 'localidades.csv').map((r) => {
    const provincia = provinciasPorId.get(r.provincia_id)?.nombre ?? '';
    const clave = normalizar(r.nombre);
    return {
      id: r.id,
      nombre: r.nombre,
      provinciaId: r.provincia_id,
      provincia,
      departamentoId: r.departamento_id,
      // CABA's single census locality has no departamento name: use the city's own name.
      departamento: r.departamento_nombre || nombreDepartamento.get(r.departamento_id) || provincia,
      lat: r.lat ? Number(r.lat) : null,
      lon: r.lon ? Number(r.lon) : null,
      clave: ` ${clave}`,
    };
  });
  localidades.sort((a, b) => collator.compare(a.nombre, b.nombre));
  const publico = (l: (typeof localidades)[number]): Localidad => ({
    id: l.id,
    nombre: l.nombre,
    provinciaId: l.provinciaId,
    provincia: l.provincia,
    departamentoId: l.departamentoId,
    departamento: l.departamento,
    lat: l.lat,
    lon: l.lon,
  });
  const localidadesPorId = new Map(localidades.map((l) => [l.id, publico(l)]));

  const codigosArea = new Map<string, CodigoArea>(
    readCsv(dir, 'codigos-de-area.csv').map((r) => [
      r.codigo,
      { codigo: r.codigo, jurisdiccion: r.jurisdiccion, localidadCabecera: r.localidad_cabecera },
    ]),
  );
  const bancos = new Map<string, Banco>(readCsv(dir, 'bancos.csv').map((r) => [r.codigo, { codigo: r.codigo, nombre: r.nombre }]));

  return {
    provincias,
    provinciasPorId,
    departamentosPorProvincia,
    localidadesPorId,
    codigosArea,
    bancos,
    /**
     * @param opts.provincia INDEC province id filter (optional)
     * @param opts.q text (optional, ≥ 2 chars): matches the start of the name or of any word in it (several words
     *   allowed: "carlos paz"), accent-, case- and punctuation-insensitive; names that start with `q` come first.
     *   Text after a comma names the province the way the options read it: "Lanús, Buenos Aires" or "san jose, entre"
     *   keeps the localities whose province starts with it (or has a word that does)
     * @param opts.limit maximum results (1–50)
     * @returns localities sorted by relevance then name (es-AR collation)
     */
    buscarLocalidades({ provincia, q, limit }) {
      const coma = q?.indexOf(',') ?? -1;
      const needle = q ? normalizar(coma >= 0 ? q.slice(0, coma) : q) : '';
      const enProvincia = coma >= 0 ? normalizar(q!.slice(coma + 1)) : '';
      const inicio: Localidad[] = [];
      const palabra: Localidad[] = [];
      for (const l of localidades) {
        if (provincia && l.provinciaId !== provincia) continue;
        if (enProvincia && !` ${normalizar(l.provincia)}`.includes(` ${enProvincia}`)) continue;
        if (!needle) inicio.push(publico(l));
        else if (l.clave.startsWith(` ${needle}`)) inicio.push(publico(l));
        else if (l.clave.includes(` ${needle}`)) palabra.push(publico(l));
        if (inicio.length >= limit) break;
      }
      return [...inicio, ...palabra].slice(0, limit);
    },
  };
}
