/**
 * Quotes (table `cotizaciones`): the rating input (`datos`, the cotizar body as JSON, plus typed columns for the
 * reports), the priced plans and the visitor's choice. The plans are stored as their amounts (`planes`) plus the
 * fingerprint of the tariff texts they were priced with (`textos_huella`), the texts once in `cotizacion_textos`
 * (domain/rating/planes-guardados.ts: a row stays small enough for PostgreSQL to keep it in line); a quote stored
 * before migration 019 has its plans whole and no fingerprint. Readers get whole plans either way.
 */
import type { Plan } from '../../domain/rating/engine.ts';
import { esqueletoDe, planesDe, type PlanGuardado, type Textos, type TextosConHuella } from '../../domain/rating/planes-guardados.ts';
import type { Queryable } from '../index.ts';
import { sqlContar } from './limites.ts';

export interface CotizacionNueva {
  refId: string;
  /** SHA-256 hex of the visitor's session cookie (plugins/session.ts). */
  sesion: string;
  ip: string | null;
  tarifaVersion: string;
  /** The cotizar body as sent (every answer the tariff's rating dimensions may name). */
  datos: Record<string, unknown>;
  tipoVivienda: string;
  /** Only asked for a CASA (propiedad.schema.json). */
  barrioCerrado: string | null;
  titularidad: string;
  usoVivienda: string;
  metros: number;
  codLocalidad: string;
  idProvincia: string;
  zona: string;
  /** Contact details: null when the flow asks them after the price (migration 016). */
  email: string | null;
  areaCod: string | null;
  phoneNumber: string | null;
  initPolicyDate: string;
  inspection: boolean;
  planes: Plan[];
  /** The texts of the tariff `planes` were priced with (planes-guardados.ts › textosDeTarifa). */
  textos: TextosConHuella;
}

export interface Cotizacion extends Omit<CotizacionNueva, 'textos'> {
  codPlan: string | null;
  coberturasOpcionales: string[];
  planElegido: Plan | null;
}

const SELECT = `SELECT ref_id AS "refId", sesion, ip, tarifa_version AS "tarifaVersion", datos, tipo_vivienda AS "tipoVivienda",
  barrio_cerrado AS "barrioCerrado", titularidad, uso_vivienda AS "usoVivienda", metros, cod_localidad AS "codLocalidad",
  id_provincia AS "idProvincia", zona, email, area_cod AS "areaCod", phone_number AS "phoneNumber",
  to_char(init_policy_date, 'YYYY-MM-DD') AS "initPolicyDate", inspection, planes, textos_huella AS "textosHuella",
  cod_plan AS "codPlan", coberturas_opcionales AS "coberturasOpcionales", plan_elegido AS "planElegido" FROM cotizaciones`;

const COLUMNAS = `ref_id, ip, tarifa_version, tipo_vivienda, barrio_cerrado, titularidad, uso_vivienda, metros,
  cod_localidad, id_provincia, zona, email, area_cod, phone_number, init_policy_date, inspection, planes, sesion, datos, textos_huella`;
const VALORES = '$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20';
const INSERT = `INSERT INTO cotizaciones (${COLUMNAS}) VALUES (${VALORES})`;
const VALORES_TIPADOS = `$1::uuid, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::integer, $9::text, $10::text,
  $11::text, $12::text, $13::text, $14::text, $15::date, $16::boolean, $17::json, $18::text, $19::json, $20::text`;
const sqlConCupos = new Map<number, string>();
/**
 * Counts the quote on `cantidad` counters, in order, and stores it only while every count is within its max, in ONE
 * statement: one round trip and one commit, and the counts and the row are atomic. Counter i is $(21+3i) key,
 * $(22+3i) window ms, $(23+3i) max (limites.ts › sqlContar); a hit refused by counter i is not counted on the later ones.
 * Returns `n0…`, `ttl0…` (null for a counter not reached) and `guardada`.
 */
function sqlInsertConCupos(cantidad: number): string {
  let sql = sqlConCupos.get(cantidad);
  if (sql) return sql;
  const p = (i: number, k: number) => `$${21 + 3 * i + k}`;
  const ctes = Array.from(
    { length: cantidad },
    (_, i) => `c${i} AS (${sqlContar(p(i, 0), p(i, 1), i === 0 ? undefined : { cte: `c${i - 1}`, max: p(i - 1, 2) })})`,
  );
  const ultimo = cantidad - 1;
  const filas = Array.from({ length: cantidad }, (_, i) => `(SELECT n FROM c${i}) AS n${i}, (SELECT ttl FROM c${i}) AS ttl${i}`);
  sql = `WITH ${ctes.join(',\n  ')},
  nueva AS (INSERT INTO cotizaciones (${COLUMNAS}) SELECT ${VALORES_TIPADOS}
    FROM c${ultimo} WHERE c${ultimo}.n <= ${p(ultimo, 2)}::integer RETURNING 1)
  SELECT ${filas.join(', ')}, EXISTS (SELECT 1 FROM nueva) AS guardada`;
  sqlConCupos.set(cantidad, sql);
  return sql;
}

function valores(c: CotizacionNueva): unknown[] {
  return [
    c.refId,
    c.ip,
    c.tarifaVersion,
    c.tipoVivienda,
    c.barrioCerrado,
    c.titularidad,
    c.usoVivienda,
    c.metros,
    c.codLocalidad,
    c.idProvincia,
    c.zona,
    c.email,
    c.areaCod,
    c.phoneNumber,
    c.initPolicyDate,
    c.inspection,
    JSON.stringify(esqueletoDe(c.planes)),
    c.sesion,
    JSON.stringify(c.datos),
    c.textos.huella,
  ];
}

/**
 * The texts already stored, by fingerprint. Content-addressed and never changed, so valid for any database and
 * forever: a quote's texts are read from the database once per process, and stored once per process and tariff.
 */
const textosLeidos = new Map<string, Textos>();
const textosGuardados = new WeakMap<Queryable, Set<string>>();

/** A stored row: the plans as stored, and the fingerprint of their texts (null: plans stored whole, before 019). */
type Fila = Omit<Cotizacion, 'planes'> & { planes: Plan[] | PlanGuardado[]; textosHuella: string | null };

/** A shared counter that bounds how many quotes are stored (plugins/limits.ts › cupoCotizaciones). */
export interface Cupo {
  /** Key in `limites`, e.g. "cotizar|203.0.113.9". */
  clave: string;
  /** Window length, ms. */
  ventanaMs: number;
  /** Most hits allowed in a window. */
  max: number;
}

/** What refused a quote: the first counter past its max, and ms until its window ends. */
export interface CupoExcedido {
  cupo: Cupo;
  ttlMs: number;
}

/** Quote queries over `db` (the database or a transaction). */
export function cotizacionesRepository(db: Queryable) {
  /** Stores the quote's texts unless this process already did on this database (a no-op when another did). */
  async function guardarTextos({ huella, planes, coberturas }: TextosConHuella): Promise<void> {
    let guardados = textosGuardados.get(db);
    if (guardados?.has(huella)) return;
    await db.query('INSERT INTO cotizacion_textos (huella, textos) VALUES ($1, $2) ON CONFLICT (huella) DO NOTHING', [
      huella,
      JSON.stringify({ planes, coberturas }),
    ]);
    if (!guardados) textosGuardados.set(db, (guardados = new Set()));
    guardados.add(huella);
    textosLeidos.set(huella, { planes, coberturas });
  }
  /** @returns the row with whole plans (see the module doc) */
  async function completa({ textosHuella, planes, ...fila }: Fila): Promise<Cotizacion> {
    if (textosHuella === null) return { ...fila, planes: planes as Plan[] };
    let textos = textosLeidos.get(textosHuella);
    if (!textos) {
      const [row] = await db.query<{ textos: Textos }>('SELECT textos FROM cotizacion_textos WHERE huella = $1', [textosHuella]);
      if (!row) throw new Error(`cotización ${fila.refId}: faltan sus textos ${textosHuella}`);
      textosLeidos.set(textosHuella, (textos = row.textos));
    }
    return { ...fila, planes: planesDe(planes as PlanGuardado[], textos) };
  }
  return {
    /** Stores a new quote. */
    async insert(c: CotizacionNueva): Promise<void> {
      await guardarTextos(c.textos);
      await db.query(INSERT, valores(c));
    },
    /**
     * Counts one hit on each of `cupos`, in order, and, when every count is within its max, stores the quote —
     * atomically, in one statement (a hit is kept on the counters it reached even when the quote is refused, as every
     * hit counts; it does not reach the counters after the one that refused it).
     * @param cupos at least one counter
     * @returns null when the quote was stored, else what refused it (nothing stored)
     */
    async insertConCupos(c: CotizacionNueva, cupos: readonly Cupo[]): Promise<CupoExcedido | null> {
      await guardarTextos(c.textos);
      const params = [...valores(c), ...cupos.flatMap((k) => [k.clave, k.ventanaMs, k.max])];
      const [row] = await db.query<Record<string, number | boolean | null>>(sqlInsertConCupos(cupos.length), params);
      if (row.guardada) return null;
      const i = cupos.findIndex((k, j) => (row[`n${j}`] as number) > k.max);
      if (i < 0) throw new Error(`cotización ${c.refId} no guardada con todos sus cupos disponibles`);
      return { cupo: cupos[i], ttlMs: row[`ttl${i}`] as number };
    },
    /** @returns the quote, or null when `refId` is unknown (or not a UUID). Use `deSesion` for anything a visitor asks. */
    async get(refId: string): Promise<Cotizacion | null> {
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(refId)) return null;
      const [row] = await db.query<Fila>(`${SELECT} WHERE ref_id = $1`, [refId]);
      return row ? completa(row) : null;
    },
    /** @returns the quote when it exists AND belongs to session `sesion` (hash), else null (same answer for both). */
    async deSesion(refId: string, sesion: string): Promise<Cotizacion | null> {
      const cot = await this.get(refId);
      return cot && cot.sesion === sesion ? cot : null;
    },
    /** Stores the chosen plan, its optional coverages and the re-priced plan. */
    async guardarEleccion(refId: string, codPlan: string, opcionales: string[], plan: Plan): Promise<void> {
      await db.query('UPDATE cotizaciones SET cod_plan = $2, coberturas_opcionales = $3, plan_elegido = $4 WHERE ref_id = $1', [
        refId,
        codPlan,
        JSON.stringify(opcionales),
        JSON.stringify(plan),
      ]);
    },
  };
}
export type CotizacionesRepository = ReturnType<typeof cotizacionesRepository>;
