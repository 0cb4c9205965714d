/**
 * Rating engine: pure and deterministic. Same tariff + same input → same plans, to the cent.
 *
 * For each coverage of a plan:
 *   sumaAsegurada (ARS) = round(base × porcentaje | monto, to `tariff.redondeoSumas`), where the base is
 *     edificio  = metros × valorReposicionM2[tipoVivienda]   (0 for INQUILINO: the owner insures the building)
 *     contenido = metros × valorContenidoM2[tipoVivienda]
 *     riesgo    = edificio + contenido
 *   primaCobertura (ARS / month) = sumaAsegurada × tasaAnualPorMil / 1000 / 12 × F, or primaMensualFija (assistance services), where
 *     F = Π factor × (theft groups only) Π factorRobo, over the tariff's rating dimensions (`tariff.factores`, in order):
 *     each dimension reads its `campo` from the quote input (or `porDefecto`), is skipped unless `aplicaSi` holds, and
 *     contributes the multipliers of that value (a missing multiplier is 1). The shipped tariff's dimensions are
 *     tipoVivienda, usoVivienda, zona and barrioCerrado (CASA only).
 * Plan (the policy is annual — vigencia one year — paid in CUOTAS = 12 monthly installments):
 *   prima (ARS / vigencia) = 12 × Σ primaCobertura of included coverages + chosen optionals;
 *   impuestos = IVA + tasa SSN + sellos (province), each over the prima; premio = prima + impuestos;
 *   premioCuota (ARS / month) = premio / 12 rounded UP to the cent; ultimaCuota = premio − 11 × premioCuota; cuotas = 12.
 *
 * Rounding: each primaCobertura and each tax is rounded to cents (half up) as its last step; the plan totals are
 * sums of those rounded amounts in integer cents, so `prima` equals 12 × the sum of the listed primas and
 * `premio = prima + impuestos` holds exactly.
 * Installments (docs: server/README.md › Cuotas): the premio is the price the taxes were computed on, so it is never
 * changed to fit the installments; instead the first 11 cuotas are premio / 12 rounded up to the cent and the last one
 * absorbs the difference (0 to 11 cents less). Hence (cuotas − 1) × premioCuota + ultimaCuota = premio to the cent, the
 * advertised monthly amount is never exceeded (Ley 24.240 art. 7: the offer binds; art. 36: every installment and the
 * total stated), and a premio divisible by 12 gives 12 equal cuotas (ultimaCuota = premioCuota).
 */
/** Monthly installments per annual policy (premioCuota = premio / CUOTAS). */
export const CUOTAS = 12;

import { pesosEnteros } from '../../../../src/core/money.ts';
import { mensaje } from '../../../../src/core/messages.ts';
import type { CodPlan, CoberturaTarifa, ListaCobertura, PlanTarifa, SiNo, SumaPlan, Tariff } from './tariff.ts';

/**
 * What the premium depends on: the quote's answers as sent to cotizar (any field a rating dimension of the tariff
 * names, e.g. tipoVivienda, usoVivienda, barrioCerrado, tieneAlarma), after zone resolution. The sums asegurada read
 * `tipoVivienda` (tariff.tiposVivienda), `titularidad` (tariff.titularidades) and `metros`.
 */
export interface RatingInput {
  /** Covered area, integer m² within `tariff.superficie`. */
  metros: number;
  /** Zone code, key of `tariff.zonas` (see `resolveZone`). */
  zona: string;
  /** INDEC 2-digit province id of the risk (for the stamp tax). */
  provinciaId: string;
  [campo: string]: unknown;
}

/** One coverage on the wire (schemas/api/cotizacion.json#/$defs/Cobertura). */
export interface Cobertura {
  codCobertura: string;
  descCobertura: string;
  grupo: string;
  /** ARS. */
  sumaAsegurada: number;
  /** es-AR formatted by src/core/money.ts › pesosEnteros, e.g. "$\u00a045.000.000" (no-break space). */
  sumaAseguradaString: string;
  mostrar: SiNo;
  textoWeb: string;
  nomina: SiNo;
  selecc: SiNo;
  /** ARS per month, 2 decimals, without taxes. */
  primaCobertura: number;
  /**
   * Optional coverages only: ARS the monthly installment goes up by when this coverage is added alone to the plan,
   * taxes included (premioCuota of the plan with it − premioCuota without it). What the add-ons step shows.
   */
  premioCuotaAdicional?: number;
}

/** One priced plan on the wire (schemas/api/cotizacion.json#/$defs/Plan). Money in ARS per month. */
export interface Plan {
  codPlan: CodPlan;
  nombre: string;
  descripcion: string;
  recomendado: boolean;
  prima: number;
  impuestos: number;
  premio: number;
  /** ARS, each of the first `cuotas − 1` installments (premio / cuotas rounded up to the cent). */
  premioCuota: number;
  /** ARS, the last installment: premio − (cuotas − 1) × premioCuota (≤ premioCuota). */
  ultimaCuota: number;
  cuotas: number;
  coberturas: Record<ListaCobertura, Cobertura[]>;
}

/** Invalid rating input or choice; `field` is the JSON pointer of the offending request field. */
export class RatingError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.name = 'RatingError';
    this.field = field;
  }
}

/** ARS → integer cents, rounding half up (the epsilon absorbs binary noise such as 1.005 → 100.49999…). */
function toCents(ars: number): number {
  return Math.round(ars * 100 + 1e-7);
}

/**
 * Zone of a location (tariff `zonas`): by whole province first, then by department, else `zonaPorDefecto`.
 * @param loc INDEC ids: `provinciaId` 2 digits, `departamentoId` 5 digits.
 * @returns zone code, e.g. "Z1".
 */
export function resolveZone(tariff: Tariff, loc: { provinciaId: string; departamentoId: string }): string {
  for (const [codigo, zona] of Object.entries(tariff.zonas)) {
    if (zona.provincias.includes(loc.provinciaId) || zona.departamentos.includes(loc.departamentoId)) return codigo;
  }
  return tariff.zonaPorDefecto;
}

/**
 * @returns the input's risk factors ({@link riskFactors}), computed once per plan rather than once per coverage
 * @throws RatingError when the sums' inputs are not in the tariff or metros is out of `tariff.superficie`.
 */
function checkInput(tariff: Tariff, input: RatingInput): { factor: number; robo: number } {
  if (!(String(input.tipoVivienda) in tariff.tiposVivienda)) throw new RatingError('/tipoVivienda', mensaje('servidor.valorTarifa'));
  if (!(String(input.titularidad) in tariff.titularidades)) throw new RatingError('/titularidad', mensaje('servidor.valorTarifa'));
  // the step schema's bounds already held (the request schema $refs metros.schema.json); a value no band rates is a
  // tariff that does not cover the form (flow:check reports it)
  const { min, max, bandas } = tariff.superficie;
  if (!Number.isInteger(input.metros) || !bandas.some((b) => input.metros >= b.desde && input.metros <= b.hasta)) {
    throw new RatingError('/metros', mensaje('servidor.metrosRango', { min, max }));
  }
  if (!(input.zona in tariff.zonas)) throw new RatingError('/zona', mensaje('servidor.zonaDesconocida'));
  return riskFactors(tariff, input);
}

function sumaAsegurada(tariff: Tariff, input: RatingInput, cob: CoberturaTarifa, suma: SumaPlan): number {
  if ('monto' in suma) return suma.monto;
  const tipo = tariff.tiposVivienda[String(input.tipoVivienda)];
  const edificio = tariff.titularidades[String(input.titularidad)].aseguraEdificio ? input.metros * tipo.valorReposicionM2 : 0;
  const contenido = input.metros * tipo.valorContenidoM2;
  const base = cob.base === 'edificio' ? edificio : cob.base === 'contenido' ? contenido : cob.base === 'riesgo' ? edificio + contenido : 0;
  return Math.round((base * suma.porcentaje) / tariff.redondeoSumas) * tariff.redondeoSumas;
}

/**
 * The products of the tariff's rating dimensions for this input: `factor` (every rated coverage) and `robo`
 * (theft groups, on top). Multiplied in the order of `tariff.factores`, so prices are reproducible to the cent.
 * @throws RatingError on the dimension's field when its value is missing (and no `porDefecto`) or not in `valores`
 */
export function riskFactors(tariff: Tariff, input: RatingInput): { factor: number; robo: number } {
  let factor = 1;
  let robo = 1;
  for (const dim of tariff.factores) {
    const aplica = Object.entries(dim.aplicaSi ?? {}).every(([campo, valores]) => valores.includes(String(input[campo])));
    if (!aplica) continue;
    const valor = input[dim.campo] ?? dim.porDefecto;
    const m = valor === undefined ? undefined : dim.valores[String(valor)];
    if (!m) {
      const field = `/${dim.campo}`;
      throw new RatingError(field, dim.campo === 'zona' ? mensaje('servidor.zonaDesconocida') : mensaje('servidor.valorTarifa'));
    }
    if (m.factor !== undefined) factor *= m.factor;
    if (m.factorRobo !== undefined) robo *= m.factorRobo;
  }
  return { factor, robo };
}

function factorDe(tariff: Tariff, factores: { factor: number; robo: number }, grupo: string): number {
  return tariff.gruposRobo.includes(grupo) ? factores.factor * factores.robo : factores.factor;
}

function priceCoverage(
  tariff: Tariff,
  input: RatingInput,
  factores: { factor: number; robo: number },
  cod: string,
  suma: SumaPlan,
  selecc: SiNo,
): Cobertura | null {
  const cob = tariff.coberturas[cod];
  const sa = sumaAsegurada(tariff, input, cob, suma);
  if (sa <= 0) return null; // e.g. building coverages for a tenant
  const prima =
    cob.primaMensualFija !== undefined
      ? cob.primaMensualFija
      : ((sa * (cob.tasaAnualPorMil ?? 0)) / 1000 / 12) * factorDe(tariff, factores, cob.grupo);
  return { codCobertura: cod, ...textosCobertura(cob), ...montosCobertura(sa), selecc, primaCobertura: toCents(prima) / 100 };
}

/** The texts and flags a priced coverage takes from its tariff entry (the same for every quote priced with it). */
export function textosCobertura(cob: CoberturaTarifa): Pick<Cobertura, 'descCobertura' | 'grupo' | 'mostrar' | 'textoWeb' | 'nomina'> {
  return {
    descCobertura: cob.descCobertura,
    grupo: cob.grupo,
    mostrar: cob.mostrar ?? 'S',
    textoWeb: cob.textoWeb,
    nomina: cob.nomina ?? 'N',
  };
}

/** The suma asegurada (ARS) and its es-AR text, as a priced coverage carries them. */
export function montosCobertura(sumaAsegurada: number): Pick<Cobertura, 'sumaAsegurada' | 'sumaAseguradaString'> {
  return { sumaAsegurada, sumaAseguradaString: pesosEnteros(sumaAsegurada) };
}

/** The texts a priced plan takes from its tariff entry. */
export function textosPlan(plan: PlanTarifa): Pick<Plan, 'nombre' | 'descripcion' | 'recomendado'> {
  return { nombre: plan.nombre, descripcion: plan.descripcion, recomendado: plan.recomendado };
}

/**
 * The taxes over a prima (the premio breakdown of the policy document): IVA, tasa SSN and the stamp tax of the
 * risk's province (`tariff.impuestos`), each rounded to cents half up.
 * @param prima ARS per vigencia @param provinciaId INDEC 2-digit id of the risk's province
 * @returns ARS per vigencia; `impuestos` of the Plan is their sum
 */
export function desgloseImpuestos(tariff: Tariff, prima: number, provinciaId: string): { iva: number; tasaSsn: number; sellos: number } {
  const primaCents = Math.round(prima * 100);
  const { iva, tasaSsn, sellos } = tariff.impuestos;
  const cents = (a: number) => Math.round(primaCents * a + 1e-7) / 100;
  return {
    iva: cents(iva.alicuota),
    tasaSsn: cents(tasaSsn.alicuota),
    sellos: cents(sellos.porProvincia[provinciaId] ?? sellos.alicuotaPorDefecto),
  };
}

/**
 * The installments of a premio (see the module doc): the first `cuotas − 1` are premio / cuotas rounded up to the
 * cent, the last one absorbs the difference.
 * @param premioCents integer cents @returns integer cents: `cuota` (each of the first ones) and `ultima`
 */
export function cuotasDe(premioCents: number, cuotas = CUOTAS): { cuota: number; ultima: number } {
  const cuota = Math.ceil(premioCents / cuotas);
  return { cuota, ultima: premioCents - (cuotas - 1) * cuota };
}

/** Annual totals of a monthly prima (integer cents): prima × 12, taxes of the province, premio and installments. */
function totalesPlan(tariff: Tariff, primaMensualCents: number, provinciaId: string) {
  const primaCents = primaMensualCents * CUOTAS;
  const d = desgloseImpuestos(tariff, primaCents / 100, provinciaId);
  const impuestosCents = toCents(d.iva) + toCents(d.tasaSsn) + toCents(d.sellos);
  const premioCents = primaCents + impuestosCents;
  const { cuota, ultima } = cuotasDe(premioCents);
  return { primaMensualCents, primaCents, impuestosCents, premioCents, cuotaCents: cuota, ultimaCents: ultima };
}

/**
 * Prices one plan with the chosen optional coverages.
 * @param codPlan a key of `tariff.planes` (e.g. BASICO, INTERMEDIO, INTEGRAL in 2026-11)
 * @param opcionales codes of optional coverages to include (must be offered by the plan; duplicates ignored)
 * @returns the Plan, money in ARS rounded to cents (prima, impuestos, premio per annual policy; premioCuota and
 *   each primaCobertura per month)
 * @throws RatingError for an unknown input value, unknown plan or an optional the plan does not offer
 */
export function ratePlan(tariff: Tariff, input: RatingInput, codPlan: string, opcionales: readonly string[] = []): Plan {
  const factores = checkInput(tariff, input);
  const plan = Object.hasOwn(tariff.planes, codPlan) ? tariff.planes[codPlan] : undefined;
  if (!plan) throw new RatingError('/codPlan', mensaje('servidor.planInvalido'));
  opcionales.forEach((cod, i) => {
    if (!(cod in plan.opcionales))
      throw new RatingError(`/coberturasOpcionales/${i}`, `La cobertura ${cod} no está disponible en este plan.`);
  });
  const coberturas: Record<ListaCobertura, Cobertura[]> = { primary: [], secondary: [], urgencyAssistance: [], optional: [] };
  let primaMensualCents = 0;
  for (const [cod, suma] of Object.entries(plan.coberturas)) {
    const c = priceCoverage(tariff, input, factores, cod, suma, 'S');
    if (!c) continue;
    coberturas[tariff.coberturas[cod].lista].push(c);
    primaMensualCents += toCents(c.primaCobertura);
  }
  for (const [cod, suma] of Object.entries(plan.opcionales)) {
    const elegida = opcionales.includes(cod);
    const c = priceCoverage(tariff, input, factores, cod, suma, elegida ? 'S' : 'N');
    if (!c) continue;
    coberturas.optional.push(c);
    if (elegida) primaMensualCents += toCents(c.primaCobertura);
  }
  const totales = totalesPlan(tariff, primaMensualCents, input.provinciaId);
  // what each optional adds to the installment, taxes included (the add-ons step shows it, "impuestos incluidos")
  const base = opcionales.length
    ? totalesPlan(
        tariff,
        primaMensualCents -
          [...new Set(opcionales)].reduce(
            (s, cod) => s + toCents(coberturas.optional.find((c) => c.codCobertura === cod)?.primaCobertura ?? 0),
            0,
          ),
        input.provinciaId,
      )
    : totales;
  for (const c of coberturas.optional) {
    c.premioCuotaAdicional =
      (totalesPlan(tariff, base.primaMensualCents + toCents(c.primaCobertura), input.provinciaId).cuotaCents - base.cuotaCents) / 100;
  }
  return {
    codPlan,
    ...textosPlan(plan),
    prima: totales.primaCents / 100,
    impuestos: totales.impuestosCents / 100,
    premio: totales.premioCents / 100,
    premioCuota: totales.cuotaCents / 100,
    ultimaCuota: totales.ultimaCents / 100,
    cuotas: CUOTAS,
    coberturas,
  };
}

/**
 * Prices every plan of the tariff without optionals (the quote screen).
 * @returns plans in tariff order, plus `inspection`: true when the suma asegurada of the coverage named in
 *   `tariff.umbralInspeccion` exceeds its threshold in any plan.
 * @throws RatingError for an unknown input value
 */
export function rateAll(tariff: Tariff, input: RatingInput): { planes: Plan[]; inspection: boolean } {
  const planes = Object.keys(tariff.planes).map((codPlan) => ratePlan(tariff, input, codPlan));
  const { codCobertura, sumaAseguradaMaxima } = tariff.umbralInspeccion;
  const inspection = planes.some((p) =>
    Object.values(p.coberturas).some((list) => list.some((c) => c.codCobertura === codCobertura && c.sumaAsegurada > sumaAseguradaMaxima)),
  );
  return { planes, inspection };
}
