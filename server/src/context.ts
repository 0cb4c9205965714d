/**
 * What routes may use, decorated on the Fastify instance as `app.deps` (fastify/demo's "app" plugin layer):
 * database, repositories, reference lists, tariff, payment vault, emission service and runtime settings.
 */
import type { Settings } from './config.ts';
import type { Db } from './db/index.ts';
import type { Repositories } from './db/repositories/index.ts';
import type { EmisionService } from './domain/emision/service.ts';
import type { Catalogos } from './domain/listas/catalogos.ts';
import type { Lists } from './domain/listas/index.ts';
import type { Metrics } from './domain/metrics/index.ts';
import type { CorreoService } from './domain/correo/outbox.ts';
import type { Tokens } from './domain/postventa/tokens.ts';
import type { Vault } from './domain/pagos/vault.ts';
import type { Tariff } from './domain/rating/tariff.ts';
import type { RevalidarFechas } from './plugins/revalidar.ts';

export type { Settings } from './config.ts';

/** Process lifecycle seen by the routes: `cerrando` from SIGTERM on (readiness answers 503 while draining). */
export interface Lifecycle {
  cerrando: boolean;
}

export interface AppDeps {
  db: Db;
  repos: Repositories;
  lists: Lists;
  /** The flow's catalogues (codes from the step schemas' enums, descriptions from es.json; domain/listas/catalogos.ts). */
  catalogos: Catalogos;
  tariff: Tariff;
  vault: Vault;
  emision: EmisionService;
  /** E-mail outbox worker (policy, quote and request e-mails survive a restart or an SMTP outage). */
  correo: CorreoService;
  /** Signed, expiring link tokens (policy download, resume a quote). */
  tokens: Tokens;
  settings: Settings;
  lifecycle: Lifecycle;
  /** This instance's Prometheus metrics (domain/metrics): counters to move where facts happen. */
  metrics: Metrics;
  /** URL of the metrics-only server (METRICS_PORT), when it runs. */
  metricsUrl?: string;
  /** Stored quote answers against today's date keywords (plugins/revalidar.ts). */
  revalidarFechas: RevalidarFechas;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}
