/**
 * Prometheus metrics of one app instance (traffic, sales, emission lag, outbox, pool), on its own prom-client `Registry` (never the global
 * default one: tests build many apps in one process). Served by plugins/metrics.ts (METRICS_PORT / METRICS_TOKEN).
 *
 * Per instance (Prometheus sums them across instances):
 * - `http_request_duration_seconds{method,route,status_code}` histogram: `route` is the route pattern
 *   ("/api/documentos/poliza/:token"), "(sin ruta)" for a request no route matched;
 * - `cotizador_cotizaciones_total{origen="cotizar"|"retomar"}`, `cotizador_polizas_emitidas_total`,
 *   `cotizador_arrepentimientos_total`, `cotizador_bajas_total` counters, counted where each fact is committed;
 * - `cotizador_emision_atraso_segundos` histogram: from the moment an emission job was due to the moment a worker
 *   claimed it (queueing lag; retries included, each counted from its own due time);
 * - `cotizador_db_pool_conexiones{estado="total"|"libres"|"esperando"}` and `cotizador_db_pool_max` gauges: the `pg`
 *   pool's totalCount/idleCount/waitingCount; PGlite has one connection and no pool: total 1, libres 0, esperando 0, max 1.
 * Global (read from the database on every scrape, so every instance reports the same value — do not sum them, take
 * `max`): `cotizador_correos_pendientes` (outbox depth), `cotizador_correo_pendiente_mas_viejo_segundos` (0 when none),
 * `cotizador_correos_fallidos` (dead letters: `correos.estado = 'FALLIDO'`). The query has `dbTimeoutMs` to answer;
 * if it does not (or fails) those three read NaN and `cotizador_metricas_db_ok` reads 0, so a scrape never hangs.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DEFAULTS } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { correosRepository, type Bandeja } from '../../db/repositories/correos.ts';

export interface MetricsOptions {
  db: Db;
  /** How long the scrape waits for the database gauges, ms (default: config.ts › DEFAULTS). */
  dbTimeoutMs?: number;
  /** Also the process metrics of prom-client (CPU, memory, event loop lag, GC) — only when they are served. */
  proceso?: boolean;
}

/** The instance's metrics; see the module comment. */
export function createMetrics(opts: MetricsOptions) {
  const registry = new Registry();
  const registers = [registry];
  if (opts.proceso) collectDefaultMetrics({ register: registry });
  medidoresBandeja(registers, lectorBandeja(opts.db, opts.dbTimeoutMs ?? DEFAULTS.metrics.dbTimeoutMs));
  medidoresPool(registers, opts.db);
  return { registry, ...contadores(registers) };
}
export type Metrics = ReturnType<typeof createMetrics>;

/**
 * The outbox read the global gauges share: one database read per scrape (their collect() run together), given up
 * after `dbTimeoutMs`. @returns a reader that resolves to the outbox's depth, or null (timeout or failure)
 */
function lectorBandeja(db: Db, dbTimeoutMs: number): () => Promise<Bandeja | null> {
  let enCurso: Promise<Bandeja | null> | undefined;
  return () => {
    enCurso ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        const vencido = new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), dbTimeoutMs);
        });
        const consulta = correosRepository(db).bandeja();
        consulta.catch(() => undefined); // still running after the timeout: its late failure is nobody's business
        return await Promise.race([consulta, vencido]);
      } catch {
        return null;
      } finally {
        clearTimeout(timer);
      }
    })().finally(() => {
      enCurso = undefined;
    });
    return enCurso;
  };
}

/** The global outbox gauges (NaN when the read failed) and `cotizador_metricas_db_ok`. */
function medidoresBandeja(registers: Registry[], leerBandeja: () => Promise<Bandeja | null>): void {
  new Gauge({
    name: 'cotizador_metricas_db_ok',
    help: '1 si la base respondió a tiempo para las métricas globales de este scrape; 0 si no (valen NaN).',
    registers,
    async collect() {
      this.set((await leerBandeja()) ? 1 : 0);
    },
  });
  const deLaBandeja = (name: string, help: string, campo: keyof Bandeja) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const b = await leerBandeja();
        this.set(b ? Number(b[campo]) : Number.NaN);
      },
    });
  deLaBandeja('cotizador_correos_pendientes', 'E-mails pendientes en la bandeja de salida (global: de la base).', 'pendientes');
  deLaBandeja(
    'cotizador_correo_pendiente_mas_viejo_segundos',
    'Antigüedad del e-mail pendiente más viejo, s; 0 sin pendientes (global).',
    'masViejoSeg',
  );
  deLaBandeja('cotizador_correos_fallidos', "E-mails que agotaron los intentos (correos.estado = 'FALLIDO'; global).", 'fallidos');
}

/** The connection pool gauges of this instance (PGlite: one connection, no pool). */
function medidoresPool(registers: Registry[], db: Db): void {
  new Gauge({
    name: 'cotizador_db_pool_conexiones',
    help: 'Conexiones del pool de PostgreSQL de esta instancia por estado (PGlite: 1 total).',
    labelNames: ['estado'] as const,
    registers,
    collect() {
      const p = db.estadoPool?.() ?? { total: 1, libres: 0, esperando: 0, max: 1 };
      this.set({ estado: 'total' }, p.total);
      this.set({ estado: 'libres' }, p.libres);
      this.set({ estado: 'esperando' }, p.esperando);
    },
  });
  new Gauge({
    name: 'cotizador_db_pool_max',
    help: 'Tamaño máximo del pool de esta instancia (DB_POOL_MAX; PGlite: 1).',
    registers,
    collect() {
      this.set(db.estadoPool?.().max ?? 1);
    },
  });
}

/** The counters and histograms the app feeds (traffic, quotes, sales, post-sale, emission lag). */
function contadores(registers: Registry[]) {
  const cotizaciones = new Counter({
    name: 'cotizador_cotizaciones_total',
    help: 'Cotizaciones guardadas (cotizar; retomar un enlace).',
    labelNames: ['origen'] as const,
    registers,
  });
  for (const origen of ['cotizar', 'retomar']) cotizaciones.inc({ origen }, 0); // a series from the start: rate() needs it
  return {
    cotizaciones,
    httpDuracion: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Duración de los pedidos HTTP por método, ruta (patrón) y código de estado, s.',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    polizasEmitidas: new Counter({
      name: 'cotizador_polizas_emitidas_total',
      help: 'Pólizas emitidas por el worker de esta instancia.',
      registers,
    }),
    arrepentimientos: new Counter({
      name: 'cotizador_arrepentimientos_total',
      help: 'Arrepentimientos registrados (nuevos; un reintento no cuenta).',
      registers,
    }),
    bajas: new Counter({ name: 'cotizador_bajas_total', help: 'Bajas registradas (nuevas; un reintento no cuenta).', registers }),
    emisionAtraso: new Histogram({
      name: 'cotizador_emision_atraso_segundos',
      help: 'Desde que un trabajo de emisión vence hasta que un worker lo toma, s.',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
      registers,
    }),
  };
}
