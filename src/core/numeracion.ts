/**
 * Argentine numbering (ENACOM, Plan Fundamental de Numeración Nacional): area code (without the leading 0) +
 * subscriber number (without the mobile "15") = 10 national digits. No imports: the journey recorder
 * (src/recorder/record-rules.ts) reads it in the browser, the phone check (telefono.ts) on the server.
 */
export const DIGITOS_NACIONALES = 10;
