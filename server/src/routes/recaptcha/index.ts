/**
 * /api/recaptcha/* — anti-abuse. `evaluate` is the reference stand-in for reCAPTCHA Enterprise assessment (accepts any
 * non-empty token). `evaluar-ip` allows an IP at most `settings.cotizacionesPorHoraPorIp` quotes in the last hour.
 */
import type { FastifyInstance } from 'fastify';
import { ref, responses } from '../shared.ts';

/** Shown to the visitor when their IP reached the hourly quote limit. */
export const MENSAJE_LIMITE_COTIZACIONES = 'Hiciste muchas cotizaciones en la última hora. Probá de nuevo más tarde o escribinos por WhatsApp.';

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
      const recientes = await app.deps.repos.cotizaciones.contarRecientesPorIp(request.ip, 60);
      if (recientes < app.deps.settings.cotizacionesPorHoraPorIp) return { permitido: true };
      return { permitido: false, mensaje: MENSAJE_LIMITE_COTIZACIONES };
    },
  );
}
