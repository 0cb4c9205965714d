/**
 * OpenAPI 3 document built from the route schemas (@fastify/swagger) at GET /api/docs/json, and Swagger UI at
 * GET /api/docs (@fastify/swagger-ui; its assets are files, so the strict CSP holds).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/** Registers @fastify/swagger (OpenAPI 3.0.3, components named `<area>-<Def>`) and Swagger UI at /api/docs. */
export default fp(async function swaggerPlugin(app: FastifyInstance, opts: { version: string }) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Cotizador Hogar — API de referencia',
        description:
          'Cotización y contratación de seguro de hogar (es-AR). Contrato: schemas/api/README.md. Todo POST requiere el header x-xsrf-token (GET /api/set-csrf).',
        version: opts.version,
      },
      tags: [
        { name: 'csrf' },
        { name: 'chat' },
        { name: 'listas' },
        { name: 'cotizacion' },
        { name: 'salesforce' },
        { name: 'domicilio' },
        { name: 'pagos' },
        { name: 'emision' },
        { name: 'recaptcha' },
        { name: 'antibot' },
        { name: 'logs' },
        { name: 'embudo' },
        { name: 'vista-previa' },
      ],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id.replace(/\.json$/, '') : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
});
