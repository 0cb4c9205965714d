/** Routes of the after-sale screens that are not flow steps (issue 8): one place, used by the router and the links. */
export const RUTAS_POSTVENTA = { arrepentimiento: '/arrepentimiento', baja: '/baja' } as const;
export type TipoPostventa = keyof typeof RUTAS_POSTVENTA;
/** The tracking-code lookup (issue 23): linked from the footer, the result page and the e-mails (server). */
export const RUTA_CONSULTA_TRAMITE = '/tramite';
