/**
 * Request bodies are JSON in UTF-8 only (schemas/api/README.md › Conventions; RFC 8259 §8.1): every other media
 * type — text/plain and form encodings included, which Fastify would otherwise parse — and `application/json` with a
 * charset other than UTF-8 answer 415 VALIDACION. A body without a content type is already a 415 in Fastify; a
 * POST without any body is left to the route's schema (400, or `{}` where the route allows it).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** @returns whether the content-type header carries no charset or charset=utf-8 (any case, quoted or not) */
export function isUtf8(contentType: string | undefined): boolean {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return m === null || /^utf-?8$/i.test(m[1]);
}

/** Replaces Fastify's parsers with one for application/json that refuses non-UTF-8 charsets. */
export default fp(async function contentTypePlugin(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request: FastifyRequest, body: string | Buffer, done) => {
    if (!isUtf8(request.headers['content-type'])) {
      done(Object.assign(new Error('Unsupported charset'), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }), undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
});
