/**
 * The versioned tariff (`server/tariffs/<version>.json`): its TypeScript shape and its loader.
 * The tariff is data; the engine (`engine.ts`) never names a concrete coverage, plan or zone.
 * Units: money in ARS, areas in m², rates (`tasaAnualPorMil`) in ‰ per year over the suma asegurada.
 */
import { readFileSync } from 'node:fs';

export type TipoVivienda = 'CASA' | 'DEPARTAMENTO' | 'PH';
export type UsoVivienda = 'PERMANENTE' | 'TEMPORAL';
export type Titularidad = 'PROPIETARIO' | 'INQUILINO';
export type SiNo = 'S' | 'N';
export type CodPlan = 'BASICO' | 'INTERMEDIO' | 'INTEGRAL';
export type ListaCobertura = 'primary' | 'secondary' | 'urgencyAssistance' | 'optional';
/** Base of a suma asegurada: building value, contents value, both ("riesgo"; contents only for tenants) or a fixed amount. */
export type BaseSuma = 'edificio' | 'contenido' | 'riesgo' | 'fijo';

/** Risk factors; `factorRobo` applies on top of `factor` to the theft groups (`gruposRobo`). */
export interface Factores {
  factor: number;
  factorRobo: number;
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

export interface ZonaTarifa extends Factores {
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
  superficie: { min: number; max: number; bandas: { codigo: string; desde: number; hasta: number; descripcion: string }[] };
  /** Sumas aseguradas are rounded to a multiple of this (ARS). */
  redondeoSumas: number;
  tiposVivienda: Record<TipoVivienda, Factores & { valorReposicionM2: number; valorContenidoM2: number }>;
  usosVivienda: Record<UsoVivienda, Factores>;
  titularidades: Record<Titularidad, { aseguraEdificio: boolean }>;
  barrioCerrado: { aplicaA: TipoVivienda[]; S: { factorRobo: number }; N: { factorRobo: number } };
  zonas: Record<string, ZonaTarifa>;
  zonaPorDefecto: string;
  gruposRobo: string[];
  grupos: Record<string, string>;
  coberturas: Record<string, CoberturaTarifa>;
  planes: Record<CodPlan, PlanTarifa>;
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
 *   a coverage names an unknown group, or a rated coverage lacks both `tasaAnualPorMil` and `primaMensualFija`.
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
  if (problems.length > 0) throw new Error(`Tarifa inválida (${file}):\n${problems.join('\n')}`);
  return tariff;
}
