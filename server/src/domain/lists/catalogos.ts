/**
 * Fixed catalogues of the quote and personal-data forms (schemas/api/README.md › Reference lists).
 * `codigo` values are the wire values accepted by the POST bodies.
 */
export interface Item {
  codigo: string;
  descripcion: string;
}

export const TIPOS_VIVIENDA: readonly Item[] = [
  { codigo: 'CASA', descripcion: 'Casa' },
  { codigo: 'DEPARTAMENTO', descripcion: 'Departamento' },
  { codigo: 'PH', descripcion: 'PH (propiedad horizontal)' },
];

export const VALORES_COUNTRY: readonly Item[] = [
  { codigo: 'N', descripcion: 'No está en barrio cerrado' },
  { codigo: 'S', descripcion: 'Está en un barrio cerrado o country' },
];

export const TIPOS_TITULARIDAD: readonly Item[] = [
  { codigo: 'PROPIETARIO', descripcion: 'Soy propietario/a' },
  { codigo: 'INQUILINO', descripcion: 'Alquilo' },
];

export const USOS_VIVIENDA: readonly Item[] = [
  { codigo: 'PERMANENTE', descripcion: 'Vivo ahí todo el año' },
  { codigo: 'TEMPORAL', descripcion: 'Es de fin de semana o veraneo' },
];

export const TIPOS_DOCUMENTO: readonly Item[] = [
  { codigo: 'DNI', descripcion: 'DNI' },
  { codigo: 'LE', descripcion: 'Libreta de enrolamiento' },
  { codigo: 'LC', descripcion: 'Libreta cívica' },
  { codigo: 'PAS', descripcion: 'Pasaporte' },
];

/** Sex as registered in the DNI; "X" per Decreto 476/2021. */
export const SEXOS: readonly Item[] = [
  { codigo: 'F', descripcion: 'Femenino' },
  { codigo: 'M', descripcion: 'Masculino' },
  { codigo: 'X', descripcion: 'No binario' },
];

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
