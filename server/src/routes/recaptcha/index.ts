/**
 * /api/recaptcha/* — anti-abuse. `evaluate` asks reCAPTCHA Enterprise for an assessment when it is configured
 * (RECAPTCHA_PROJECT, RECAPTCHA_KEY, RECAPTCHA_API_KEY: domain/antibot/recaptcha.ts; 503 when the API cannot be
 * reached); without it, it is the reference stand-in (accepts any non-empty token) and the quote's anti-bot check is
 * the self-hosted proof of work (routes/antibot). `evaluar-ip` tells whether the IP may still quote this hour: it reads the same shared counter
 * that `cotizar` enforces (plugins/limits.ts), without counting.
 */
import type { FastifyInstance } from 'fastify';
import { serviceUnavailable } from '../../errors.ts';
import { MENSAJE_LIMITE_COTIZACIONES } from '../../plugins/limits.ts';
import { ref, responses } from '../shared.ts';

export { MENSAJE_LIMITE_COTIZACIONES };

/** Registers the anti-abuse routes (mounted at /api/recaptcha). */
export default async function recaptchaRoutes(app: FastifyInstance) {
  app.post<{ Body: { token: string; action: string } }>(
    '/evaluate',
    { schema: { tags: ['recaptcha'], body: ref('recaptcha', 'EvaluateBody'), response: responses(ref('recaptcha', 'EvaluateResponse')) } },
    async (request) => {
      const recaptcha = app.antibot.recaptcha;
      if (!recaptcha) return { success: true, score: 0.9, action: request.body.action };
      try {
        return await recaptcha.evaluar(request.body.token, request.body.action);
      } catch (err) {
        request.log.warn({ err: (err as Error).message }, 'reCAPTCHA Enterprise no respondió');
        throw serviceUnavailable();
      }
    },
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
