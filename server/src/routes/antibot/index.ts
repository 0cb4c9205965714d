/**
 * /api/antibot/* — the anti-bot proof of work (domain/antibot). `GET /desafio` hands out a signed
 * challenge; the browser solves it in the background and sends the solution with `cotizar`, which spends it
 * (routes/cotizacion). With the check off (`build({ antibot: { activo: false } })`) challenges are still handed out
 * and nobody asks for them back.
 */
import type { FastifyInstance } from 'fastify';
import type { Antibot } from '../../domain/antibot/index.ts';
import type { Recaptcha } from '../../domain/antibot/recaptcha.ts';
import { ref, responses } from '../shared.ts';

/** The anti-bot checks of this instance (decorated by app.ts as `app.antibot`). */
export interface AntibotApp extends Antibot {
  /** cotizar refuses a quote without a fresh solved challenge (BuildOptions.antibot.activo). */
  activo: boolean;
  /** reCAPTCHA Enterprise assessments for POST /api/recaptcha/evaluate, when configured (else the stand-in). */
  recaptcha?: Recaptcha;
}

declare module 'fastify' {
  interface FastifyInstance {
    antibot: AntibotApp;
  }
}

/** Registers the anti-bot routes (mounted at /api/antibot). */
export default async function antibotRoutes(app: FastifyInstance) {
  app.get(
    '/desafio',
    {
      schema: {
        tags: ['antibot'],
        summary: 'Desafío de prueba de trabajo (ALTCHA) que cotizar pide resuelto',
        response: responses(ref('antibot', 'Desafio')),
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return app.antibot.desafio();
    },
  );
}
