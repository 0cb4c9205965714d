/**
 * Security headers (@fastify/helmet) with a strict Content-Security-Policy: scripts only from 'self' (no eval — the
 * web app precompiles its validators — and no inline script but the prerendered pages' loader, allowed by its
 * SHA-256: `<staticDir>/arranque.js`, which scripts/prerender/ inlines byte for byte), styles from 'self' plus inline
 * styles, images from 'self' and data: URIs, XHR/fetch only to 'self'.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** CSP source of an inline script: `'sha256-<base64>'` of its exact text. */
export function scriptHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** Registers helmet with `CSP_DIRECTIVES`, plus the hash of the built app's inline loader when `staticDir` has it. */
export default fp(async function securityPlugin(app: FastifyInstance, opts: { staticDir?: string }) {
  const loader = opts.staticDir ? join(opts.staticDir, 'arranque.js') : undefined;
  const scriptSrc = loader && existsSync(loader) ? [...CSP_DIRECTIVES.scriptSrc, scriptHash(readFileSync(loader, 'utf8'))] : CSP_DIRECTIVES.scriptSrc;
  await app.register(helmet, { contentSecurityPolicy: { useDefaults: false, directives: { ...CSP_DIRECTIVES, scriptSrc } } });
});
