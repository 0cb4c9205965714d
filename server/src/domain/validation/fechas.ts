/**
 * Date helpers of the server: re-exported from the one date module shared with the web (src/core/dates.ts), where
 * "today" is the date in Argentina (America/Argentina/Buenos_Aires). The date RULES (age 18–99, vigencia start
 * tomorrow…+30 days) are the step schemas' keywords `x-edad` and `x-diasDesdeHoy`, checked by the API's Ajv.
 */
export { edad, esFechaValida, hoyArgentina, sumarAnios, sumarDias } from '../../../../src/core/dates.ts';
