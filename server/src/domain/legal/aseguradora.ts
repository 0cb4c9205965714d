/**
 * The insurer's data (legal name, CUIT, SSN registration number, address, contact) from the one configuration file
 * config/aseguradora.json, which the web app reads too (footer, legal pages) and the server's texts, PDFs and e-mails
 * use as placeholders (server/src/domain/postventa/textos.ts). A production server refuses to start while the file
 * holds the repository's example values («Inscripta en la SSN con el N.º 0000» must never reach a customer).
 */
import datos from '../../../../config/aseguradora.json' with { type: 'json' };

export interface Aseguradora {
  /** true in the repository: the values are examples. */
  datosDeReferencia: boolean;
  nombre: string;
  /** "30-71234567-1" (11 digits, the last a mod-11 check digit). */
  cuit: string;
  /** SSN registration number (digits). */
  registroSsn: string;
  domicilio: string;
  telefono: string;
  email: string;
  siniestrosTelefono: string;
  siniestrosEmail: string;
  datosEmail: string;
  atencionResponsable: string;
  atencionSuplente: string;
}

/** The configured insurer (config/aseguradora.json). */
export const ASEGURADORA: Aseguradora = datos as Aseguradora;

/** @returns true when `cuit` has 11 digits (dashes allowed) and a correct AFIP mod-11 check digit */
export function cuitValido(cuit: string): boolean {
  const d = cuit.replace(/-/g, '');
  if (!/^[0-9]{11}$/.test(d)) return false;
  const pesos = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const resto = pesos.reduce((s, p, i) => s + p * Number(d[i]), 0) % 11;
  const dv = resto === 0 ? 0 : resto === 1 ? 9 : 11 - resto;
  return dv === Number(d[10]);
}

/**
 * What in `a` is still an example value, in Spanish (empty when it looks real).
 * Checks: the `datosDeReferencia` flag, the CUIT check digit, an SSN number of digits that is not all zeros, e-mail
 * addresses outside reserved example domains (.example, example.com…), and no empty field.
 */
export function problemasAseguradora(a: Aseguradora): string[] {
  const p: string[] = [];
  if (a.datosDeReferencia !== false) p.push('datosDeReferencia tiene que ser false');
  for (const [k, v] of Object.entries(a)) if (typeof v === 'string' && v.trim() === '') p.push(`${k} está vacío`);
  if (!cuitValido(a.cuit)) p.push(`el CUIT ${a.cuit} no es válido (dígito verificador)`);
  if (!/^[0-9]+$/.test(a.registroSsn) || /^0+$/.test(a.registroSsn))
    p.push(`el N.º de inscripción en la SSN "${a.registroSsn}" no es real`);
  for (const k of ['email', 'siniestrosEmail', 'datosEmail'] as const) {
    if (/@(.+\.)?(example|test|invalid|localhost)$|@example\.(com|net|org)$/i.test(a[k]))
      p.push(`${k} (${a[k]}) es una dirección de ejemplo`);
  }
  return p;
}

/**
 * @param env the process environment: only NODE_ENV=production is checked
 * @throws Error with a Spanish message listing every example value when running in production with them
 */
export function verificarAseguradora(env: Record<string, string | undefined>, a: Aseguradora = ASEGURADORA): void {
  if (env.NODE_ENV !== 'production') return;
  const p = problemasAseguradora(a);
  if (p.length) {
    throw new Error(
      `Los datos de la aseguradora en config/aseguradora.json son de ejemplo y no se pueden publicar (NODE_ENV=production): ${p.join('; ')}. ` +
        'Completá los datos reales de la aseguradora (razón social, CUIT, N.º de inscripción en la SSN, domicilio y contactos) y volvé a compilar.',
    );
  }
}
