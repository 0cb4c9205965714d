/**
 * Development pages, registered only when the server is explicitly in development (`devPages`: NODE_ENV=development
 * or test) and answering only clients on this machine — a direct loopback connection with no forwarding header, so
 * a reverse proxy on the same host does not open them to the network (anything else: 404, as if absent). They show
 * what the botón de baja asks for (policy number, DNI, e-mail), so they must never be reachable by strangers:
 * - GET /dev/correo                    the outbox, newest first: what was (or, without SMTP_URL, would have been) sent;
 * - GET /dev/correo/:id/adjunto/:n     an attachment as it is rendered for sending;
 * - GET /dev/poliza/:numSecuPol        a policy's state and requests (JSON), for local checks and the e2e tests.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { correosRepository } from '../../db/repositories/correos.ts';
import { polizasRepository } from '../../db/repositories/polizas.ts';
import { tramitesRepository } from '../../db/repositories/tramites.ts';
import { notFound } from '../../errors.ts';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const POLIZA = /^HOG-[0-9]{4}-[0-9]{6,9}$/;

/**
 * True when the request comes straight from this machine: the socket's peer is a loopback address and no proxy
 * forwarded it (`X-Forwarded-For` / `Forwarded` present → false, whatever TRUST_PROXY says).
 */
export function esClienteLocal(request: FastifyRequest): boolean {
  if (request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined) return false;
  return LOOPBACK.test(request.socket.remoteAddress ?? '');
}

/** Registers the development routes (mounted at /api). */
export default async function devRoutes(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    if (!esClienteLocal(request)) throw notFound();
  });

  app.get('/dev/correo', { schema: { hide: true } }, async (_request, reply) => {
    const correos = await correosRepository(app.deps.db).ultimos(50);
    const items = correos.map(
      (c) => `
      <article>
        <h2>${esc(c.asunto)}</h2>
        <p class="meta">Para <b>${esc(c.para)}</b> · ${esc(c.tipo)} · creado ${esc(c.creadoEn)} · estado <b>${esc(c.estado)}</b>${c.enviadoEn ? ` (${esc(c.enviadoEn)})` : ''} · intentos ${c.intentos}${c.ultimoError ? ` · último error: ${esc(c.ultimoError)}` : ''}</p>
        <pre>${esc(c.texto)}</pre>
        ${c.adjuntos.map((a, i) => `<p>📎 <a href="/api/dev/correo/${c.id}/adjunto/${i}">${a.tipo === 'poliza' ? `Póliza ${esc(a.numSecuPol)} (PDF)` : 'Cotización (PDF)'}</a></p>`).join('')}
      </article>`,
    );
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store')
      .send(`<!doctype html><html lang="es-AR"><head><meta charset="utf-8"><title>Correo (desarrollo)</title>
<style>body{font-family:system-ui,sans-serif;max-width:900px;margin:2rem auto;padding:0 1rem;color:#1f2933}article{border:1px solid #d5dbe3;border-radius:8px;padding:1rem;margin:1rem 0}h2{font-size:1.1rem;margin:0 0 .3rem}.meta{color:#5b6675;font-size:.9rem}pre{white-space:pre-wrap;background:#f1f5f9;padding:.8rem;border-radius:6px}</style></head>
<body><h1>Correo saliente (solo desarrollo)</h1><p>Los e-mails que la API envió o, sin <code>SMTP_URL</code>, habría enviado. Los últimos 50.</p>${items.join('') || '<p>Todavía no hay e-mails.</p>'}</body></html>`);
  });

  app.get<{ Params: { id: string; n: string } }>('/dev/correo/:id/adjunto/:n', { schema: { hide: true } }, async (request, reply) => {
    if (!UUID.test(request.params.id) || !/^[0-9]{1,3}$/.test(request.params.n)) throw notFound();
    const c = await correosRepository(app.deps.db).get(request.params.id);
    const a = c?.adjuntos[Number(request.params.n)];
    if (!a) throw notFound();
    const adj = await app.postventa.adjunto(a);
    return reply.type(adj.contentType).header('content-disposition', `inline; filename="${adj.filename}"`).send(adj.content);
  });

  app.get<{ Params: { numSecuPol: string } }>('/dev/poliza/:numSecuPol', { schema: { hide: true } }, async (request) => {
    if (!POLIZA.test(request.params.numSecuPol)) throw notFound();
    const p = await polizasRepository(app.deps.db).estado(request.params.numSecuPol);
    if (!p) throw notFound();
    const tramites = await tramitesRepository(app.deps.db).delPoliza(request.params.numSecuPol);
    return { ...p, tramites };
  });
}
