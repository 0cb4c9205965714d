/**
 * `Idempotency-Key` on every POST under /api (IETF draft-ietf-httpapi-idempotency-key-header):
 * the first request with a key runs and, when it answers 2xx, its status and body are stored in the database
 * (table `idempotencia`, per visitor session and key, so any instance can answer); a repeat with the same key and
 * the same route and body gets that first answer again, with header `Idempotent-Replayed: true`. The same key
 * with another route or body → 409 CONFLICTO. A repeat that arrives while the first is still running waits for it
 * (up to {@link ESPERA_MS}) and then answers the same; a non-2xx first answer frees the key for a retry.
 * The body fingerprint is an HMAC (server secret), so a stored fingerprint never reveals what was sent.
 */
import { createHmac } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { idempotenciaRepository } from '../db/repositories/idempotencia.ts';
import { ApiError, validationError } from '../errors.ts';
import { mensaje } from '../../../src/core/messages.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
/** 1–255 visible ASCII characters (a UUID is the usual choice). */
const KEY = /^[\x21-\x7E]{1,255}$/;
/** How long a repeat waits for the first request with its key to finish, ms. */
export const ESPERA_MS = 10_000;
export const MENSAJE_CLAVE_INVALIDA = mensaje('servidor.claveInvalida');
export const MENSAJE_CLAVE_OTROS_DATOS = mensaje('servidor.claveOtrosDatos');
export const MENSAJE_CLAVE_EN_CURSO = mensaje('servidor.claveEnCurso');

declare module 'fastify' {
  interface FastifyRequest {
    /** Set while this request owns an Idempotency-Key. */
    idempotencia?: { clave: string };
  }
}

/**
 * Installs the hooks on `app` (register inside the /api scope, after the session plugin).
 * @param opts.secret HMAC key for body fingerprints (same on every instance)
 */
export default fp(async function idempotencyPlugin(app: FastifyInstance, opts: { secret: Buffer }) {
  const repo = () => idempotenciaRepository(app.deps.db);

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST') return;
    const raw = request.headers[IDEMPOTENCY_HEADER];
    if (raw === undefined) return;
    const clave = Array.isArray(raw) ? raw[0] : raw;
    if (!KEY.test(clave)) throw validationError([{ field: `/headers/${IDEMPOTENCY_HEADER}`, message: MENSAJE_CLAVE_INVALIDA }]);
    const ruta = request.routeOptions.url ?? request.url;
    const huella = createHmac('sha256', opts.secret)
      .update(`${ruta}\n${JSON.stringify(request.body ?? null)}`)
      .digest('hex');
    const deadline = Date.now() + ESPERA_MS;
    for (;;) {
      if (await repo().reservar(request.sesion, clave, ruta, huella)) {
        request.idempotencia = { clave };
        return;
      }
      const previa = await repo().get(request.sesion, clave);
      if (!previa) continue; // the first request failed and freed the key meanwhile: claim it
      if (previa.ruta !== ruta || previa.huella !== huella) throw new ApiError(409, 'CONFLICTO', MENSAJE_CLAVE_OTROS_DATOS);
      if (previa.estadoHttp > 0 && previa.respuesta !== null) {
        reply.header(REPLAYED_HEADER, 'true').code(previa.estadoHttp).type('application/json; charset=utf-8');
        return reply.send(previa.respuesta);
      }
      if (Date.now() > deadline) throw new ApiError(409, 'CONFLICTO', MENSAJE_CLAVE_EN_CURSO);
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const idem = request.idempotencia;
    if (!idem) return payload;
    request.idempotencia = undefined;
    if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string') {
      await repo().completar(request.sesion, idem.clave, reply.statusCode, payload);
    } else {
      await repo().liberar(request.sesion, idem.clave);
    }
    return payload;
  });
});
