/**
 * Asynchronous policy issuance (schemas/api/README.md › Emission).
 * `pedir(n)` flags application n and schedules its issuance after `delayMs` (ms); `emitir(n)` issues it in one
 * transaction holding the application's row lock, so it is exactly-once under retries, concurrent calls and two
 * API instances: an application leaves PENDIENTE once, to EMITIDA (policy number "HOG-<year>-<6 digits>" from
 * sequence poliza_seq, unique per application) or RECHAZADA (test-decline list). Applications flagged but still
 * PENDIENTE (e.g. the process stopped) are picked up again by `reanudar()` at start-up.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import { solicitudesRepository, type EstadoEmision } from '../../db/repositories/solicitudes.ts';
import { mediosPagoRepository } from '../../db/repositories/medios-pago.ts';
import type { Vault } from '../payment/vault.ts';
import { hoyArgentina, sumarAnios } from '../validation/fechas.ts';

export const MENSAJE_RECHAZO_MEDIO_PAGO = 'La entidad rechazó el medio de pago. Probá con otro.';

/** Test-decline rule: card 4000000000000002, or a CBU whose account block (digits 9–21) is 0000000000000. */
export function esMedioPagoRechazado(tipo: 'TC' | 'CBU', numero: string): boolean {
  return tipo === 'TC' ? numero === '4000000000000002' : numero.slice(8, 21) === '0000000000000';
}

/** Policy number: "HOG-" + year + "-" + sequence zero-padded to 6 digits, e.g. HOG-2026-000123. */
export function formatNumSecuPol(anio: string, secuencia: number): string {
  return `HOG-${anio}-${String(secuencia).padStart(6, '0')}`;
}

export interface EmissionService {
  /** Flags the application and schedules its issuance. @returns its current state, or null if it does not exist */
  pedir(numeroSolicitud: number): Promise<EstadoEmision | null>;
  /** Issues (or declines) one application now; no-op unless it is PENDIENTE. */
  emitir(numeroSolicitud: number): Promise<void>;
  /** Schedules every flagged PENDIENTE application. @returns how many */
  reanudar(): Promise<number>;
  /** Cancels scheduled work and waits for issuance in flight (app close). */
  close(): Promise<void>;
}

/**
 * @param opts.db database (transactions with row locks)
 * @param opts.vault decrypts the payment number for the decline rule
 * @param opts.delayMs wait before issuing, ms
 * @param opts.log logger (never receives payment numbers)
 */
export function createEmissionService(opts: { db: Db; vault: Vault; delayMs: number; log: FastifyBaseLogger }): EmissionService {
  const { db, vault, delayMs, log } = opts;
  const timers = new Map<number, NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let closed = false;

  async function emitir(numeroSolicitud: number): Promise<void> {
    await db.transaction(async (tx) => {
      const solicitudes = solicitudesRepository(tx);
      const s = await solicitudes.bloquearParaEmitir(numeroSolicitud);
      if (!s || s.estado !== 'PENDIENTE') return;
      const medio = await mediosPagoRepository(tx).get(s.medioPagoId);
      if (!medio) throw new Error(`Solicitud ${numeroSolicitud}: medio de pago inexistente`);
      if (esMedioPagoRechazado(medio.tipo, vault.decrypt(medio.numeroCifrado))) {
        await solicitudes.rechazar(numeroSolicitud, MENSAJE_RECHAZO_MEDIO_PAGO);
        log.info({ numeroSolicitud }, 'solicitud rechazada por la entidad de pago');
        return;
      }
      const numSecuPol = formatNumSecuPol(hoyArgentina().slice(0, 4), await solicitudes.siguienteNumeroPoliza());
      await solicitudes.registrarPoliza(s, numSecuPol, sumarAnios(s.initPolicyDate, 1));
      log.info({ numeroSolicitud, numSecuPol }, 'póliza emitida');
    });
  }

  function schedule(numeroSolicitud: number): void {
    if (closed || timers.has(numeroSolicitud)) return;
    const timer = setTimeout(() => {
      const run = emitir(numeroSolicitud)
        .catch((err: unknown) => log.error({ err, numeroSolicitud }, 'falló la emisión; queda PENDIENTE para el próximo inicio'))
        .finally(() => {
          timers.delete(numeroSolicitud);
          inFlight.delete(run);
        });
      inFlight.add(run);
    }, delayMs);
    timers.set(numeroSolicitud, timer);
  }

  return {
    async pedir(numeroSolicitud) {
      const estado = await solicitudesRepository(db).pedirEmision(numeroSolicitud);
      if (estado?.estado === 'PENDIENTE') schedule(numeroSolicitud);
      return estado;
    },
    emitir,
    async reanudar() {
      const pendientes = await solicitudesRepository(db).pendientesDeEmision();
      pendientes.forEach(schedule);
      return pendientes.length;
    },
    async close() {
      closed = true;
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      await Promise.all(inFlight);
    },
  };
}
