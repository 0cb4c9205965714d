/**
 * The conditions document, mounted under /api:
 * - GET /documentos/condiciones         the general document (every plan, sums as the tariff states them); no session.
 * - GET /documentos/condiciones/:refId  the conditions of a quote of the visitor's session (its plans' sums in ARS).
 * Rules and texts: server/src/domain/documentos/condiciones.ts; contract: schemas/api/README.md › After the sale.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { pdfCondiciones } from '../../domain/documentos/condiciones.ts';
import { texto } from '../../domain/postventa/textos.ts';
import { hoyArgentina } from '../../domain/validation/fechas.ts';
import { ref, requireCotizacion } from '../shared.ts';

const errores = () => ({ '4xx': ref('common', 'Error'), '5xx': ref('common', 'Error') });

function enviar(reply: FastifyReply, pdf: Buffer) {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `inline; filename="${texto('servidor.postventa.correos.cotizacion.archivoCondiciones')}"`)
    .header('cache-control', 'private, no-store')
    .send(pdf);
}

/** Registers the conditions routes (inside the /api scope). */
export default async function condicionesRoutes(app: FastifyInstance) {
  app.get(
    '/documentos/condiciones',
    {
      schema: {
        tags: ['postventa'],
        summary: 'Condiciones generales y particulares del seguro (PDF, todos los planes)',
        produces: ['application/pdf'],
        response: errores(),
      },
    },
    async (_request, reply) => enviar(reply, await pdfCondiciones(app.deps.tariff, { fecha: hoyArgentina() })),
  );
  app.get<{ Params: { refId: string } }>(
    '/documentos/condiciones/:refId',
    {
      schema: {
        tags: ['postventa'],
        summary: 'Condiciones del seguro de una cotización de la sesión (PDF, con sus sumas aseguradas)',
        params: ref('postventa', 'CotizacionPdfParams'),
        produces: ['application/pdf'],
        response: errores(),
      },
    },
    async (request, reply) => {
      const cot = await requireCotizacion(app, request.params.refId, request);
      return enviar(reply, await pdfCondiciones(app.deps.tariff, { fecha: hoyArgentina(), planes: cot.planes }));
    },
  );
}
