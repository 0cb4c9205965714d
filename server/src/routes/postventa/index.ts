/**
 * After the sale, mounted under /api:
 * - GET  /documentos/poliza/:token     the policy PDF; the token (signed, expiring) is the only key — no session.
 * - GET  /documentos/cotizacion/:refId the quote PDF of the visitor's session.
 * - POST /cotizacion/enviar            e-mails the quote with a 7-day resume link (what the visitor answered is kept).
 * - POST /cotizacion/retomar           opens a resume link: a new quote of this session, re-priced today; counts on
 *   the client address's hourly quote limit (as cotizar) and on its link's own hourly bound (`retomarPorEnlacePorHora`).
 * - POST /postventa/arrepentimiento, /postventa/baja  policy number + DNI + e-mail → tracking code (limited per client
 *   address and per policy, same 404 for unknown and mismatched data).
 * - POST /postventa/consulta           tracking code + DNI or e-mail → the request's type, date, state, effective date
 *   (limited per client address and per code, same 404 for an unknown code and a wrong DNI/e-mail).
 * Every request to the three /postventa routes, whatever its answer, leaves a row in `tramites_auditoria` (time,
 * client address, user agent, policy number or code named, status).
 * Contract: schemas/api/README.md › After the sale; schemas: schemas/api/postventa.json; rules: domain/postventa.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tramitesRepository, type TipoAuditado } from '../../db/repositories/tramites.ts';
import type { ConsultaTramite, Postventa, TipoTramite, Tramite } from '../../domain/postventa/service.ts';
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

/** Hourly bounds of the after-sale routes (config: TRAMITES_POR_HORA, TRAMITES_POR_POLIZA_POR_HORA, RETOMAR_POR_ENLACE_POR_HORA). */
export interface PostventaLimites {
  /** Requests per client address (trámites, lookups and "Enviarme la cotización" together). */
  tramitesPorHora: number;
  /** Withdrawal/cancellation requests naming one policy number (whoever sends them), and lookups of one code. */
  tramitesPorPolizaPorHora: number;
  /** Resumes of one e-mailed link (each one is a new quote). */
  retomarPorEnlacePorHora: number;
}

/** A request that got a tracking code (its audit row names the policy and the code). */
type ConTramite = FastifyRequest & { tramite?: Tramite };
/** A policy number or code as named in a body (normalised, bounded), for the audit row; null when absent. */
const nombrado = (s: unknown) => (typeof s === 'string' ? s.trim().toUpperCase().slice(0, 40) : null);

/** Registers the after-sale routes (mount inside the /api scope, after the limits plugin). */
export default async function postventaRoutes(app: FastifyInstance, opts: PostventaLimites) {
  const limiter = app.createRateLimit({
    max: opts.tramitesPorHora,
    timeWindow: 3_600_000,
    keyGenerator: (r: FastifyRequest) => `postventa|${r.ip}`,
  });
  /** Counts one request of the client address on `tramitesPorHora`. @throws ApiError 429 */
  const limitar: Limitar = async (request) => {
    const r = await limiter(request);
    if (!r.isAllowed && r.isExceeded) throw new ApiError(429, 'DEMASIADAS_SOLICITUDES', texto('servidor.postventa.limite'));
  };
  documentosRoutes(app);
  cotizacionEnviadaRoutes(app, limitar, opts);
  tramitesRoutes(app, limitar, opts);
}

/** Counts one request on the client address's hourly bound. @throws ApiError 429 when exceeded */
type Limitar = (request: FastifyRequest) => Promise<void>;

/**
 * onSend of the /postventa routes: one audit row per request, whatever the answer (validation errors included).
 * Never fails the answer: a failed insert is logged.
 */
function auditar(app: FastifyInstance, tipo: TipoAuditado) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const hecho = (request as ConTramite).tramite;
    try {
      await tramitesRepository(app.deps.db).auditar({
        tipo,
        numSecuPol: hecho?.numSecuPol ?? nombrado(body.numSecuPol),
        codigo: hecho?.codigo ?? nombrado(body.codigo),
        estadoHttp: reply.statusCode,
        ip: request.ip,
        userAgent: request.headers['user-agent']?.slice(0, 400) ?? null,
      });
    } catch (err) {
      request.log.error({ err }, 'no se pudo registrar la auditoría del trámite');
    }
    return payload;
  };
}

/** GET /documentos/poliza/:token (signed link, no session) and GET /documentos/cotizacion/:refId (the session's quote). */
function documentosRoutes(app: FastifyInstance) {
  app.get<{ Params: { token: string } }>(
    '/documentos/poliza/:token',
    {
      schema: {
        tags: ['postventa'],
        summary: 'Póliza en PDF (enlace firmado y con vencimiento)',
        params: ref('postventa', 'PolizaPdfParams'),
        produces: ['application/pdf'],
        response: errores(),
      },
    },
    async (request, reply) => {
      const v = app.deps.tokens.verificar('poliza', request.params.token);
      if (!v.ok) throw notFound(texto(`servidor.postventa.${v.motivo === 'VENCIDO' ? 'enlaceVencido' : 'enlaceInvalido'}`));
      const pdf = await app.postventa.pdfPoliza(v.id);
      return enviarPdf(reply, pdf, texto('servidor.postventa.correos.poliza.archivo', { numSecuPol: v.id }));
    },
  );

  app.get<{ Params: { refId: string } }>(
    '/documentos/cotizacion/:refId',
    {
      schema: {
        tags: ['postventa'],
        summary: 'Cotización en PDF (de la sesión)',
        params: ref('postventa', 'CotizacionPdfParams'),
        produces: ['application/pdf'],
        response: errores(),
      },
    },
    async (request, reply) => {
      const cot = await requireCotizacion(app, request.params.refId, request);
      return enviarPdf(reply, await app.postventa.pdfCotizacion(cot), texto('servidor.postventa.correos.cotizacion.archivo'));
    },
  );
}

/** POST /cotizacion/enviar (e-mails the quote with a resume link) and POST /cotizacion/retomar (opens that link). */
function cotizacionEnviadaRoutes(app: FastifyInstance, limitar: Limitar, opts: PostventaLimites) {
  app.post<{ Body: { refId: string; respuestas: unknown; versionFlujo: number } }>(
    '/cotizacion/enviar',
    {
      schema: {
        tags: ['postventa'],
        summary: 'Envía la cotización por e-mail con un enlace para retomarla',
        body: ref('postventa', 'EnviarCotizacionBody'),
        response: responses(ref('postventa', 'EnviarCotizacionResponse')),
      },
    },
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
    {
      schema: {
        tags: ['postventa'],
        summary: 'Retoma una cotización enviada por e-mail',
        body: ref('postventa', 'RetomarBody'),
        response: responses(ref('postventa', 'RetomarResponse')),
      },
    },
    async (request) => {
      const r = await app.postventa.retomar(request.body.token, request.sesion, request.ip, {
        guardar: (insertar) => app.cupoCotizaciones.guardar(request, insertar),
        porEnlace: (clave) => app.cupoPorHora.consumir(clave, opts.retomarPorEnlacePorHora, texto('servidor.postventa.limiteEnlace')),
      });
      app.deps.metrics.cotizaciones.inc({ origen: 'retomar' });
      return r;
    },
  );
}

/**
 * POST /postventa/arrepentimiento, /postventa/baja and /postventa/consulta: bounded per client address and per policy
 * number or code (`tramitesPorPolizaPorHora`), each request audited.
 */
function tramitesRoutes(app: FastifyInstance, limitar: Limitar, opts: PostventaLimites) {
  /** Counts one request naming policy/code `clave` (known or not: the same for both). @throws ApiError 429 */
  const limitarPorClave = (clave: string, mensaje: string) =>
    app.cupoPorHora.consumir(clave, opts.tramitesPorPolizaPorHora, texto(mensaje));
  for (const [ruta, tipo] of [
    ['arrepentimiento', 'ARREPENTIMIENTO'],
    ['baja', 'BAJA'],
  ] as [string, TipoTramite][]) {
    app.post<{ Body: { numSecuPol: string; dni: string; email: string } }>(
      `/postventa/${ruta}`,
      {
        schema: {
          tags: ['postventa'],
          summary: tipo === 'ARREPENTIMIENTO' ? 'Botón de arrepentimiento (10 días corridos)' : 'Botón de baja',
          body: ref('postventa', 'TramiteBody'),
          response: responses(ref('postventa', 'TramiteResponse')),
        },
        onSend: auditar(app, tipo),
      },
      async (request) => {
        await limitar(request);
        await limitarPorClave(`tramite-poliza|${request.body.numSecuPol.trim().toUpperCase()}`, 'servidor.postventa.limitePoliza');
        const t = await app.postventa.tramite(tipo, request.body);
        (request as ConTramite).tramite = t;
        app.deps.correo.despertar();
        return t;
      },
    );
  }

  app.post<{ Body: { codigo: string; dniOEmail: string } }>(
    '/postventa/consulta',
    {
      schema: {
        tags: ['postventa'],
        summary: 'Consulta un trámite por su código de seguimiento',
        body: ref('postventa', 'ConsultaBody'),
        response: responses(ref('postventa', 'ConsultaResponse')),
      },
      onSend: auditar(app, 'CONSULTA'),
    },
    async (request): Promise<ConsultaTramite> => {
      await limitar(request);
      await limitarPorClave(`tramite-codigo|${request.body.codigo.trim().toUpperCase()}`, 'servidor.postventa.limiteCodigo');
      const t = await app.postventa.consulta(request.body.codigo, request.body.dniOEmail);
      (request as ConTramite).tramite = t;
      return t;
    },
  );
}
