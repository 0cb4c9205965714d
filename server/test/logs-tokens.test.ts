/**
 * Signed link tokens never reach the logs. The app logs (pino, as in production) into a stream this
 * test reads; a purchase, the policy PDF through its signed link, and a quote e-mailed and resumed through its link
 * (the web page the link opens and the API call it makes) are driven through the API; then every log line is scanned:
 * neither token (nor its signature) appears, and the request lines still show the path with "[token]" instead.
 */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactarUrl } from '../src/plugins/logging.ts';
import { buildTestApp, cotizarBody, getCsrf, post, recorrerJourney, TARJETA_OK } from './helper.ts';

const lineas: string[] = [];
const stream = new Writable({
  write(chunk: Buffer, _enc, cb) {
    lineas.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    cb();
  },
});
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({ logger: { level: 'info', stream }, publicUrl: 'http://cotizador.test', tramitesPorHora: 1000 });
});
afterAll(async () => {
  await app.close();
});

/** The request URLs of the access log ("incoming request" lines). */
const urls = () =>
  lineas
    .map((l) => JSON.parse(l))
    .filter((l) => l.msg === 'incoming request')
    .map((l) => l.req.url as string);

describe('link tokens in the logs', () => {
  it('the policy PDF link and the resume link appear as [token] in every log line, never whole', async () => {
    // policy: bought, then downloaded through its signed link (also with the token in a query string)
    const { estado } = await recorrerJourney(app, { methodPayment: 'TC', numberPaymentCard: TARJETA_OK });
    expect(estado.estado).toBe('EMITIDA');
    const tokenPoliza = estado.documento as string;
    expect(tokenPoliza).toMatch(/^eyJr[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    const pdf = await app.inject({ method: 'GET', url: `/api/documentos/poliza/${tokenPoliza}?token=${tokenPoliza}` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');

    // quote: e-mailed (kept in the outbox without SMTP), then its link opened in another session
    const csrf = await getCsrf(app);
    const cot = (await post(app, '/api/cotizacion/cotizar', cotizarBody({ email: 'beto@example.com' }), csrf)).json();
    const env = await post(
      app,
      '/api/cotizacion/enviar',
      { refId: cot.refId, respuestas: { metros: { metros: 80 } }, versionFlujo: 2 },
      csrf,
    );
    expect(env.statusCode).toBe(200);
    const [correo] = await app.deps.db.query<{ texto: string }>("SELECT texto FROM correos WHERE para = 'beto@example.com'");
    const tokenCotizacion = (correo.texto.match(/http:\/\/cotizador\.test\/[\w/-]*\?retomar=([A-Za-z0-9_.-]+)/) as RegExpMatchArray)[1];
    const otro = await getCsrf(app);
    await app.inject({ method: 'GET', url: `/?retomar=${tokenCotizacion}&utm_source=mail`, headers: { cookie: otro.cookie } });
    const ret = await post(app, '/api/cotizacion/retomar', { token: tokenCotizacion }, otro);
    expect(ret.statusCode).toBe(200);
    expect(ret.json().versionFlujo).toBe(2);
    // a tampered token (an error answer) and a token in a logged object or message
    expect((await post(app, '/api/cotizacion/retomar', { token: `${tokenCotizacion.slice(0, -3)}abc` }, otro)).statusCode).toBe(404);
    app.log.info({ body: { token: tokenCotizacion }, nota: `enlace ${tokenPoliza}` }, `retomada con ${tokenCotizacion}`);

    const todo = lineas.join('\n');
    expect(lineas.length).toBeGreaterThan(40);
    for (const t of [tokenPoliza, tokenCotizacion]) {
      expect(todo).not.toContain(t);
      expect(todo).not.toContain(t.split('.')[1]); // not even the signature
    }
    expect(urls()).toContain('/api/documentos/poliza/[token]?token=[token]');
    expect(urls()).toContain('/?retomar=[token]&utm_source=mail');
    expect(urls().filter((u) => u === '/api/cotizacion/retomar')).toHaveLength(2);
    const propia = lineas.map((l) => JSON.parse(l)).find((l) => typeof l.msg === 'string' && l.msg.startsWith('retomada con'));
    expect(propia).toMatchObject({ msg: 'retomada con [token]', body: { token: '[Redacted]' }, nota: 'enlace [token]' });
  }); // a whole purchase: slow on a busy machine

  it('redactarUrl keeps the rest of the URL as it was', () => {
    expect(redactarUrl('/api/documentos/poliza/no-es-un-token')).toBe('/api/documentos/poliza/[token]');
    expect(redactarUrl('/api/documentos/cotizacion/7d1c')).toBe('/api/documentos/cotizacion/7d1c');
    expect(redactarUrl('/?a=1&retomar=abc.def&b=2')).toBe('/?a=1&retomar=[token]&b=2');
    expect(redactarUrl('/datos?x=eyJrIjoicG9saXphIn0.AAAAAAAAAAAAAAAAAAAAAA')).toBe('/datos?x=[token]');
    expect(redactarUrl('/api/health/live')).toBe('/api/health/live');
  });
});
