/**
 * What routes may use, decorated on the Fastify instance as `app.deps` (fastify/demo's "app" plugin layer):
 * database, repositories, reference lists, tariff, payment vault, emission service and runtime settings.
 */
import type { Db } from './db/index.ts';
import type { Repositories } from './db/repositories/index.ts';
import type { EmissionService } from './domain/emission/service.ts';
import type { Lists } from './domain/lists/index.ts';
import type { CorreoService } from './domain/correo/outbox.ts';
import type { Tokens } from './domain/postventa/tokens.ts';
import type { Vault } from './domain/payment/vault.ts';
import type { Tariff } from './domain/rating/tariff.ts';

export interface Settings {
  /** GET /api/chat/habilitar: chat on ('C') or off ('D'); WhatsApp number in international format without '+'. */
  chat: { habilitado: boolean; telefono: string };
  /** GET /api/grabador: whether the journey recorder may run on a production build (GRABADOR=1 on a development server). */
  grabador: boolean;
  /** Maximum quotes per IP per hour: enforced by cotizar, reported by POST /api/recaptcha/evaluar-ip. */
  cotizacionesPorHoraPorIp: number;
  /** Secure attribute of every cookie: 'auto' = when the trusted protocol is https (config COOKIE_SECURE). */
  cookieSecure: 'auto' | true;
}

/** Process lifecycle seen by the routes: `cerrando` from SIGTERM on (readiness answers 503 while draining). */
export interface Lifecycle {
  cerrando: boolean;
}

export interface AppDeps {
  db: Db;
  repos: Repositories;
  lists: Lists;
  tariff: Tariff;
  vault: Vault;
  emision: EmissionService;
  /** E-mail outbox worker (issue 8). */
  correo: CorreoService;
  /** Signed, expiring link tokens (policy download, resume a quote). */
  tokens: Tokens;
  settings: Settings;
  lifecycle: Lifecycle;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}
