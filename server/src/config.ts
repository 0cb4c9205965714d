/**
 * The API's settings from the environment, in one place (server/README.md › Variables lists the same table).
 * `readConfig(env)` validates every value and throws a Spanish message naming the variable when one is wrong, so a
 * misconfigured instance refuses to start instead of running unsafe (e.g. TRUST_PROXY=true).
 */
import { isIP } from 'node:net';
import { join } from 'node:path';
import { parseCotizacionesExentas } from './plugins/exentas.ts';

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
  emission: { delayMs: number; pollMs: number; leaseMs: number; retryBaseMs: number; maxIntentos: number };
  retention: { logsDias: number; cotizacionesDias: number; intervaloMs: number };
  db: { max: number; connectTimeoutMs: number; statementTimeoutMs: number; idleTimeoutMs: number };
  shutdownTimeoutMs: number;
  /**
   * Prometheus metrics (issue 22; server/README.md › Métricas): `port` (METRICS_PORT) = a metrics-only server on `host`
   * (METRICS_HOST, default 127.0.0.1); `token` (METRICS_TOKEN, ≥ 16 characters) = GET /api/metrics with that bearer token.
   */
  metrics: { port?: number; host: string; token?: string };
  /**
   * Anti-bot check (issue 22 item 8; server/README.md › Variables): ANTIBOT (on|off, default on) = cotizar wants a
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
  /** After the sale (issue 8): see server/README.md › Variables. */
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
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} tiene que ser un número entero entre ${min} y ${max} (vale "${v}").`);
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
  if (v.length < 16 || /\s/.test(v)) throw new Error('METRICS_TOKEN tiene que tener al menos 16 caracteres y ningún espacio (p. ej. openssl rand -hex 32).');
  return v;
}

/**
 * The anti-bot settings (ANTIBOT*, RECAPTCHA_*).
 * @throws Error naming the variable: ANTIBOT not on/off, ANTIBOT_KEY shorter than 32 characters, a partial reCAPTCHA
 *   configuration, RECAPTCHA_UMBRAL outside 0–1
 */
function antibot(env: Env): Config['antibot'] {
  const modo = (env.ANTIBOT ?? '').trim() || 'on';
  if (modo !== 'on' && modo !== 'off') throw new Error(`ANTIBOT tiene que ser on u off (vale "${modo}").`);
  const clave = env.ANTIBOT_KEY || undefined;
  if (clave !== undefined && clave.length < 32) throw new Error('ANTIBOT_KEY tiene que tener al menos 32 caracteres (p. ej. openssl rand -hex 32).');
  const nombres = ['RECAPTCHA_PROJECT', 'RECAPTCHA_KEY', 'RECAPTCHA_API_KEY'] as const;
  const puestas = nombres.filter((n) => env[n]?.trim());
  if (puestas.length > 0 && puestas.length < nombres.length) {
    throw new Error(`Para usar reCAPTCHA Enterprise hacen falta ${nombres.join(', ')}; falta ${nombres.filter((n) => !puestas.includes(n)).join(', ')}.`);
  }
  const umbralTexto = env.RECAPTCHA_UMBRAL?.trim() || '0.5';
  const umbral = Number(umbralTexto);
  if (!(umbral >= 0 && umbral <= 1)) throw new Error(`RECAPTCHA_UMBRAL tiene que ser un número entre 0 y 1 (vale "${umbralTexto}").`);
  return {
    activo: modo === 'on',
    clave,
    dificultad: int(env, 'ANTIBOT_DIFICULTAD', 50_000, 2, 10_000_000),
    vidaSeg: int(env, 'ANTIBOT_VIDA_SEG', 1800, 60, 86_400),
    recaptcha: puestas.length === nombres.length
      ? {
          proyecto: env.RECAPTCHA_PROJECT!.trim(), siteKey: env.RECAPTCHA_KEY!.trim(), apiKey: env.RECAPTCHA_API_KEY!.trim(),
          url: url(env, 'RECAPTCHA_URL', 'https://recaptchaenterprise.googleapis.com', ['https:', 'http:']), umbral,
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
  const list = v.split(',').map((s) => s.trim()).filter(Boolean);
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
 * @param env usually `process.env`
 * @param repoDir repository root (defaults for DATA_DIR and STATIC_DIR)
 * @throws Error with a Spanish message naming the first invalid variable
 */
export function readConfig(env: Env, repoDir: string = join(import.meta.dirname, '../..')): Config {
  const dataDir = env.DATA_DIR ?? join(repoDir, 'data');
  const cookieSecure = env.COOKIE_SECURE ?? 'auto';
  if (cookieSecure !== 'auto' && cookieSecure !== 'true') throw new Error(`COOKIE_SECURE tiene que ser auto o true (vale "${cookieSecure}").`);
  const emission = {
    delayMs: int(env, 'EMISSION_DELAY_MS', 800),
    pollMs: int(env, 'EMISSION_POLL_MS', 250, 10),
    leaseMs: int(env, 'EMISSION_LEASE_MS', 30_000, 100),
    retryBaseMs: int(env, 'EMISSION_RETRY_BASE_MS', 1_000, 1),
    maxIntentos: int(env, 'EMISSION_MAX_INTENTOS', 10, 1),
  };
  const correo = {
    pollMs: int(env, 'CORREO_POLL_MS', 1_000, 10),
    leaseMs: int(env, 'CORREO_LEASE_MS', 60_000, 100),
    smtpTimeoutMs: int(env, 'CORREO_SMTP_TIMEOUT_MS', 30_000, 100),
    retryBaseMs: int(env, 'CORREO_RETRY_BASE_MS', 5_000, 1),
    maxBackoffMs: int(env, 'CORREO_MAX_BACKOFF_MS', 3_600_000, 1),
    vidaMaxMs: int(env, 'CORREO_VIDA_MAX_HORAS', 72, 1, 24 * 365) * 3_600_000,
  };
  if (correo.leaseMs <= correo.smtpTimeoutMs) {
    throw new Error('CORREO_LEASE_MS tiene que ser mayor que CORREO_SMTP_TIMEOUT_MS: si no, otra instancia retomaría un correo que se está enviando y saldría dos veces.');
  }
  if (emission.leaseMs <= emission.delayMs) {
    throw new Error('EMISSION_LEASE_MS tiene que ser mayor que EMISSION_DELAY_MS: si no, otra instancia retomaría una emisión en curso.');
  }
  const desarrollo = env.NODE_ENV === 'development' || env.NODE_ENV === 'test';
  return {
    port: int(env, 'PORT', 3000, 0, 65535),
    // Loopback unless told otherwise: a machine's other interfaces (a café's Wi-Fi, an office LAN) reach nothing by
    // accident. Containers and a proxy on another host set HOST=0.0.0.0 (server/README.md › Variables).
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    staticDir: env.STATIC_DIR ?? join(repoDir, 'dist'),
    schemasDir: env.SCHEMAS_DIR || join(repoDir, 'schemas'),
    tariffFile: env.TARIFF_FILE || join(repoDir, 'server/tariffs/2026-11.json'),
    paymentKeyHex: env.PAYMENT_KEY || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    cookieSecure: cookieSecure === 'true' ? true : 'auto',
    rateLimitMax: int(env, 'RATE_LIMIT_MAX', 300, 1),
    embudoLotesPorMinuto: int(env, 'EMBUDO_LOTES_POR_MINUTO', 120, 1),
    cotizacionesPorHoraPorIp: int(env, 'COTIZACIONES_POR_HORA', 30, 1),
    cotizacionesExentas: parseCotizacionesExentas(env.COTIZACIONES_EXENTAS),
    chat: { habilitado: env.CHAT_HABILITADO !== 'false', telefono: env.CHAT_TELEFONO ?? '5491100000000' },
    desarrollo,
    grabador: desarrollo && env.GRABADOR === '1',
    vistaPrevia: env.VISTA_PREVIA === '1',
    emission,
    retention: {
      logsDias: int(env, 'RETENCION_LOGS_DIAS', 90, 1),
      cotizacionesDias: int(env, 'RETENCION_COTIZACIONES_DIAS', 30, 1),
      intervaloMs: int(env, 'RETENCION_INTERVALO_MS', 3_600_000, 1_000),
    },
    db: {
      max: int(env, 'DB_POOL_MAX', 10, 1, 1000),
      connectTimeoutMs: int(env, 'DB_CONNECT_TIMEOUT_MS', 5_000, 100),
      statementTimeoutMs: int(env, 'DB_STATEMENT_TIMEOUT_MS', 15_000, 100),
      idleTimeoutMs: int(env, 'DB_IDLE_TIMEOUT_MS', 30_000, 100),
    },
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0),
    metrics: {
      port: env.METRICS_PORT?.trim() ? int(env, 'METRICS_PORT', 0, 1, 65535) : undefined,
      host: env.METRICS_HOST?.trim() || '127.0.0.1',
      token: metricsToken(env.METRICS_TOKEN),
    },
    antibot: antibot(env),
    postventa: {
      publicUrl: url(env, 'PUBLIC_URL', `http://localhost:${int(env, 'PORT', 3000, 0, 65535)}`, ['http:', 'https:']),
      smtpUrl: env.SMTP_URL ? url(env, 'SMTP_URL', '', ['smtp:', 'smtps:']) : undefined,
      mailFrom: env.MAIL_FROM ?? 'Hogar Protegido Seguros <polizas@hogarprotegido.example>',
      linkKeyHex: env.LINK_KEY || undefined,
      tramitesPorHora: int(env, 'TRAMITES_POR_HORA', 10, 1),
      tramitesPorPolizaPorHora: int(env, 'TRAMITES_POR_POLIZA_POR_HORA', 5, 1),
      retomarPorEnlacePorHora: int(env, 'RETOMAR_POR_ENLACE_POR_HORA', 5, 1),
      correo,
    },
  };
}
