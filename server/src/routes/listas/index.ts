/**
 * GET /api/listas/* — reference lists (schemas/api/README.md › Reference lists): fixed catalogues, the m² bands of
 * the tariff, and INDEC provinces / departments / localities (server/data/ar). Cacheable for a day.
 */
import type { FastifyInstance } from 'fastify';
import * as catalogos from '../../domain/listas/catalogos.ts';
import { notFound } from '../../errors.ts';
import { ref, responses } from '../shared.ts';
import { mensaje } from '../../../../src/core/messages.ts';

const FIJOS = {
  '/nacionalidades': catalogos.NACIONALIDADES,
  '/estadosCivil': catalogos.ESTADOS_CIVILES,
};

/** Registers the list routes (mounted at /api/listas). */
export default async function listasRoutes(app: FastifyInstance) {
  app.addHook('onSend', async (_request, reply) => {
    if (reply.statusCode === 200) reply.header('cache-control', 'public, max-age=86400');
  });

  // the flow's own catalogues: the step schemas' options (app.deps.catalogos), then the fixed ones
  for (const [path, campo] of Object.entries(catalogos.CATALOGOS_DEL_FLUJO)) {
    app.get(path, { schema: { tags: ['listas'], response: responses(ref('listas', 'Items')) } }, async () => app.deps.catalogos[campo]);
  }
  for (const [path, items] of Object.entries(FIJOS)) {
    app.get(path, { schema: { tags: ['listas'], response: responses(ref('listas', 'Items')) } }, async () => items);
  }

  app.get(
    '/metros',
    { schema: { tags: ['listas'], response: responses(ref('listas', 'Metros')) } },
    async () => app.deps.tariff.superficie,
  );

  app.get(
    '/provincias',
    { schema: { tags: ['listas'], response: responses(ref('listas', 'Provincias')) } },
    async () => app.deps.lists.provincias,
  );

  app.get<{ Querystring: { id: string } }>(
    '/provincia',
    { schema: { tags: ['listas'], querystring: ref('listas', 'ProvinciaQuery'), response: responses(ref('listas', 'ProvinciaDetalle')) } },
    async (request) => {
      const { lists } = app.deps;
      const provincia = lists.provinciasPorId.get(request.query.id);
      if (!provincia) throw notFound(mensaje('servidor.provinciaNoEncontrada'));
      const departamentos = (lists.departamentosPorProvincia.get(provincia.id) ?? []).map(({ id, nombre }) => ({ id, nombre }));
      return { ...provincia, departamentos };
    },
  );

  app.get<{ Querystring: { provincia?: string; q?: string; limit: number } }>(
    '/localidades',
    { schema: { tags: ['listas'], querystring: ref('listas', 'LocalidadesQuery'), response: responses(ref('listas', 'Localidades')) } },
    async (request) => app.deps.lists.buscarLocalidades(request.query),
  );
}
