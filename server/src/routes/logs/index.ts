/**
 * POST /api/logs/insertar-log-ok — business log from the web app (e.g. the campaign click log, SPEC §7/§9).
 * request/response are stored as text (objects serialised to JSON) after masking any run of 13–22 digits
 * (card numbers, CBUs) so that no payment number reaches the database.
 */
import type { FastifyInstance } from 'fastify';
import type { LogNuevo } from '../../db/repositories/logs.ts';
import { ref, responses } from '../shared.ts';

type LogBody = Omit<LogNuevo, 'request' | 'response'> & { request?: unknown; response?: unknown };

/** Serialises and masks payment-like numbers: "4242424242424242" → "••••4242". */
export function redactarNumeros(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.replace(/\d(?:[ -]?\d){12,21}/g, (m) => `••••${m.replace(/\D/g, '').slice(-4)}`);
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
