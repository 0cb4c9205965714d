/**
 * Routes of the pages that are not flow steps, in one place: the router declares them, the footer and the texts link
 * them, and the server writes them into e-mails and PDFs (so a renamed page cannot leave a dead link in a message).
 * Step routes are not here: they follow from flow/flow.json (src/core/flow/graph.ts › compileFlow).
 */

/** The after-sale forms (withdrawal, cancellation). */
export const RUTAS_POSTVENTA = { arrepentimiento: '/arrepentimiento', baja: '/baja' } as const;
export type TipoPostventa = keyof typeof RUTAS_POSTVENTA;

/** The tracking-code lookup: linked from the footer, the result page and the e-mails. */
export const RUTA_CONSULTA_TRAMITE = '/tramite';

/** The legal pages. Texts: src/i18n/es.json › legal.paginas.<key>. */
export const RUTAS_LEGALES = { terminos: '/terminos', privacidad: '/privacidad', atencion: '/atencion-al-asegurado' } as const;
export type PaginaLegal = keyof typeof RUTAS_LEGALES;

/** The general conditions document (PDF of the tariff's conditions, no quote needed), under the API base. */
export const RUTA_CONDICIONES_GENERALES = '/documentos/condiciones';
