/**
 * How a plan's installments are said, the same on every screen, PDF and e-mail (the visitor compares them): "12 cuotas
 * de $ X" when they are equal, "11 cuotas de $ X y una de $ Y" when the last one absorbs the cents (rule:
 * server/src/domain/rating/engine.ts › cuotasDe). Texts: src/i18n/es.json › app.cuotas.*; money: src/core/money.ts.
 */
import { pesos } from './money.ts';
import { mensaje } from './messages.ts';

/**
 * @param plan `cuotas` (count), `premioCuota` and `ultimaCuota` in ARS (a plan stored before the rule has no
 *   `ultimaCuota`: all equal)
 * @returns e.g. "12 cuotas de $ 15.234,50" (no-break space after "$")
 */
export function detalleCuotas(plan: { cuotas?: number; premioCuota: number; ultimaCuota?: number }): string {
  const cuotas = plan.cuotas ?? 12;
  const ultima = plan.ultimaCuota ?? plan.premioCuota;
  if (Math.round(ultima * 100) === Math.round(plan.premioCuota * 100))
    return mensaje('app.cuotas.iguales', { cuotas, cuota: pesos(plan.premioCuota) });
  return mensaje('app.cuotas.distintas', { primeras: cuotas - 1, cuota: pesos(plan.premioCuota), ultima: pesos(ultima) });
}
