/**
 * How a quote's priced plans are stored: the amounts of each quote apart from the texts of the tariff it was priced
 * with. Of a quote's ~15 KB of plans (3 plans, ~38 coverages in 2026-11) nearly all is text that every quote priced
 * with the same tariff repeats word for word (plan names, coverage descriptions, textoWeb…); stored whole, each row
 * went over PostgreSQL's TOAST threshold (compressed, then stored out of line). So:
 * - {@link textosDeTarifa}: the texts of a tariff's plans and coverages, with a fingerprint of their content
 *   (`huella`): stored ONCE (table `cotizacion_textos`, db/repositories/cotizaciones.ts), never changed;
 * - {@link esqueletoDe}: what only this quote has — per plan its amounts (prima, impuestos, premio, cuotas…) and per
 *   coverage its code, suma asegurada, prima, whether it is selected and what it adds to the installment (~4 KB of
 *   JSON, ~0.9 KB once PostgreSQL compresses it in the row);
 * - {@link planesDe}: the plans again, exactly as the engine priced them, from the skeleton and the texts it was
 *   stored with.
 * The texts are fingerprinted by content, not by `tarifa_version`: a text edited in the tariff file (same version)
 * gets a new fingerprint, so a stored quote keeps the texts it was offered with (its PDF, the e-mail, the
 * policy) — the server only ever loads the current tariff.
 */
import { createHash } from 'node:crypto';
import { montosCobertura, textosCobertura, textosPlan, type Cobertura, type Plan } from './engine.ts';
import type { ListaCobertura, Tariff } from './tariff.ts';

/** The texts of one coverage, and the list of the plan it goes in. */
export type TextosCobertura = ReturnType<typeof textosCobertura> & { lista: ListaCobertura };

/** The texts of a tariff's plans and coverages, as stored once in `cotizacion_textos.textos`. */
export interface Textos {
  planes: Record<string, ReturnType<typeof textosPlan>>;
  coberturas: Record<string, TextosCobertura>;
}

/** {@link Textos} with its fingerprint: SHA-256 (hex) of their JSON. */
export interface TextosConHuella extends Textos {
  huella: string;
}

/** A coverage as stored: what the quote priced (the texts and the written-out suma come back from the texts). */
export type CoberturaGuardada = Omit<Cobertura, keyof TextosCobertura | 'sumaAseguradaString'>;

/** A plan as stored: its amounts and its coverages in the order of the plan's lists (primary, secondary, …). */
export type PlanGuardado = Omit<Plan, keyof Textos['planes'][string] | 'coberturas'> & { coberturas: CoberturaGuardada[] };

const LISTAS: ListaCobertura[] = ['primary', 'secondary', 'urgencyAssistance', 'optional'];
const porTarifa = new WeakMap<Tariff, TextosConHuella>();

/**
 * The texts of every plan and coverage of `tariff` (computed once per tariff object: a loaded tariff is not changed).
 * @returns the texts and their `huella` (64 hex characters), the same for any tariff with the same texts
 */
export function textosDeTarifa(tariff: Tariff): TextosConHuella {
  let t = porTarifa.get(tariff);
  if (!t) {
    const textos: Textos = {
      planes: Object.fromEntries(Object.entries(tariff.planes).map(([cod, plan]) => [cod, textosPlan(plan)])),
      coberturas: Object.fromEntries(
        Object.entries(tariff.coberturas).map(([cod, cob]) => [cod, { ...textosCobertura(cob), lista: cob.lista }]),
      ),
    };
    t = { ...textos, huella: createHash('sha256').update(JSON.stringify(textos)).digest('hex') };
    porTarifa.set(tariff, t);
  }
  return t;
}

/** @returns the plans without the tariff's texts (see the module doc) */
export function esqueletoDe(planes: readonly Plan[]): PlanGuardado[] {
  return planes.map(({ nombre: _n, descripcion: _d, recomendado: _r, coberturas, ...montos }) => ({
    ...montos,
    coberturas: LISTAS.flatMap((lista) =>
      coberturas[lista].map(
        ({ descCobertura: _dc, grupo: _g, mostrar: _m, textoWeb: _t, nomina: _no, sumaAseguradaString: _s, ...propia }) => propia,
      ),
    ),
  }));
}

/**
 * The plans of a stored skeleton, each field as the engine wrote it.
 * @param textos the texts the skeleton was stored with (same `huella`)
 * @throws Error when a plan or coverage code is not in `textos` (a skeleton stored with other texts)
 */
export function planesDe(esqueleto: readonly PlanGuardado[], textos: Textos): Plan[] {
  return esqueleto.map(({ coberturas, ...montos }) => {
    const plan = textos.planes[montos.codPlan];
    if (!plan) throw new Error(`planes guardados: el plan ${montos.codPlan} no está en sus textos`);
    const listas: Record<ListaCobertura, Cobertura[]> = { primary: [], secondary: [], urgencyAssistance: [], optional: [] };
    for (const c of coberturas) {
      const t = textos.coberturas[c.codCobertura];
      if (!t) throw new Error(`planes guardados: la cobertura ${c.codCobertura} no está en sus textos`);
      const { lista, ...texto } = t;
      listas[lista].push({ ...c, ...texto, ...montosCobertura(c.sumaAsegurada) });
    }
    return { ...montos, ...plan, coberturas: listas };
  });
}
