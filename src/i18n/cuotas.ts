/**
 * How a plan's installments are said, the same on every screen, PDF and e-mail (issue 23): "12 cuotas de $ X" when
 * they are equal, "11 cuotas de $ X y una de $ Y" when the last one absorbs the cents (rule: server/src/domain/rating/
 * engine.ts › cuotasDe). Texts: src/i18n/es.json › app.cuotas.*.
 */
import { mensaje } from './messages.ts';

/**
 * @param plan `cuotas` (count), `premioCuota` and `ultimaCuota` in ARS (a plan stored before the rule has no
 *   `ultimaCuota`: all equal)
 * @param pesos the es-AR currency formatter of the caller (web: formatCurrency; server: documentos/formato › pesos)
 */
export function detalleCuotas(plan: { cuotas?: number; premioCuota: number; ultimaCuota?: number }, pesos: (ars: number) => string): string {
  const cuotas = plan.cuotas ?? 12;
  const ultima = plan.ultimaCuota ?? plan.premioCuota;
  if (Math.round(ultima * 100) === Math.round(plan.premioCuota * 100)) return mensaje('app.cuotas.iguales', { cuotas, cuota: pesos(plan.premioCuota) });
  return mensaje('app.cuotas.distintas', { primeras: cuotas - 1, cuota: pesos(plan.premioCuota), ultima: pesos(ultima) });
}
