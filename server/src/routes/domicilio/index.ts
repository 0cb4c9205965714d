/**
 * /api/domicilio/* — the risk address: zone comparison against the quote (re-prices the chosen plan when the zone
 * changes), address record, and address rejection. Contract: schemas/api/README.md › CRM / address.
 */
import type { FastifyInstance } from 'fastify';
import type { Domicilio } from '../../db/repositories/domicilios.ts';
import { ratePlan, resolveZone } from '../../domain/rating/engine.ts';
import { validationError } from '../../errors.ts';
import { erroresDomicilio, priceOr400 } from '../checks.ts';
import { ratingInputDe, ref, requireCotizacion, requireLocalidad, responses } from '../shared.ts';

/** Registers the address routes (mounted at /api/domicilio). */
export default async function domicilioRoutes(app: FastifyInstance) {
  app.post<{ Body: { refId: string; codLocation: string } }>(
    '/comparar-zonas',
    {
      schema: {
        tags: ['domicilio'],
        body: ref('domicilio', 'CompararZonasBody'),
        response: responses(ref('domicilio', 'CompararZonasResponse')),
      },
    },
    async (request) => {
      const { tariff } = app.deps;
      const cot = await requireCotizacion(app, request.body.refId, request);
      const loc = requireLocalidad(app, request.body.codLocation, undefined, '/codLocation');
      const zonaDomicilio = resolveZone(tariff, loc);
      if (zonaDomicilio === cot.zona) return { mismaZona: true, zonaCotizada: cot.zona, zonaDomicilio };
      const codPlan = cot.codPlan ?? Object.entries(tariff.planes).find(([, p]) => p.recomendado)?.[0] ?? Object.keys(tariff.planes)[0];
      const plan = priceOr400(() =>
        ratePlan(tariff, ratingInputDe(cot, { zona: zonaDomicilio, provinciaId: loc.provinciaId }), codPlan, cot.coberturasOpcionales),
      );
      return { mismaZona: false, zonaCotizada: cot.zona, zonaDomicilio, plan };
    },
  );

  app.post<{ Body: Domicilio & { refId: string } }>(
    '/insertar-domicilio',
    {
      schema: {
        tags: ['domicilio'],
        body: ref('domicilio', 'InsertarDomicilioBody'),
        response: responses(ref('domicilio', 'InsertarDomicilioResponse')),
      },
    },
    async (request) => {
      const { refId, ...domicilio } = request.body;
      const errors = erroresDomicilio(app, domicilio);
      if (errors.length > 0) throw validationError(errors);
      await requireCotizacion(app, refId, request);
      const zona = resolveZone(app.deps.tariff, app.deps.lists.localidadesPorId.get(domicilio.codLocation)!);
      return { idDom: await app.deps.repos.domicilios.insert(refId, domicilio, zona) };
    },
  );

  app.post<{ Body: { refId: string; motivo: string } }>(
    '/rechaza-domicilio',
    {
      schema: {
        tags: ['domicilio'],
        body: ref('domicilio', 'RechazaDomicilioBody'),
        response: responses(ref('domicilio', 'RechazaDomicilioResponse')),
      },
    },
    async (request) => {
      await requireCotizacion(app, request.body.refId, request);
      await app.deps.repos.domicilios.insertRechazo(request.body.refId, request.body.motivo);
      return { ok: true };
    },
  );
}
