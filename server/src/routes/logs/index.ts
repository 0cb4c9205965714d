/**
 * POST /api/logs/insertar-log-ok — business log from the web app (e.g. the campaign click log, SPEC §7/§9).
 * Every text field — request/response included, objects serialised to JSON — is stored with card-like and CBU-like
 * numbers masked (domain/pagos/enmascarar.ts; the schema already masked each string, this is the last look at the
 * serialised text). request/response are capped by the schema (4000 characters, 10 levels).
 */
import type { FastifyInstance } from 'fastify';
import type { LogNuevo } from '../../db/repositories/logs.ts';
import { enmascararNumerosDePago } from '../../domain/pagos/enmascarar.ts';
import { ref, responses } from '../shared.ts';

type LogBody = Omit<LogNuevo, 'request' | 'response'> & { request?: unknown; response?: unknown };

/** Serialises (objects → JSON) and masks payment-like numbers: "4242 4242 4242 4242" → "••••4242". */
export function redactarNumeros(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return enmascararNumerosDePago(typeof value === 'string' ? value : JSON.stringify(value));
}

/** Registers POST /insertar-log-ok (mounted at /api/logs). */
export default async function logsRoutes(app: FastifyInstance) {
  app.post<{ Body: LogBody }>(
    '/insertar-log-ok',
    { schema: { tags: ['logs'], body: ref('logs', 'InsertarLogBody'), response: responses(ref('common', 'Ok')) } },
    async (request) => {
      const { request: req, response: res, ...rest } = request.body;
      const id = await app.deps.repos.logs.insert({ ...rest, request: redactarNumeros(req), response: redactarNumeros(res) });
      return { ok: true, id };
    },
  );
}
