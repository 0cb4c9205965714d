/**
 * Catalogues of the quote and personal-data forms (schemas/api/README.md › Reference lists): the flow's own (from the
 * step schemas and es.json, `leerCatalogos`) and fixed ones (nationalities, marital status).
 * `codigo` values are the wire values accepted by the POST bodies.
 */
import { loadStepSchemas } from '../../producto.ts';

export interface Item {
  codigo: string;
  descripcion: string;
}

/**
 * The catalogues that are the flow's own questions: their codes are the enum of the step-schema field of that name
 * (wherever a step asks it, conditions included), so an option a staffer adds to a step is in its list and in the
 * documents at once; each description is `es.json › servidor.listas.<field>.<code>` (the wording of documents: "Vivo
 * ahí todo el año"), else the option's label in the form (`<step>.fields.<field>.options.<code>`), never a raw code.
 * Route → field.
 */
export const CATALOGOS_DEL_FLUJO = {
  '/tipos-vivienda': 'tipoVivienda',
  '/valores-country': 'barrioCerrado',
  '/tipos-titularidad': 'titularidad',
  '/usos-vivienda': 'usoVivienda',
  '/tiposDocumentos': 'typeDoc',
  '/sexos': 'genere',
} as const;

export type Catalogos = Record<(typeof CATALOGOS_DEL_FLUJO)[keyof typeof CATALOGOS_DEL_FLUJO], readonly Item[]>;

/** The first `properties.<campo>` with an `enum` anywhere in `node` (top level, if/then/else, allOf…), depth first. */
function enumDe(node: unknown, campo: string): { enum: unknown[] } | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const props = (node as { properties?: Record<string, { enum?: unknown }> }).properties;
  const prop = props?.[campo];
  if (prop && Array.isArray(prop.enum)) return prop as { enum: unknown[] };
  for (const v of Object.values(node)) {
    const found = enumDe(v, campo);
    if (found) return found;
  }
  return undefined;
}

/**
 * Reads the flow's catalogues from the step schemas under `schemasDir` and the texts.
 * @param schemasDir folder of `<step>.schema.json` (SCHEMAS_DIR; an edited copy in tests)
 * @param texto looks a key up in es.json (undefined when absent)
 * @throws Error naming the field when no step schema has an enum for it
 */
export function leerCatalogos(schemasDir: string, texto: (key: string) => string | undefined): Catalogos {
  const pasos = loadStepSchemas(schemasDir).schemas;
  const buscar = (campo: string): Item[] => {
    for (const [paso, schema] of Object.entries(pasos)) {
      const prop = enumDe(schema, campo);
      if (!prop) continue;
      return prop.enum
        .map((c) => String(c))
        .map((codigo) => ({
          codigo,
          descripcion: texto(`servidor.listas.${campo}.${codigo}`) ?? texto(`${paso}.fields.${campo}.options.${codigo}`) ?? codigo,
        }));
    }
    throw new Error(`Ningún paso de ${schemasDir} pregunta "${campo}" con una lista de opciones (enum).`);
  };
  return Object.fromEntries(Object.values(CATALOGOS_DEL_FLUJO).map((campo) => [campo, buscar(campo)])) as unknown as Catalogos;
}

/** The description of `codigo` in `items` (the code itself when the list lacks it). */
export const descripcion = (items: readonly Item[], codigo: string): string =>
  items.find((i) => i.codigo === codigo)?.descripcion ?? codigo;

/** ISO 3166-1 alpha-3 codes; Argentina first, then neighbours and the most frequent origins of residents (INDEC Censo 2022). */
export const NACIONALIDADES: readonly Item[] = [
  { codigo: 'ARG', descripcion: 'Argentina' },
  { codigo: 'BOL', descripcion: 'Bolivia' },
  { codigo: 'BRA', descripcion: 'Brasil' },
  { codigo: 'CHL', descripcion: 'Chile' },
  { codigo: 'CHN', descripcion: 'China' },
  { codigo: 'COL', descripcion: 'Colombia' },
  { codigo: 'CUB', descripcion: 'Cuba' },
  { codigo: 'ECU', descripcion: 'Ecuador' },
  { codigo: 'ESP', descripcion: 'España' },
  { codigo: 'USA', descripcion: 'Estados Unidos' },
  { codigo: 'FRA', descripcion: 'Francia' },
  { codigo: 'ITA', descripcion: 'Italia' },
  { codigo: 'MEX', descripcion: 'México' },
  { codigo: 'PRY', descripcion: 'Paraguay' },
  { codigo: 'PER', descripcion: 'Perú' },
  { codigo: 'DOM', descripcion: 'República Dominicana' },
  { codigo: 'URY', descripcion: 'Uruguay' },
  { codigo: 'VEN', descripcion: 'Venezuela' },
  { codigo: 'OTR', descripcion: 'Otra' },
];

export const ESTADOS_CIVILES: readonly Item[] = [
  { codigo: 'SOLTERO', descripcion: 'Soltero/a' },
  { codigo: 'CASADO', descripcion: 'Casado/a' },
  { codigo: 'DIVORCIADO', descripcion: 'Divorciado/a' },
  { codigo: 'VIUDO', descripcion: 'Viudo/a' },
  { codigo: 'UNION_CONVIVENCIAL', descripcion: 'En unión convivencial' },
];
