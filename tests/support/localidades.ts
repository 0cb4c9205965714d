/**
 * Localities of the INDEC list (server/data/ar, SOURCES there) that several test layers expect: one place for what the
 * API answers, what the address step saves and what the locality combobox lists, so a change of the list is one edit.
 */

/** Lanús, Buenos Aires, as GET /api/listas/localidades answers it (its coordinates aside). */
export const LANUS = {
  id: '06434010',
  nombre: 'Lanús',
  provinciaId: '06',
  provincia: 'Buenos Aires',
  departamentoId: '06434',
  departamento: 'Lanús',
};

/** Lanús as the locality step saves it in the visitor's answers (the province's id and name taken from the locality). */
export const LANUS_RESPUESTAS = {
  idProvincia: '06',
  provincia: 'Buenos Aires',
  codLocalidad: '06434010',
  localidad: 'Lanús',
  departamento: 'Lanús',
};

/**
 * The first seven localities named «San José», as a search over every province lists them («name, province», the
 * list's order): the same name in six provinces, two of them in Catamarca (told apart by their department).
 */
export const SAN_JOSE_PRIMERAS = [
  'San José, Buenos Aires',
  'San José, Catamarca',
  'San José, Catamarca',
  'San José, Córdoba',
  'San José, Entre Ríos',
  'San José, Mendoza',
  'San José, Misiones',
];
