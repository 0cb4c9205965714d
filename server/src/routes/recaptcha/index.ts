/**
 * /api/recaptcha/* — anti-abuse. `evaluate` is the reference stand-in for reCAPTCHA Enterprise assessment (accepts any
 * non-empty token). `evaluar-ip` tells whether the IP may still quote this hour: it reads the same shared counter
 * that `cotizar` enforces (plugins/limits.ts), without counting.
 */
import type { FastifyInstance } from 'fastify';
import { MENSAJE_LIMITE_COTIZACIONES } from '../../plugins/limits.ts';
import { ref, responses } from '../shared.ts';

export { MENSAJE_LIMITE_COTIZACIONES };

/** Registers the anti-abuse routes (mounted at /api/recaptcha). */
export default async function recaptchaRoutes(app: FastifyInstance) {
  app.post<{ Body: { token: string; action: string } }>(
    '/evaluate',
    { schema: { tags: ['recaptcha'], body: ref('recaptcha', 'EvaluateBody'), response: responses(ref('recaptcha', 'EvaluateResponse')) } },
    async (request) => ({ success: true, score: 0.9, action: request.body.action }),
  );

  app.post(
    '/evaluar-ip',
    {
      schema: { tags: ['recaptcha'], body: ref('recaptcha', 'EvaluarIpBody'), response: responses(ref('recaptcha', 'EvaluarIpResponse')) },
      // The call carries no data: a POST without body counts as `{}`.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      if (await app.cupoCotizaciones.disponible(request)) return { permitido: true };
      return { permitido: false, mensaje: MENSAJE_LIMITE_COTIZACIONES };
    },
  );
}
