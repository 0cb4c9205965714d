/**
 * The versioned tariff (`server/tariffs/<version>.json`): its TypeScript shape and its loader.
 * The tariff is data; the engine (`engine.ts`) never names a concrete coverage, plan or zone.
 * Units: money in ARS, areas in m², rates (`tasaAnualPorMil`) in ‰ per year over the suma asegurada.
 */
import { readFileSync } from 'node:fs';

export type SiNo = 'S' | 'N';
/** A plan code: a key of `Tariff.planes` (the tariff, not the code, decides which plans exist). */
export type CodPlan = string;
export type ListaCobertura = 'primary' | 'secondary' | 'urgencyAssistance' | 'optional';
/** Base of a suma asegurada: building value, contents value, both ("riesgo"; contents only for tenants) or a fixed amount. */
export type BaseSuma = 'edificio' | 'contenido' | 'riesgo' | 'fijo';

/**
 * Multipliers of one value of a rating dimension; a missing one is 1. `factor` applies to every rated coverage,
 * `factorRobo` on top of it to the theft groups (`gruposRobo`).
 */
export interface Factores {
  factor?: number;
  factorRobo?: number;
}

/**
 * A rating dimension: which field of the quote (a visitor's answer, or `zona`, resolved from the locality) picks
 * which multipliers. Example: `{ "campo": "tieneAlarma", "porDefecto": "N", "valores": { "S": { "factorRobo": 0.85 }, "N": {} } }`.
 */
export interface FactorTarifa {
  /** Field of the quote input (cotizar body field, or `zona`). */
  campo: string;
  /** Value used when the quote has no such field (e.g. quotes stored before the dimension existed). */
  porDefecto?: string;
  /** The dimension applies only when each named field has one of the listed values (else it is skipped). */
  aplicaSi?: Record<string, string[]>;
  valores: Record<string, Factores & { motivo?: string }>;
}

export interface CoberturaTarifa {
  descCobertura: string;
  /** Coverage group (SPEC §3 groups), key of `Tariff.grupos`. */
  grupo: string;
  lista: ListaCobertura;
  base: BaseSuma;
  /** Annual rate in ‰ of the suma asegurada (rated coverages). */
  tasaAnualPorMil?: number;
  /** Fixed monthly prima in ARS (assistance services); not affected by risk factors. */
  primaMensualFija?: number;
  /** 'S' when the insured goods must be listed one by one (nominados). Default 'N'. */
  nomina?: SiNo;
  /** 'S' to show the coverage to the visitor. Default 'S'. */
  mostrar?: SiNo;
  textoWeb: string;
  /** What the coverage does not cover (the conditions document; reference texts, see `Tariff.condiciones`). */
  exclusiones?: string[];
  /** Deductible per claim: a `porcentaje` of the loss with a `minimo` in ARS, or a fixed `monto` in ARS; absent = none. */
  franquicia?: { porcentaje?: number; minimo?: number; monto?: number };
}

/** Suma asegurada of a coverage inside a plan: a share of its base, or a fixed ARS amount. */
export type SumaPlan = { porcentaje: number } | { monto: number };

export interface PlanTarifa {
  nombre: string;
  descripcion: string;
  recomendado: boolean;
  coberturas: Record<string, SumaPlan>;
  opcionales: Record<string, SumaPlan>;
}

export interface ZonaTarifa {
  descripcion: string;
  /** INDEC 2-digit province ids wholly in the zone. */
  provincias: string[];
  /** INDEC 5-digit department (partido/departamento/comuna) ids in the zone. */
  departamentos: string[];
}

export interface Tariff {
  version: string;
  /** Effective date, YYYY-MM-DD. */
  vigenteDesde: string;
  moneda: 'ARS';
  umbralInspeccion: { codCobertura: string; sumaAseguradaMaxima: number };
  /**
   * Area bands (m², inclusive). `min`/`max` are NOT written in the file: `loadTariff` derives them from the bands
   * (the step schema's metros bounds are the rule; `npm run flow:check` requires the bands to cover them).
   */
  superficie: { min: number; max: number; bandas: { codigo: string; desde: number; hasta: number; descripcion: string }[] };
  /** Sumas aseguradas are rounded to a multiple of this (ARS). */
  redondeoSumas: number;
  /** Building and contents value per m², by `tipoVivienda` (sums asegurada). */
  tiposVivienda: Record<string, { valorReposicionM2: number; valorContenidoM2: number }>;
  /** Whether the building is insured, by `titularidad` (a tenant insures contents only). */
  titularidades: Record<string, { aseguraEdificio: boolean }>;
  /** Rating dimensions, multiplied in this order (engine.ts). */
  factores: FactorTarifa[];
  zonas: Record<string, ZonaTarifa>;
  zonaPorDefecto: string;
  gruposRobo: string[];
  grupos: Record<string, string>;
  coberturas: Record<string, CoberturaTarifa>;
  planes: Record<string, PlanTarifa>;
  /** General conditions and exclusions of the conditions document (reference texts: `supuesto` says so). */
  condiciones?: { supuesto: string; generales: string[]; exclusionesGenerales: string[] };
  impuestos: {
    iva: { alicuota: number };
    tasaSsn: { alicuota: number };
    sellos: { alicuotaPorDefecto: number; porProvincia: Record<string, number> };
  };
}

/**
 * Reads and sanity-checks a tariff file.
 * @param file absolute path of `server/tariffs/<version>.json`
 * @returns the parsed tariff
 * @throws Error naming the file and the broken reference when a plan names an unknown coverage or
 *   a coverage names an unknown group, a rated coverage lacks both `tasaAnualPorMil` and `primaMensualFija`, or a
 *   rating dimension (`factores`) is malformed, or `superficie` has no bands or writes its own min/max (derived here
 *   from the bands: `superficie.min` = lowest `desde`, `superficie.max` = highest `hasta`).
 */
export function loadTariff(file: string): Tariff {
  const tariff = JSON.parse(readFileSync(file, 'utf8')) as Tariff;
  const problems: string[] = [];
  for (const [cod, cob] of Object.entries(tariff.coberturas)) {
    if (!(cob.grupo in tariff.grupos)) problems.push(`/coberturas/${cod}/grupo: grupo desconocido "${cob.grupo}"`);
    if (cob.tasaAnualPorMil === undefined && cob.primaMensualFija === undefined) {
      problems.push(`/coberturas/${cod}: falta tasaAnualPorMil o primaMensualFija`);
    }
  }
  for (const [codPlan, plan] of Object.entries(tariff.planes)) {
    for (const cod of [...Object.keys(plan.coberturas), ...Object.keys(plan.opcionales)]) {
      if (!(cod in tariff.coberturas)) problems.push(`/planes/${codPlan}: cobertura desconocida "${cod}"`);
    }
    for (const cod of Object.keys(plan.opcionales)) {
      if (tariff.coberturas[cod] && tariff.coberturas[cod].lista !== 'optional') {
        problems.push(`/planes/${codPlan}/opcionales/${cod}: la cobertura no es de la lista "optional"`);
      }
    }
  }
  if (!(tariff.zonaPorDefecto in tariff.zonas)) problems.push(`/zonaPorDefecto: zona desconocida "${tariff.zonaPorDefecto}"`);
  if (!Array.isArray(tariff.factores)) problems.push('/factores: falta la lista de factores de riesgo');
  (tariff.factores ?? []).forEach((f, i) => {
    if (typeof f.campo !== 'string' || !f.valores || typeof f.valores !== 'object')
      problems.push(`/factores/${i}: cada factor tiene "campo" y "valores"`);
    else if (f.porDefecto !== undefined && !(f.porDefecto in f.valores))
      problems.push(`/factores/${i}/porDefecto: "${f.porDefecto}" no está en "valores"`);
    for (const [valor, m] of Object.entries(f.valores ?? {})) {
      for (const [k, v] of Object.entries(m)) {
        if (k !== 'motivo' && (!['factor', 'factorRobo'].includes(k) || typeof v !== 'number' || !(v > 0))) {
          problems.push(`/factores/${i}/valores/${valor}/${k}: solo "factor" y "factorRobo" (números positivos) y "motivo"`);
        }
      }
    }
  });
  const zonasFactor = tariff.factores?.find((f) => f.campo === 'zona');
  for (const zona of Object.keys(tariff.zonas)) {
    if (zonasFactor && !(zona in zonasFactor.valores)) problems.push(`/factores: la zona "${zona}" no tiene valores en el factor "zona"`);
  }
  const bandas = tariff.superficie?.bandas ?? [];
  if (!bandas.length) problems.push('/superficie/bandas: falta al menos una banda de superficie');
  else if ('min' in tariff.superficie || 'max' in tariff.superficie) {
    problems.push('/superficie: "min" y "max" salen de las bandas (primera "desde", última "hasta"): borralos');
  } else tariff.superficie = { min: Math.min(...bandas.map((b) => b.desde)), max: Math.max(...bandas.map((b) => b.hasta)), bandas };
  if (problems.length > 0) throw new Error(`Tarifa inválida (${file}):\n${problems.join('\n')}`);
  return tariff;
}
