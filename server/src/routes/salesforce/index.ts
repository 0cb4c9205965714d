/** POST /api/salesforce/insertar-datos — buyer's personal data (reference stand-in for the CRM). */
import type { FastifyInstance } from 'fastify';
import type { Persona } from '../../db/repositories/personas.ts';
import { validationError } from '../../errors.ts';
import { erroresPersona } from '../checks.ts';
import { ref, requireCotizacion, responses } from '../shared.ts';

/** Registers POST /insertar-datos (mounted at /api/salesforce). */
export default async function salesforceRoutes(app: FastifyInstance) {
  app.post<{ Body: Persona & { refId: string } }>(
    '/insertar-datos',
    {
      schema: {
        tags: ['salesforce'],
        body: ref('salesforce', 'InsertarDatosBody'),
        response: responses(ref('salesforce', 'InsertarDatosResponse')),
      },
    },
    async (request) => {
      const { refId, ...persona } = request.body;
      const errors = erroresPersona(app, persona);
      if (errors.length > 0) throw validationError(errors);
      await requireCotizacion(app, refId, request);
      return { idSalesForce: await app.deps.repos.personas.insert(refId, persona) };
    },
  );
}
