/**
 * The API's settings, in one place (server/README.md › Variables lists the same table):
 * - `DEFAULTS`: every default value, the only copy — the environment, `build()` and the services fall back to it;
 * - `readConfig(env)` validates every variable and throws a Spanish message naming the variable when one is wrong, so
 *   a misconfigured instance refuses to start instead of running unsafe (e.g. TRUST_PROXY=true);
 * - `resolveAppConfig(opts)` completes the partial options of `build()` (tests, tools) into the `AppConfig` it runs with.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { FastifyServerOptions } from 'fastify';
import type { Db } from './db/types.ts';
import { parseCotizacionesExentas } from './plugins/exentas.ts';

/** The repository's root: default files and folders are relative to it. */
const REPO_DIR = join(import.meta.dirname, '../..');

/** Every default of the API's settings (the environment variable of each: server/README.md › Variables). */
export const DEFAULTS = {
  port: 3000,
  /** Loopback unless told otherwise (see readConfig). */
  host: '127.0.0.1',
  logLevel: 'info',
  /** Relative to the repository root. */
  rutas: {
    dataDir: 'data',
    staticDir: 'dist',
    schemasDir: 'schemas',
    tariffFile: 'server/tariffs/2026-11.json',
    listsDir: 'server/data/ar',
  },
  /** Requests per minute per IP under /api; funnel batches per minute per IP; quotes per hour per IP. */
  rateLimitMax: 300,
  embudoLotesPorMinuto: 120,
  cotizacionesPorHoraPorIp: 30,
  chat: { habilitado: true, telefono: '5491100000000' },
  /** Emission worker, ms: the payment entity's stand-in answer, polling, claim lease, first retry delay; attempts. */
  emision: { delayMs: 800, pollMs: 250, leaseMs: 30_000, retryBaseMs: 1_000, maxIntentos: 10 },
  retention: { logsDias: 90, cotizacionesDias: 30, intervaloMs: 3_600_000 },
  /** PostgreSQL pool size and timeouts, ms. */
  db: { max: 10, connectTimeoutMs: 5_000, statementTimeoutMs: 15_000, idleTimeoutMs: 30_000 },
  /** How long a close waits for emission jobs in progress before handing them back, ms. */
  shutdownTimeoutMs: 10_000,
  /** Metrics-only server's address; how long a scrape waits for the database gauges, ms. */
  metrics: { host: '127.0.0.1', dbTimeoutMs: 1_000 },
  /** Proof of work: largest counter, challenge lifetime (s); reCAPTCHA Enterprise: API base, lowest score, timeout (ms). */
  antibot: {
    activo: true,
    dificultad: 50_000,
    vidaSeg: 1800,
    recaptcha: { url: 'https://recaptchaenterprise.googleapis.com', umbral: 0.5, timeoutMs: 5_000 },
  },
  postventa: {
    mailFrom: 'Hogar Protegido Seguros <polizas@hogarprotegido.example>',
    tramitesPorHora: 10,
    tramitesPorPolizaPorHora: 5,
    retomarPorEnlacePorHora: 5,
    /** Outbox worker (domain/correo/outbox.ts), ms; messages sent at once by one instance. */
    correo: {
      pollMs: 1_000,
      leaseMs: 60_000,
      smtpTimeoutMs: 30_000,
      retryBaseMs: 5_000,
      maxBackoffMs: 3_600_000,
      vidaMaxMs: 72 * 3_600_000,
      concurrencia: 5,
    },
  },
  /**
   * Where `build()` without an environment differs from a served instance: the anti-bot check is off (tests and tools
   * call cotizar directly; main.ts follows ANTIBOT, default on) and so are the development pages (main.ts: NODE_ENV).
   */
  sinEntorno: { antibotActivo: false, devPages: false },
} as const;

/** Runtime settings the routes read (`app.deps.settings`). */
export interface Settings {
  /** GET /api/chat/habilitar: chat on ('C') or off ('D'); WhatsApp number in international format without '+'. */
  chat: { habilitado: boolean; telefono: string };
  /** GET /api/grabador: whether the journey recorder may run on a production build (GRABADOR=1 on a development server). */
  grabador: boolean;
  /** GET /api/vista-previa: whether the staff preview opens on a production build (VISTA_PREVIA=1). */
  vistaPrevia: boolean;
  /** Maximum quotes per IP per hour: enforced by cotizar, reported by POST /api/recaptcha/evaluar-ip. */
  cotizacionesPorHoraPorIp: number;
  /** Secure attribute of every cookie: 'auto' = when the trusted protocol is https (config COOKIE_SECURE). */
  cookieSecure: 'auto' | true;
}

/** reCAPTCHA Enterprise (POST /api/recaptcha/evaluate; domain/antibot/recaptcha.ts). */
export interface RecaptchaConfig {
  /** Google Cloud project id. */
  proyecto: string;
  /** The site key the page's token was made with. */
  siteKey: string;
  /** API key allowed to call the assessments API. */
  apiKey: string;
  /** Base URL (tests point it at a local stand-in). */
  url: string;
  /** Lowest score accepted, 0–1. */
  umbral: number;
  /** How long one assessment may take, ms. */
  timeoutMs: number;
}

/** The outbox worker's timings, ms, and how many messages one instance sends at once (domain/correo/outbox.ts). */
export interface CorreoConfig {
  /** Between rounds when idle. */
  pollMs: number;
  /** Claim lease; must exceed `smtpTimeoutMs`. */
  leaseMs: number;
  /** Bound of every SMTP wait (connect + greeting, each answer). */
  smtpTimeoutMs: number;
  /** First retry delay, doubled per attempt up to `maxBackoffMs`. */
  retryBaseMs: number;
  maxBackoffMs: number;
  /** Age (since queued) after which a failure makes the message a dead letter (FALLIDO). */
  vidaMaxMs: number;
  concurrencia: number;
}

/** Everything `build()` runs with, every value decided (`resolveAppConfig` fills what `BuildOptions` leaves out). */
export interface AppConfig {
  /** Database (owned by the app: closed on `app.close()`); absent → a fresh in-memory PGlite. */
  db?: Db;
  /** Fastify logger option (false: off). Payment numbers, link tokens, cookies and the CSRF header are always redacted. */
  logger: FastifyServerOptions['logger'];
  /** Built web app to serve at `/` with SPA fallback (absent, or without index.html: none). */
  staticDir?: string;
  /** Emission worker, ms: the payment entity's stand-in answer, polling, claim lease, first retry delay; attempts. */
  emision: { delayMs: number; pollMs: number; leaseMs: number; retryBaseMs: number; maxIntentos: number };
  /** How long `close()` waits for emission jobs in progress before handing them back, ms. */
  shutdownTimeoutMs: number;
  /** Retention (days) and how often it runs (ms). */
  retention: { logsDias: number; cotizacionesDias: number; intervaloMs: number };
  /** AES-256 key for payment numbers, 32 bytes. */
  paymentKey: Buffer;
  /** Link-token key (≥ 32 bytes). */
  linkKey: Buffer;
  tariffFile: string;
  /** Step schemas + `api/` wire schemas. */
  schemasDir: string;
  /** The reference lists' CSV folder. */
  listsDir: string;
  /** Client addresses or subnets exempt from the hourly quote limit (plugins/exentas.ts). */
  cotizacionesExentas: string[];
  /** Requests per minute per IP under /api before 429. */
  rateLimitMax: number;
  /** Funnel batches (POST /api/embudo/eventos) per minute per IP before 429. */
  embudoLotesPorMinuto: number;
  /** Trusted reverse proxies: false, a hop count or addresses (parseTrustProxy). */
  trustProxy: false | number | string[];
  settings: Settings;
  /** After the sale: public URL for e-mailed links (no trailing slash), SMTP (absent: outbox only), sender, hourly bounds. */
  postventa: {
    publicUrl: string;
    smtpUrl?: string;
    mailFrom: string;
    tramitesPorHora: number;
    /** Withdrawal/cancellation requests per policy number, and lookups per tracking code, per hour. */
    tramitesPorPolizaPorHora: number;
    /** Resumes of one e-mailed quote link per hour; each also counts on the address's quote limit. */
    retomarPorEnlacePorHora: number;
    correo: CorreoConfig;
  };
  /** The development pages (/api/dev/*, loopback clients only: routes/dev). */
  devPages: boolean;
  /**
   * Prometheus metrics (plugins/metrics.ts): `port` starts a metrics-only server on `host` (0 = any free port),
   * `token` serves GET /api/metrics behind `Authorization: Bearer <token>`; neither → kept but not served.
   * `dbTimeoutMs`: how long a scrape waits for the database gauges.
   */
  metrics: { port?: number; host: string; token?: string; dbTimeoutMs: number };
  /**
   * Anti-bot check (domain/antibot): `activo` → cotizar refuses a quote without a solved, unexpired, unused
   * proof-of-work challenge (400, servidor.antibotInvalido). `clave`: HMAC secret, the same on every instance;
   * `dificultad`: largest counter; `vidaSeg`: challenge lifetime, s; `recaptcha`: absent → the stand-in that accepts any token.
   */
  antibot: { activo: boolean; clave: string; dificultad: number; vidaSeg: number; recaptcha?: RecaptchaConfig };
}

/**
 * What a caller of `build()` may set (tests, tools, main.ts); anything left out takes its value from {@link DEFAULTS}
 * (keys: random per process, fine for tests only).
 */
export interface BuildOptions {
  db?: Db;
  logger?: FastifyServerOptions['logger'];
  staticDir?: string;
  emisionDelayMs?: number;
  emisionPollMs?: number;
  emisionLeaseMs?: number;
  emisionRetryBaseMs?: number;
  emisionMaxIntentos?: number;
  shutdownTimeoutMs?: number;
  retention?: AppConfig['retention'];
  paymentKey?: Buffer;
  tariffFile?: string;
  schemasDir?: string;
  listsDir?: string;
  cotizacionesExentas?: string[];
  rateLimitMax?: number;
  embudoLotesPorMinuto?: number;
  trustProxy?: false | number | string[];
  settings?: Partial<Settings>;
  linkKey?: Buffer;
  publicUrl?: string;
  smtpUrl?: string;
  mailFrom?: string;
  correo?: Partial<CorreoConfig>;
  tramitesPorHora?: number;
  tramitesPorPolizaPorHora?: number;
  retomarPorEnlacePorHora?: number;
  devPages?: boolean;
  metrics?: Partial<AppConfig['metrics']>;
  /** `clave` defaults to one derived from the link key (the same on every instance sharing it). */
  antibot?: Partial<Omit<AppConfig['antibot'], 'recaptcha'>> & {
    recaptcha?: Pick<RecaptchaConfig, 'proyecto' | 'siteKey' | 'apiKey'> & Partial<RecaptchaConfig>;
  };
}

/** `o` without its undefined values (so that `{ ...defaults, ...sinIndefinidos(o) }` keeps a default an option leaves undefined). */
function sinIndefinidos<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Completes the options of `build()` with {@link DEFAULTS}.
 * @returns the complete configuration (fresh random payment and link keys when none is given)
 */
export function resolveAppConfig(opts: BuildOptions = {}): AppConfig {
  const D = DEFAULTS;
  const linkKey = opts.linkKey ?? randomBytes(32);
  const a = opts.antibot ?? {};
  return {
    db: opts.db,
    logger: opts.logger ?? false,
    staticDir: opts.staticDir,
    emision: {
      delayMs: opts.emisionDelayMs ?? D.emision.delayMs,
      pollMs: opts.emisionPollMs ?? D.emision.pollMs,
      leaseMs: opts.emisionLeaseMs ?? D.emision.leaseMs,
      retryBaseMs: opts.emisionRetryBaseMs ?? D.emision.retryBaseMs,
      maxIntentos: opts.emisionMaxIntentos ?? D.emision.maxIntentos,
    },
    shutdownTimeoutMs: opts.shutdownTimeoutMs ?? D.shutdownTimeoutMs,
    retention: opts.retention ?? { ...D.retention },
    paymentKey: opts.paymentKey ?? randomBytes(32),
    linkKey,
    tariffFile: opts.tariffFile ?? join(REPO_DIR, D.rutas.tariffFile),
    schemasDir: opts.schemasDir ?? join(REPO_DIR, D.rutas.schemasDir),
    listsDir: opts.listsDir ?? join(REPO_DIR, D.rutas.listsDir),
    cotizacionesExentas: opts.cotizacionesExentas ?? [],
    rateLimitMax: opts.rateLimitMax ?? D.rateLimitMax,
    embudoLotesPorMinuto: opts.embudoLotesPorMinuto ?? D.embudoLotesPorMinuto,
    trustProxy: opts.trustProxy ?? false,
    settings: {
      chat: { ...D.chat, ...opts.settings?.chat },
      grabador: opts.settings?.grabador ?? false,
      vistaPrevia: opts.settings?.vistaPrevia ?? false,
      cotizacionesPorHoraPorIp: opts.settings?.cotizacionesPorHoraPorIp ?? D.cotizacionesPorHoraPorIp,
      cookieSecure: opts.settings?.cookieSecure ?? 'auto',
    },
    postventa: {
      publicUrl: (opts.publicUrl ?? `http://localhost:${D.port}`).replace(/\/+$/, ''),
      smtpUrl: opts.smtpUrl,
      mailFrom: opts.mailFrom ?? D.postventa.mailFrom,
      tramitesPorHora: opts.tramitesPorHora ?? D.postventa.tramitesPorHora,
      tramitesPorPolizaPorHora: opts.tramitesPorPolizaPorHora ?? D.postventa.tramitesPorPolizaPorHora,
      retomarPorEnlacePorHora: opts.retomarPorEnlacePorHora ?? D.postventa.retomarPorEnlacePorHora,
      correo: { ...D.postventa.correo, ...sinIndefinidos(opts.correo) },
    },
    devPages: opts.devPages ?? D.sinEntorno.devPages,
    metrics: { host: D.metrics.host, dbTimeoutMs: D.metrics.dbTimeoutMs, ...sinIndefinidos(opts.metrics) },
    antibot: {
      activo: a.activo ?? D.sinEntorno.antibotActivo,
      clave: a.clave ?? createHmac('sha256', linkKey).update('antibot').digest('hex'),
      dificultad: a.dificultad ?? D.antibot.dificultad,
      vidaSeg: a.vidaSeg ?? D.antibot.vidaSeg,
      recaptcha: a.recaptcha
        ? {
            ...a.recaptcha,
            url: a.recaptcha.url ?? D.antibot.recaptcha.url,
            umbral: a.recaptcha.umbral ?? D.antibot.recaptcha.umbral,
            timeoutMs: a.recaptcha.timeoutMs ?? D.antibot.recaptcha.timeoutMs,
          }
        : undefined,
    },
  };
}

export interface Config {
  port: number;
  host: string;
  /** PostgreSQL URL; undefined → PGlite in `dataDir/pglite` (one process only). */
  databaseUrl?: string;
  dataDir: string;
  staticDir: string;
  /** Step schemas + `api/` wire schemas the API validates with (a copy of `schemas/` when testing a flow edit). */
  schemasDir: string;
  /** Tariff file (rating factors, plans, coverages, taxes). */
  tariffFile: string;
  paymentKeyHex?: string;
  logLevel: string;
  /**
   * Fastify `trustProxy`: false (default: X-Forwarded-* ignored), a hop count (the client is the address the
   * nearest N proxies saw) or a list of trusted proxy addresses/CIDRs. Never `true` (any client could pick its IP).
   */
  trustProxy: false | number | string[];
  /** `Secure` cookie attribute: 'auto' = when the (trusted) protocol is https; true = always. */
  cookieSecure: 'auto' | true;
  rateLimitMax: number;
  /** Funnel batches (POST /api/embudo/eventos) per minute per IP. */
  embudoLotesPorMinuto: number;
  cotizacionesPorHoraPorIp: number;
  /** COTIZACIONES_EXENTAS: client addresses/subnets without the hourly quote limit (plugins/exentas.ts). */
  cotizacionesExentas: string[];
  chat: { habilitado: boolean; telefono: string };
  /**
   * The server is explicitly in development (NODE_ENV=development, or test for the test suites): only then do the
   * development pages (/api/dev/*) exist, answering loopback clients only, and may GRABADOR switch on the recorder.
   */
  desarrollo: boolean;
  /** GRABADOR=1 on a development server: the journey recorder (`?grabar=1`) may run on its production build (GET /api/grabador). */
  grabador: boolean;
  /** VISTA_PREVIA=1: the staff preview (`/<basePath>/__vista-previa`) opens on this deployment's production build. */
  vistaPrevia: boolean;
  emision: { delayMs: number; pollMs: number; leaseMs: number; retryBaseMs: number; maxIntentos: number };
  retention: { logsDias: number; cotizacionesDias: number; intervaloMs: number };
  db: { max: number; connectTimeoutMs: number; statementTimeoutMs: number; idleTimeoutMs: number };
  shutdownTimeoutMs: number;
  /**
   * Prometheus metrics, kept off the public site (server/README.md › Métricas): `port` (METRICS_PORT) = a metrics-only server on `host`
   * (METRICS_HOST, default 127.0.0.1); `token` (METRICS_TOKEN, ≥ 16 characters) = GET /api/metrics with that bearer token.
   */
  metrics: { port?: number; host: string; token?: string };
  /**
   * Anti-bot check against scripted quotes (server/README.md › Variables): ANTIBOT (on|off, default on) = cotizar wants a
   * solved proof-of-work challenge; ANTIBOT_KEY its HMAC secret (default derived from the link key); ANTIBOT_DIFICULTAD,
   * ANTIBOT_VIDA_SEG; `recaptcha` when RECAPTCHA_PROJECT, RECAPTCHA_KEY and RECAPTCHA_API_KEY are all set.
   */
  antibot: {
    activo: boolean;
    clave?: string;
    dificultad: number;
    vidaSeg: number;
    recaptcha?: { proyecto: string; siteKey: string; apiKey: string; url: string; umbral: number };
  };
  /** After the sale (links, e-mail, hourly bounds of the buttons): see server/README.md › Variables. */
  postventa: {
    publicUrl: string;
    smtpUrl?: string;
    mailFrom: string;
    linkKeyHex?: string;
    tramitesPorHora: number;
    tramitesPorPolizaPorHora: number;
    retomarPorEnlacePorHora: number;
    correo: { pollMs: number; leaseMs: number; smtpTimeoutMs: number; retryBaseMs: number; maxBackoffMs: number; vidaMaxMs: number };
  };
}

type Env = Record<string, string | undefined>;

/** Integer env var in [min, max], or `fallback` when unset/empty. @throws Error naming the variable */
function int(env: Env, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const v = env[name];
  if (v === undefined || v.trim() === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${name} tiene que ser un número entero entre ${min} y ${max} (vale "${v}").`);
  return n;
}

/** URL env var with one of `protocols`, or `fallback` when unset. @throws Error naming the variable */
function url(env: Env, name: string, fallback: string, protocols: string[]): string {
  const v = env[name];
  if (v === undefined || v.trim() === '') return fallback;
  let ok = false;
  try {
    ok = protocols.includes(new URL(v).protocol);
  } catch {
    ok = false;
  }
  if (!ok) throw new Error(`${name} tiene que ser una URL ${protocols.map((p) => p.replace(':', '')).join(' o ')} (vale "${v}").`);
  return v;
}

/** METRICS_TOKEN: unset/empty → undefined. @throws Error when shorter than 16 characters or with spaces */
function metricsToken(v: string | undefined): string | undefined {
  if (v === undefined || v === '') return undefined;
  if (v.length < 16 || /\s/.test(v))
    throw new Error('METRICS_TOKEN tiene que tener al menos 16 caracteres y ningún espacio (p. ej. openssl rand -hex 32).');
  return v;
}

/**
 * The anti-bot settings (ANTIBOT*, RECAPTCHA_*).
 * @throws Error naming the variable: ANTIBOT not on/off, ANTIBOT_KEY shorter than 32 characters, a partial reCAPTCHA
 *   configuration, RECAPTCHA_UMBRAL outside 0–1
 */
function antibot(env: Env): Config['antibot'] {
  const modo = (env.ANTIBOT ?? '').trim() || (DEFAULTS.antibot.activo ? 'on' : 'off');
  if (modo !== 'on' && modo !== 'off') throw new Error(`ANTIBOT tiene que ser on u off (vale "${modo}").`);
  const clave = env.ANTIBOT_KEY || undefined;
  if (clave !== undefined && clave.length < 32)
    throw new Error('ANTIBOT_KEY tiene que tener al menos 32 caracteres (p. ej. openssl rand -hex 32).');
  const nombres = ['RECAPTCHA_PROJECT', 'RECAPTCHA_KEY', 'RECAPTCHA_API_KEY'] as const;
  const puestas = nombres.filter((n) => env[n]?.trim());
  if (puestas.length > 0 && puestas.length < nombres.length) {
    throw new Error(
      `Para usar reCAPTCHA Enterprise hacen falta ${nombres.join(', ')}; falta ${nombres.filter((n) => !puestas.includes(n)).join(', ')}.`,
    );
  }
  const R = DEFAULTS.antibot.recaptcha;
  const umbralTexto = env.RECAPTCHA_UMBRAL?.trim() || String(R.umbral);
  const umbral = Number(umbralTexto);
  if (!(umbral >= 0 && umbral <= 1)) throw new Error(`RECAPTCHA_UMBRAL tiene que ser un número entre 0 y 1 (vale "${umbralTexto}").`);
  return {
    activo: modo === 'on',
    clave,
    dificultad: int(env, 'ANTIBOT_DIFICULTAD', DEFAULTS.antibot.dificultad, 2, 10_000_000),
    vidaSeg: int(env, 'ANTIBOT_VIDA_SEG', DEFAULTS.antibot.vidaSeg, 60, 86_400),
    recaptcha:
      puestas.length === nombres.length
        ? {
            proyecto: env.RECAPTCHA_PROJECT!.trim(),
            siteKey: env.RECAPTCHA_KEY!.trim(),
            apiKey: env.RECAPTCHA_API_KEY!.trim(),
            url: url(env, 'RECAPTCHA_URL', R.url, ['https:', 'http:']),
            umbral,
          }
        : undefined,
  };
}

/**
 * Parses TRUST_PROXY: unset/"false" → false; "1", "2"… → hop count; "10.0.0.1, 10.1.0.0/16" → trusted addresses.
 * @throws Error for "true" (lets any client choose its IP through X-Forwarded-For) and for anything else
 */
export function parseTrustProxy(value: string | undefined): false | number | string[] {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') {
    throw new Error(
      'TRUST_PROXY=true no es seguro: cualquier cliente elegiría su IP con X-Forwarded-For. Indicá cuántos proxies hay ' +
        'delante (p. ej. TRUST_PROXY=1) o sus direcciones (p. ej. TRUST_PROXY=10.0.0.1,10.1.0.0/16).',
    );
  }
  if (/^[0-9]+$/.test(v)) return Number(v);
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const valid = (s: string) => {
    const [addr, bits, ...rest] = s.split('/');
    if (rest.length > 0 || !isIP(addr)) return false;
    return bits === undefined || (/^[0-9]+$/.test(bits) && Number(bits) <= (isIP(addr) === 4 ? 32 : 128));
  };
  if (list.length === 0 || !list.every(valid)) {
    throw new Error(`TRUST_PROXY tiene que ser false, una cantidad de proxies (1, 2…) o una lista de direcciones IP/CIDR (vale "${v}").`);
  }
  return list;
}

/**
 * The emission worker's timings (EMISSION_*, ms) and attempts.
 * @throws Error when EMISSION_LEASE_MS ≤ EMISSION_DELAY_MS (another instance would take over an emission in course)
 */
function leerEmision(env: Env): Config['emision'] {
  const D = DEFAULTS.emision;
  const emision = {
    delayMs: int(env, 'EMISSION_DELAY_MS', D.delayMs),
    pollMs: int(env, 'EMISSION_POLL_MS', D.pollMs, 10),
    leaseMs: int(env, 'EMISSION_LEASE_MS', D.leaseMs, 100),
    retryBaseMs: int(env, 'EMISSION_RETRY_BASE_MS', D.retryBaseMs, 1),
    maxIntentos: int(env, 'EMISSION_MAX_INTENTOS', D.maxIntentos, 1),
  };
  if (emision.leaseMs <= emision.delayMs) {
    throw new Error('EMISSION_LEASE_MS tiene que ser mayor que EMISSION_DELAY_MS: si no, otra instancia retomaría una emisión en curso.');
  }
  return emision;
}

/**
 * The outbox worker's timings (CORREO_*, ms; CORREO_VIDA_MAX_HORAS in hours, 1 to 8760, returned in ms).
 * @throws Error when CORREO_LEASE_MS ≤ CORREO_SMTP_TIMEOUT_MS (another instance would send a message being sent)
 */
function leerCorreo(env: Env): Config['postventa']['correo'] {
  const c = DEFAULTS.postventa.correo;
  const correo = {
    pollMs: int(env, 'CORREO_POLL_MS', c.pollMs, 10),
    leaseMs: int(env, 'CORREO_LEASE_MS', c.leaseMs, 100),
    smtpTimeoutMs: int(env, 'CORREO_SMTP_TIMEOUT_MS', c.smtpTimeoutMs, 100),
    retryBaseMs: int(env, 'CORREO_RETRY_BASE_MS', c.retryBaseMs, 1),
    maxBackoffMs: int(env, 'CORREO_MAX_BACKOFF_MS', c.maxBackoffMs, 1),
    vidaMaxMs: int(env, 'CORREO_VIDA_MAX_HORAS', c.vidaMaxMs / 3_600_000, 1, 24 * 365) * 3_600_000,
  };
  if (correo.leaseMs <= correo.smtpTimeoutMs) {
    throw new Error(
      'CORREO_LEASE_MS tiene que ser mayor que CORREO_SMTP_TIMEOUT_MS: si no, otra instancia retomaría un correo que se está enviando y saldría dos veces.',
    );
  }
  return correo;
}

/**
 * @param env usually `process.env`
 * @param repoDir repository root (defaults for DATA_DIR and STATIC_DIR)
 * @throws Error with a Spanish message naming the first invalid variable
 */
export function readConfig(env: Env, repoDir: string = join(import.meta.dirname, '../..')): Config {
  const D = DEFAULTS;
  const dataDir = env.DATA_DIR ?? join(repoDir, D.rutas.dataDir);
  const cookieSecure = env.COOKIE_SECURE ?? 'auto';
  if (cookieSecure !== 'auto' && cookieSecure !== 'true')
    throw new Error(`COOKIE_SECURE tiene que ser auto o true (vale "${cookieSecure}").`);
  const emision = leerEmision(env);
  const correo = leerCorreo(env);
  const desarrollo = env.NODE_ENV === 'development' || env.NODE_ENV === 'test';
  return {
    port: int(env, 'PORT', D.port, 0, 65535),
    // Loopback unless told otherwise: a machine's other interfaces (a café's Wi-Fi, an office LAN) reach nothing by
    // accident. Containers and a proxy on another host set HOST=0.0.0.0 (server/README.md › Variables).
    host: env.HOST || D.host,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    staticDir: env.STATIC_DIR ?? join(repoDir, D.rutas.staticDir),
    schemasDir: env.SCHEMAS_DIR || join(repoDir, D.rutas.schemasDir),
    tariffFile: env.TARIFF_FILE || join(repoDir, D.rutas.tariffFile),
    paymentKeyHex: env.PAYMENT_KEY || undefined,
    logLevel: env.LOG_LEVEL ?? D.logLevel,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    cookieSecure: cookieSecure === 'true' ? true : 'auto',
    rateLimitMax: int(env, 'RATE_LIMIT_MAX', D.rateLimitMax, 1),
    embudoLotesPorMinuto: int(env, 'EMBUDO_LOTES_POR_MINUTO', D.embudoLotesPorMinuto, 1),
    cotizacionesPorHoraPorIp: int(env, 'COTIZACIONES_POR_HORA', D.cotizacionesPorHoraPorIp, 1),
    cotizacionesExentas: parseCotizacionesExentas(env.COTIZACIONES_EXENTAS),
    chat: { habilitado: env.CHAT_HABILITADO !== 'false', telefono: env.CHAT_TELEFONO ?? D.chat.telefono },
    desarrollo,
    grabador: desarrollo && env.GRABADOR === '1',
    vistaPrevia: env.VISTA_PREVIA === '1',
    emision,
    retention: {
      logsDias: int(env, 'RETENCION_LOGS_DIAS', D.retention.logsDias, 1),
      cotizacionesDias: int(env, 'RETENCION_COTIZACIONES_DIAS', D.retention.cotizacionesDias, 1),
      intervaloMs: int(env, 'RETENCION_INTERVALO_MS', D.retention.intervaloMs, 1_000),
    },
    db: {
      max: int(env, 'DB_POOL_MAX', D.db.max, 1, 1000),
      connectTimeoutMs: int(env, 'DB_CONNECT_TIMEOUT_MS', D.db.connectTimeoutMs, 100),
      statementTimeoutMs: int(env, 'DB_STATEMENT_TIMEOUT_MS', D.db.statementTimeoutMs, 100),
      idleTimeoutMs: int(env, 'DB_IDLE_TIMEOUT_MS', D.db.idleTimeoutMs, 100),
    },
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', D.shutdownTimeoutMs, 0),
    metrics: {
      port: env.METRICS_PORT?.trim() ? int(env, 'METRICS_PORT', 0, 1, 65535) : undefined,
      host: env.METRICS_HOST?.trim() || D.metrics.host,
      token: metricsToken(env.METRICS_TOKEN),
    },
    antibot: antibot(env),
    postventa: {
      publicUrl: url(env, 'PUBLIC_URL', `http://localhost:${int(env, 'PORT', D.port, 0, 65535)}`, ['http:', 'https:']),
      smtpUrl: env.SMTP_URL ? url(env, 'SMTP_URL', '', ['smtp:', 'smtps:']) : undefined,
      mailFrom: env.MAIL_FROM ?? D.postventa.mailFrom,
      linkKeyHex: env.LINK_KEY || undefined,
      tramitesPorHora: int(env, 'TRAMITES_POR_HORA', D.postventa.tramitesPorHora, 1),
      tramitesPorPolizaPorHora: int(env, 'TRAMITES_POR_POLIZA_POR_HORA', D.postventa.tramitesPorPolizaPorHora, 1),
      retomarPorEnlacePorHora: int(env, 'RETOMAR_POR_ENLACE_POR_HORA', D.postventa.retomarPorEnlacePorHora, 1),
      correo,
    },
  };
}
