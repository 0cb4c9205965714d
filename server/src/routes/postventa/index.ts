/**
 * After the sale (issue 8), mounted under /api:
 * - GET  /documentos/poliza/:token     the policy PDF; the token (signed, expiring) is the only key — no session.
 * - GET  /documentos/cotizacion/:refId the quote PDF of the visitor's session.
 * - POST /cotizacion/enviar            e-mails the quote with a 7-day resume link (what the visitor answered is kept).
 * - POST /cotizacion/retomar           opens a resume link: a new quote of this session, re-priced today.
 * - POST /postventa/arrepentimiento, /postventa/baja  policy number + DNI + e-mail → tracking code (rate-limited,
 *   same 404 for unknown and mismatched data).
 * Contract: schemas/api/README.md › After the sale; schemas: schemas/api/postventa.json; rules: domain/postventa.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Postventa, TipoTramite } from '../../domain/postventa/service.ts';
import { texto } from '../../domain/postventa/textos.ts';
import { ApiError, notFound } from '../../errors.ts';
import { ref, requireCotizacion, responses } from '../shared.ts';

declare module 'fastify' {
  interface FastifyInstance {
    postventa: Postventa;
  }
}

const errores = () => ({ '4xx': ref('common', 'Error'), '5xx': ref('common', 'Error') });

function enviarPdf(reply: FastifyReply, pdf: Buffer, archivo: string) {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${archivo}"`)
    .header('cache-control', 'private, no-store')
    .send(pdf);
}

/** Registers the after-sale routes (mount inside the /api scope, after the limits plugin). */
export default async function postventaRoutes(app: FastifyInstance, opts: { tramitesPorHora: number }) {
  const limiter = app.createRateLimit({ max: opts.tramitesPorHora, timeWindow: 3_600_000, keyGenerator: (r: FastifyRequest) => `postventa|${r.ip}` });
  const limitar = async (request: FastifyRequest) => {
    const r = await limiter(request);
    if (!r.isAllowed && r.isExceeded) throw new ApiError(429, 'DEMASIADAS_SOLICITUDES', texto('servidor.postventa.limite'));
  };

  app.get<{ Params: { token: string } }>(
    '/documentos/poliza/:token',
    { schema: { tags: ['postventa'], summary: 'Póliza en PDF (enlace firmado y con vencimiento)', params: ref('postventa', 'PolizaPdfParams'), produces: ['application/pdf'], response: errores() } },
    async (request, reply) => {
      const v = app.deps.tokens.verificar('poliza', request.params.token);
      if (!v.ok) throw notFound(texto(`servidor.postventa.${v.motivo === 'VENCIDO' ? 'enlaceVencido' : 'enlaceInvalido'}`));
      const pdf = await app.postventa.pdfPoliza(v.id);
      return enviarPdf(reply, pdf, texto('servidor.postventa.correos.poliza.archivo', { numSecuPol: v.id }));
    },
  );

  app.get<{ Params: { refId: string } }>(
    '/documentos/cotizacion/:refId',
    { schema: { tags: ['postventa'], summary: 'Cotización en PDF (de la sesión)', params: ref('postventa', 'CotizacionPdfParams'), produces: ['application/pdf'], response: errores() } },
    async (request, reply) => {
      const cot = await requireCotizacion(app, request.params.refId, request);
      return enviarPdf(reply, await app.postventa.pdfCotizacion(cot), texto('servidor.postventa.correos.cotizacion.archivo'));
    },
  );

  app.post<{ Body: { refId: string; respuestas: unknown; versionFlujo: number } }>(
    '/cotizacion/enviar',
    { schema: { tags: ['postventa'], summary: 'Envía la cotización por e-mail con un enlace para retomarla', body: ref('postventa', 'EnviarCotizacionBody'), response: responses(ref('postventa', 'EnviarCotizacionResponse')) } },
    async (request) => {
      await limitar(request);
      const cot = await requireCotizacion(app, request.body.refId, request);
      const r = await app.postventa.enviarCotizacion(cot, request.body.respuestas, request.body.versionFlujo);
      app.deps.correo.despertar();
      return { ok: true, email: r.email };
    },
  );

  app.post<{ Body: { token: string } }>(
    '/cotizacion/retomar',
    { schema: { tags: ['postventa'], summary: 'Retoma una cotización enviada por e-mail', body: ref('postventa', 'RetomarBody'), response: responses(ref('postventa', 'RetomarResponse')) } },
    async (request) => {
      const r = await app.postventa.retomar(request.body.token, request.sesion, request.ip);
      app.deps.metrics.cotizaciones.inc({ origen: 'retomar' });
      return r;
    },
  );

  for (const [ruta, tipo] of [['arrepentimiento', 'ARREPENTIMIENTO'], ['baja', 'BAJA']] as [string, TipoTramite][]) {
    app.post<{ Body: { numSecuPol: string; dni: string; email: string } }>(
      `/postventa/${ruta}`,
      {
        schema: {
          tags: ['postventa'],
          summary: tipo === 'ARREPENTIMIENTO' ? 'Botón de arrepentimiento (10 días corridos)' : 'Botón de baja',
          body: ref('postventa', 'TramiteBody'),
          response: responses(ref('postventa', 'TramiteResponse')),
        },
      },
      async (request) => {
        await limitar(request);
        const t = await app.postventa.tramite(tipo, request.body);
        app.deps.correo.despertar();
        return t;
      },
    );
  }
}
