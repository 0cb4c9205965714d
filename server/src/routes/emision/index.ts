/**
 * /api/emision/* — application (solicitar), asynchronous issuance (emitir-async, 202) and its polling (estado).
 * The premio is re-computed on the server from the tariff at the address's zone; the client's figures are never
 * trusted. One application per purchase, one policy per quote; applications are the visitor session's only and
 * are named on the wire by a UUID (`numeroSolicitud`). Contract: schemas/api/README.md › Emission; engine:
 * domain/emision/service.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { Domicilio } from '../../db/repositories/domicilios.ts';
import type { Persona } from '../../db/repositories/personas.ts';
import type { EstadoEmision } from '../../db/repositories/solicitudes.ts';
import { ratePlan, resolveZone } from '../../domain/rating/engine.ts';
import { MENSAJE_COTIZACION_COMPRADA } from '../../domain/emision/service.ts';
import { ApiError, notFound, validationError } from '../../errors.ts';
import { erroresDomicilio, erroresPersona, priceOr400 } from '../checks.ts';
import { ratingInputDe, ref, requireCotizacion, responses } from '../shared.ts';
import { mensaje } from '../../../../src/core/messages.ts';

interface SolicitarBody {
  refId: string;
  codPlan: string;
  coberturasOpcionales: string[];
  medioPagoId: string;
  persona: Persona;
  domicilio: Domicilio;
}

const MENSAJE_SOLICITUD_NO_ENCONTRADA = mensaje('servidor.solicitudNoEncontrada');

/** Wire form of an application state (omits absent optional fields). */
function estadoWire(e: EstadoEmision, tokenPoliza: (numSecuPol: string) => string) {
  return {
    numeroSolicitud: e.numeroSolicitud,
    estado: e.estado,
    ...(e.numSecuPol ? { numSecuPol: e.numSecuPol } : {}),
    ...(e.mensaje ? { mensaje: e.mensaje } : {}),
    ...(e.vigenciaDesde && e.vigenciaHasta ? { vigenciaDesde: e.vigenciaDesde, vigenciaHasta: e.vigenciaHasta } : {}),
    ...(e.estado === 'EMITIDA' && e.numSecuPol ? { documento: tokenPoliza(e.numSecuPol) } : {}),
  };
}

/** Registers the emission routes (mounted at /api/emision). */
export default async function emisionRoutes(app: FastifyInstance) {
  app.post<{ Body: SolicitarBody }>(
    '/solicitar',
    {
      schema: {
        tags: ['emision'],
        summary: 'Registra la solicitud de contratación',
        body: ref('emision', 'SolicitarBody'),
        response: responses(ref('emision', 'SolicitarResponse')),
      },
    },
    async (request) => {
      const b = request.body;
      const { repos, tariff, lists } = app.deps;
      const errors = [...erroresPersona(app, b.persona, '/persona'), ...erroresDomicilio(app, b.domicilio, '/domicilio')];
      if (errors.length > 0) throw validationError(errors);
      const cot = await requireCotizacion(app, b.refId, request);
      const medio = await repos.mediosPago.get(b.medioPagoId);
      if (!medio || medio.refId !== cot.refId)
        throw validationError([{ field: '/medioPagoId', message: mensaje('servidor.medioPagoOtraCotizacion') }]);
      // the quote's answers that depend on today (e.g. the start date's x-diasDesdeHoy) are checked again, from the schema
      const vencidas = app.deps.revalidarFechas(cot.datos);
      if (vencidas.length > 0) {
        throw new ApiError(
          409,
          'CONFLICTO',
          mensaje('servidor.respuestaVencida', { mensaje: vencidas[0].message }),
          vencidas.map(({ field, message }) => ({ field, message })),
        );
      }
      const loc = lists.localidadesPorId.get(b.domicilio.codLocation)!;
      const ubicacion = { zona: resolveZone(tariff, loc), provinciaId: loc.provinciaId };
      const plan = priceOr400(() => ratePlan(tariff, ratingInputDe(cot, ubicacion), b.codPlan, b.coberturasOpcionales));
      const r = await app.deps.emision.solicitar({
        refId: cot.refId,
        codPlan: b.codPlan,
        coberturasOpcionales: b.coberturasOpcionales,
        plan,
        medioPagoId: medio.id,
        persona: b.persona,
        domicilio: b.domicilio,
      });
      if (!r.ok) throw new ApiError(409, 'CONFLICTO', MENSAJE_COTIZACION_COMPRADA);
      return { numeroSolicitud: r.numeroSolicitud, premio: r.premio };
    },
  );

  app.post<{ Body: { numeroSolicitud: string } }>(
    '/emitir-async',
    {
      schema: {
        tags: ['emision'],
        summary: 'Pide la emisión (asincrónica, idempotente)',
        body: ref('emision', 'EmitirAsyncBody'),
        response: responses(ref('emision', 'Estado'), 202),
      },
    },
    async (request, reply) => {
      const estado = await app.deps.emision.pedir(request.body.numeroSolicitud, request.sesion);
      if (!estado) throw notFound(MENSAJE_SOLICITUD_NO_ENCONTRADA);
      return reply.status(202).send(estadoWire(estado, app.postventa.tokenPoliza));
    },
  );

  app.get<{ Params: { numeroSolicitud: string } }>(
    '/estado/:numeroSolicitud',
    {
      schema: {
        tags: ['emision'],
        summary: 'Estado de la emisión',
        params: ref('emision', 'EstadoParams'),
        response: responses(ref('emision', 'Estado')),
      },
    },
    async (request, reply) => {
      const estado = await app.deps.repos.solicitudes.estado(request.params.numeroSolicitud, request.sesion);
      if (!estado) throw notFound(MENSAJE_SOLICITUD_NO_ENCONTRADA);
      reply.header('cache-control', 'no-store');
      return estadoWire(estado, app.postventa.tokenPoliza);
    },
  );
}
