/**
 * Security headers (@fastify/helmet) with a strict Content-Security-Policy: scripts only from 'self' (no inline,
 * no eval — the web app precompiles its validators), styles from 'self' plus inline style attributes, images from
 * 'self' and data: URIs, XHR/fetch only to 'self'.
 */
import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
};

/** Registers helmet with `CSP_DIRECTIVES`. */
export default fp(async function securityPlugin(app: FastifyInstance) {
  await app.register(helmet, { contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES } });
});
