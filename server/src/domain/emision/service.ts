/**
 * Purchase and policy issuance, one policy per purchase across instances and restarts (schemas/api/README.md › Emission).
 *
 * - `solicitar` registers ONE application per purchase (quote + payment method) however often and however
 *   concurrently it is called, on any instance: the quote row is locked while deciding and the unique index
 *   `solicitudes_una_por_compra` backs it. A quote that already has a policy (or another payment method on its way
 *   to one) is refused: one policy per quote (unique index `polizas_una_por_cotizacion`).
 * - `pedir` flags the application: emission is then a durable job in the database. Every instance runs a worker
 *   (domain/jobs/poller.ts) that, every `pollMs`, releases jobs whose lease ended (stuck-job sweeper) and claims due
 *   jobs with `FOR UPDATE SKIP LOCKED` for `leaseMs`. A claimed job waits `delayMs` (the reference stand-in for the
 *   payment entity's answer) and is issued in one transaction holding the row lock, only if it is still PENDIENTE and still
 *   claimed by this worker — so a policy is issued exactly once even when a worker dies mid-job and another takes
 *   over. A failed attempt is retried after `retryBaseMs · 2^(attempt−1)` (capped at 5 min); after `maxIntentos`
 *   the application becomes RECHAZADA with a message so the visitor is not left waiting.
 * - At issue time the vigencia never starts in the past: a start date earlier than the issue date (Argentina) is
 *   moved to the issue date and the application's `mensaje` says so.
 * Policy number: "HOG-<year>-<6 digits>" from sequence poliza_seq.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../../db/index.ts';
import { mediosPagoRepository } from '../../db/repositories/medios-pago.ts';
import { solicitudesRepository, type EstadoEmision, type SolicitudNueva } from '../../db/repositories/solicitudes.ts';
import { enmascararNumerosDePago } from '../pagos/enmascarar.ts';
import type { Vault } from '../pagos/vault.ts';
import { createPoller } from '../jobs/poller.ts';
import { hoyArgentina, sumarAnios } from '../validation/fechas.ts';
import { mensaje } from '../../../../src/core/messages.ts';

export const MENSAJE_RECHAZO_MEDIO_PAGO = mensaje('servidor.rechazoMedioPago');
export const MENSAJE_COTIZACION_COMPRADA = mensaje('servidor.cotizacionComprada');
export const MENSAJE_EMISION_FALLIDA = mensaje('servidor.emisionFallida');
/** Shown when the vigencia start was moved to the issue date `fecha` (YYYY-MM-DD). */
export function mensajeVigenciaMovida(fecha: string): string {
  const [a, m, d] = fecha.split('-');
  return mensaje('servidor.vigenciaMovida', { fecha: `${d}/${m}/${a}` });
}
const MAX_BACKOFF_MS = 5 * 60_000;
const CLAIM_BATCH = 5;

/** Test-decline rule: card 4000000000000002, or a CBU whose account block (digits 9–21) is 0000000000000. */
export function esMedioPagoRechazado(tipo: 'TC' | 'CBU', numero: string): boolean {
  return tipo === 'TC' ? numero === '4000000000000002' : numero.slice(8, 21) === '0000000000000';
}

/** Policy number: "HOG-" + year + "-" + sequence zero-padded to 6 digits, e.g. HOG-2026-000123. */
export function formatNumSecuPol(anio: string, secuencia: number): string {
  return `HOG-${anio}-${String(secuencia).padStart(6, '0')}`;
}

/**
 * Vigencia of a policy issued on `hoy`: one year from the chosen start, or from `hoy` when the start already passed.
 * @param initPolicyDate chosen start (YYYY-MM-DD) @param hoy issue date in Argentina (YYYY-MM-DD)
 */
export function vigenciaAlEmitir(initPolicyDate: string, hoy: string): { desde: string; hasta: string; movida: boolean } {
  const movida = initPolicyDate < hoy;
  const desde = movida ? hoy : initPolicyDate;
  return { desde, hasta: sumarAnios(desde, 1), movida };
}

/** Result of `solicitar`. */
export type ResultadoSolicitud = { ok: true; numeroSolicitud: string; premio: number } | { ok: false; motivo: 'COMPRADA' };

export interface EmisionService {
  /** Registers (or finds) the application of this purchase; see the module comment. */
  solicitar(s: SolicitudNueva): Promise<ResultadoSolicitud>;
  /** Flags application `id` of session `sesion` for emission. @returns its state, or null when not found/foreign */
  pedir(id: string, sesion: string): Promise<EstadoEmision | null>;
  /** Issues (or declines) application `id` now, if PENDIENTE (and, given `worker`, still claimed by it). */
  emitir(id: string, worker?: string): Promise<void>;
  /** Starts this instance's worker (polling). */
  start(): void;
  /** One worker round: sweep, claim, start the claimed jobs (not awaited). @returns how many it claimed */
  tick(): Promise<number>;
  /** Stops claiming, waits up to `timeoutMs` for jobs in progress, gives back the rest (another instance takes them). */
  close(timeoutMs?: number): Promise<void>;
}

export interface EmisionOptions {
  db: Db;
  vault: Vault;
  log: FastifyBaseLogger;
  /** Stand-in for the payment entity's answer time, ms (env EMISSION_DELAY_MS). */
  delayMs: number;
  /** Worker polling interval, ms (EMISSION_POLL_MS). Defaults of all these: config.ts › DEFAULTS. */
  pollMs: number;
  /** Claim lease, ms; must exceed delayMs (EMISSION_LEASE_MS). */
  leaseMs: number;
  /** First retry delay, ms, doubled each attempt (EMISSION_RETRY_BASE_MS). */
  retryBaseMs: number;
  /** Attempts before giving up (EMISSION_MAX_INTENTOS). */
  maxIntentos: number;
  /** Default wait for jobs in progress on close, ms (SHUTDOWN_TIMEOUT_MS). */
  shutdownTimeoutMs: number;
  /** Runs inside the issuing transaction once the policy is recorded (e.g. queue the policy e-mail: out iff the policy exists). */
  alEmitir?: (tx: Queryable, numSecuPol: string) => Promise<void>;
  /** Called after the issuing transaction committed. */
  despuesDeEmitir?: () => void;
  /** Called for every job this worker claims with how late it came, s (from its due time to the claim; metrics). */
  alTomar?: (atrasoSeg: number) => void;
}

/**
 * Issues (or declines) application `id` if it is PENDIENTE and, given `claimedBy`, still claimed by that worker, in one
 * transaction: declined when its quote already has a policy or the payment entity refuses the means of payment;
 * otherwise the policy is recorded (its start moved to today when it has passed) and `opts.alEmitir` runs in the same
 * transaction, `opts.despuesDeEmitir` after the commit. @throws when its means of payment is missing (the worker retries)
 */
async function emitirSolicitud(opts: EmisionOptions, id: string, claimedBy?: string): Promise<void> {
  const { db, vault, log } = opts;
  let emitida = false;
  await db.transaction(async (tx) => {
    const solicitudes = solicitudesRepository(tx);
    const s = await solicitudes.bloquearParaEmitir(id);
    if (!s || s.estado !== 'PENDIENTE') return;
    if (claimedBy !== undefined && s.tomadaPor !== claimedBy) return; // our lease ended and another worker took over
    if (await solicitudes.tienePoliza(s.refId)) {
      await solicitudes.rechazar(id, MENSAJE_COTIZACION_COMPRADA);
      return;
    }
    const medio = await mediosPagoRepository(tx).get(s.medioPagoId);
    if (!medio) throw new Error(`Solicitud ${id}: medio de pago inexistente`);
    if (esMedioPagoRechazado(medio.tipo, vault.decrypt(medio.numeroCifrado))) {
      await solicitudes.rechazar(id, MENSAJE_RECHAZO_MEDIO_PAGO);
      log.info({ numeroSolicitud: id }, 'solicitud rechazada por la entidad de pago');
      return;
    }
    const hoy = hoyArgentina();
    const vigencia = vigenciaAlEmitir(s.initPolicyDate, hoy);
    const numSecuPol = formatNumSecuPol(hoy.slice(0, 4), await solicitudes.siguienteNumeroPoliza());
    await solicitudes.registrarPoliza(s, numSecuPol, vigencia, vigencia.movida ? mensajeVigenciaMovida(hoy) : null);
    await opts.alEmitir?.(tx, numSecuPol);
    log.info({ numeroSolicitud: id, numSecuPol, vigenciaMovida: vigencia.movida }, 'póliza emitida');
    emitida = true;
  });
  if (emitida) opts.despuesDeEmitir?.();
}

/**
 * Registers (or finds) the application of purchase `s` in one transaction that locks its quote: the one already asked
 * to be issued as it is, `COMPRADA` when the quote was bought with another means of payment, else the draft updated
 * or a new one. See the module comment.
 */
async function solicitarEn(db: Db, s: SolicitudNueva): Promise<ResultadoSolicitud> {
  return db.transaction(async (tx) => {
    const repo = solicitudesRepository(tx);
    await repo.bloquearCotizacion(s.refId);
    const existente = await repo.compraDe(s.refId, s.medioPagoId);
    if (existente?.emisionPedida) return { ok: true, numeroSolicitud: existente.id, premio: existente.premio };
    if (await repo.cotizacionComprada(s.refId, s.medioPagoId)) return { ok: false, motivo: 'COMPRADA' };
    if (existente) {
      await repo.actualizarBorrador(existente.id, s);
      return { ok: true, numeroSolicitud: existente.id, premio: s.plan.premio };
    }
    return { ok: true, numeroSolicitud: await repo.insert(s), premio: s.plan.premio };
  });
}

/** Resolves after `ms` milliseconds; rejects with `signal`'s reason as soon as it aborts (the timer cleared). */
function esperar(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/**
 * After a failed attempt `intento` of job `id` held by `worker`: reschedules it in `retryBaseMs · 2^(intento−1)` (capped
 * at MAX_BACKOFF_MS), or, at `maxIntentos`, rejects the application with MENSAJE_EMISION_FALLIDA. The error is logged
 * with payment numbers masked. When the database cannot record it, the sweeper takes the job back at lease expiry.
 */
async function reprogramarOAbandonar(
  opts: EmisionOptions,
  job: { id: string; intento: number; worker: string },
  err: unknown,
): Promise<void> {
  const { log, retryBaseMs, maxIntentos } = opts;
  const { id, intento, worker } = job;
  const repo = solicitudesRepository(opts.db);
  const mensaje = enmascararNumerosDePago(err instanceof Error ? err.message : String(err)).slice(0, 500);
  try {
    if (intento >= maxIntentos) {
      await repo.rechazar(id, MENSAJE_EMISION_FALLIDA);
      log.error({ numeroSolicitud: id, intento, error: mensaje }, 'emisión abandonada tras el máximo de intentos');
    } else {
      const enMs = Math.min(retryBaseMs * 2 ** (intento - 1), MAX_BACKOFF_MS);
      await repo.reprogramar(id, worker, enMs, mensaje);
      log.warn({ numeroSolicitud: id, intento, reintentoEnMs: enMs, error: mensaje }, 'falló la emisión; se reintenta');
    }
  } catch (err2) {
    log.warn({ numeroSolicitud: id, error: (err2 as Error).message }, 'no se pudo reprogramar; la retoma el barrido al vencer el plazo');
  }
}

/** Creates the service; call `start()` to run this instance's worker. */
export function createEmisionService(opts: EmisionOptions): EmisionService {
  const { db, log, delayMs, pollMs } = opts;
  const leaseMs = Math.max(opts.leaseMs, delayMs + 1);
  const worker = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const inFlight = new Map<string, { done: Promise<void>; abort: AbortController }>();
  const poller = createPoller({
    tick,
    pollMs,
    onError: (err) => log.warn({ error: (err as Error).message }, 'ronda de emisión fallida'),
  });

  /** One claimed job: wait for the payment entity (abortable on shutdown), then issue; on failure reschedule. */
  async function procesar(id: string, intento: number, signal: AbortSignal): Promise<void> {
    const repo = solicitudesRepository(db);
    try {
      await esperar(delayMs, signal);
      await emitirSolicitud(opts, id, worker);
    } catch (err) {
      if (signal.aborted) {
        await repo.soltar(id, worker).catch(() => undefined); // the lease expiry hands it over anyway
        return;
      }
      await reprogramarOAbandonar(opts, { id, intento, worker }, err);
    }
  }

  /** One worker round: sweep, then claim up to the free slots and start them (not awaited). */
  async function tick(): Promise<number> {
    if (poller.closed) return 0;
    const repo = solicitudesRepository(db);
    for (const v of await repo.liberarVencidas()) log.warn({ numeroSolicitud: v.id, tomadaPor: v.tomadaPor }, 'emisión trabada liberada');
    const libres = CLAIM_BATCH - inFlight.size;
    if (libres <= 0 || poller.closed) return 0;
    const tomadas = await repo.tomar(worker, leaseMs, libres);
    for (const { id, intentos, atrasoSeg } of tomadas) {
      opts.alTomar?.(Math.max(0, atrasoSeg));
      const abort = new AbortController();
      const done = procesar(id, intentos, abort.signal).finally(() => {
        inFlight.delete(id);
        poller.wake(); // a slot is free: look for more work now
      });
      inFlight.set(id, { done, abort });
    }
    return tomadas.length;
  }

  return {
    solicitar: (s) => solicitarEn(db, s),
    async pedir(id, sesion) {
      const estado = await solicitudesRepository(db).pedirEmision(id, sesion);
      if (estado?.estado === 'PENDIENTE') poller.wake(); // this instance's worker looks now; any other may take it too
      return estado;
    },
    emitir: (id, claimedBy) => emitirSolicitud(opts, id, claimedBy),
    start: () => poller.start(),
    tick: () => poller.tick(),
    async close(timeoutMs = opts.shutdownTimeoutMs) {
      await poller.close(); // a round in progress may still claim jobs: let it finish so they are waited for or handed back
      const pending = [...inFlight.values()];
      let t: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        t = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      const result = await Promise.race([Promise.all(pending.map((j) => j.done)).then(() => 'done' as const), timedOut]);
      clearTimeout(t);
      if (result === 'timeout') {
        for (const j of inFlight.values()) j.abort.abort(new Error('cierre'));
        await Promise.all([...inFlight.values()].map((j) => j.done));
        log.warn({ pendientes: pending.length }, 'cierre: emisiones devueltas a la cola');
      }
    },
  };
}
