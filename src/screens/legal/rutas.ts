/**
 * Routes of the legal pages (issue 23): one place, used by the router, the footer and the links inside texts.
 * Texts: src/i18n/es.json › legal.paginas.<key>.
 */
export const RUTAS_LEGALES = { terminos: '/terminos', privacidad: '/privacidad', atencion: '/atencion-al-asegurado' } as const;
export type PaginaLegal = keyof typeof RUTAS_LEGALES;

/** The general conditions document (PDF of the tariff's conditions, no quote needed), under the API base. */
export const RUTA_CONDICIONES_GENERALES = '/documentos/condiciones';
