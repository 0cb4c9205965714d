/**
 * Purchase applications (`solicitudes`), their emission jobs and issued policies (`polizas`).
 * On the wire an application is its UUID `id` (field `numeroSolicitud`); `numero_solicitud` is internal.
 * Visitor-facing reads and writes take the session hash and answer null for another session's application.
 */
import type { Plan } from '../../domain/rating/engine.ts';
import type { Queryable } from '../index.ts';
import type { Domicilio } from './domicilios.ts';
import { VERSION_CONSENTIMIENTO, type Persona } from './personas.ts';

export type EstadoSolicitud = 'PENDIENTE' | 'EMITIDA' | 'RECHAZADA';

export interface SolicitudNueva {
  refId: string;
  codPlan: string;
  coberturasOpcionales: string[];
  plan: Plan;
  medioPagoId: string;
  persona: Persona;
  domicilio: Domicilio;
}

export interface EstadoEmision {
  /** Public id (UUID). */
  numeroSolicitud: string;
  estado: EstadoSolicitud;
  emisionPedida: boolean;
  numSecuPol: string | null;
  mensaje: string | null;
  vigenciaDesde: string | null;
  vigenciaHasta: string | null;
}

/** Row locked for issuance. */
export interface SolicitudParaEmitir {
  numero: number;
  id: string;
  estado: EstadoSolicitud;
  tomadaPor: string | null;
  refId: string;
  codPlan: string;
  premio: number;
  medioPagoId: string;
  initPolicyDate: string;
}

/** An application of a purchase (quote + payment method). */
export interface Compra {
  id: string;
  premio: number;
  emisionPedida: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ESTADO = `s.id AS "numeroSolicitud", s.estado, s.emision_pedida AS "emisionPedida", s.num_secu_pol AS "numSecuPol", s.mensaje,
  to_char(p.vigencia_desde, 'YYYY-MM-DD') AS "vigenciaDesde", to_char(p.vigencia_hasta, 'YYYY-MM-DD') AS "vigenciaHasta"`;
const FROM_ESTADO = `FROM solicitudes s JOIN cotizaciones c ON c.ref_id = s.ref_id LEFT JOIN polizas p ON p.numero_solicitud = s.numero_solicitud`;

/**
 * Application, job and policy queries over `db`; issuance and `solicitar` steps run inside one transaction.
 * One object made of the query groups below: a purchase's application, the visitor's view of it, the emission queue
 * and issuance.
 */
export function solicitudesRepository(db: Queryable) {
  return { ...compraQueries(db), ...visitanteQueries(db), ...colaEmisionQueries(db), ...emisionQueries(db) };
}
export type SolicitudesRepository = ReturnType<typeof solicitudesRepository>;

/** A purchase's application (POST /api/solicitar): find, insert or update it under the quote's row lock. */
function compraQueries(db: Queryable) {
  return {
    /** Locks the quote row (SELECT … FOR UPDATE): serialises purchases of one quote across instances. */
    async bloquearCotizacion(refId: string): Promise<void> {
      await db.query('SELECT 1 FROM cotizaciones WHERE ref_id = $1 FOR UPDATE', [refId]);
    },
    /** @returns the application of this purchase (quote + payment method), or null */
    async compraDe(refId: string, medioPagoId: string): Promise<Compra | null> {
      const rows = await db.query<Compra>(
        `SELECT id, premio::float8 AS premio, emision_pedida AS "emisionPedida" FROM solicitudes
         WHERE ref_id = $1 AND medio_pago_id = $2 AND NOT legado`,
        [refId, medioPagoId],
      );
      return rows[0] ?? null;
    },
    /** @returns whether the quote has a policy, or an application with another payment method on its way to one */
    async cotizacionComprada(refId: string, medioPagoId: string): Promise<boolean> {
      const rows = await db.query(
        `SELECT 1 FROM polizas WHERE ref_id = $1 AND NOT legado
         UNION ALL
         SELECT 1 FROM solicitudes WHERE ref_id = $1 AND medio_pago_id <> $2 AND emision_pedida AND estado <> 'RECHAZADA' AND NOT legado
         LIMIT 1`,
        [refId, medioPagoId],
      );
      return rows.length > 0;
    },
    /** Inserts a new application. @returns its public id */
    async insert(s: SolicitudNueva): Promise<string> {
      const rows = await db.query<{ id: string }>(
        `INSERT INTO solicitudes (ref_id, cod_plan, coberturas_opcionales, plan, premio, medio_pago_id, persona, domicilio, consentimiento_en, consentimiento_version)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8, CASE WHEN $9 THEN now() END, CASE WHEN $9 THEN $10 END) RETURNING id`,
        [
          s.refId,
          s.codPlan,
          JSON.stringify(s.coberturasOpcionales),
          JSON.stringify(s.plan),
          s.plan.premio,
          s.medioPagoId,
          JSON.stringify(s.persona),
          JSON.stringify(s.domicilio),
          s.persona.consentimientoDatos === true,
          VERSION_CONSENTIMIENTO,
        ],
      );
      return rows[0].id;
    },
    /** Replaces the data of an application whose emission was not requested yet (the visitor changed something). */
    async actualizarBorrador(id: string, s: SolicitudNueva): Promise<void> {
      await db.query(
        `UPDATE solicitudes SET cod_plan = $2, coberturas_opcionales = $3, plan = $4, premio = $5, persona = $6, domicilio = $7,
           consentimiento_en = now(), consentimiento_version = $8, actualizada_en = now() WHERE id = $1 AND NOT emision_pedida`,
        [
          id,
          s.codPlan,
          JSON.stringify(s.coberturasOpcionales),
          JSON.stringify(s.plan),
          s.plan.premio,
          JSON.stringify(s.persona),
          JSON.stringify(s.domicilio),
          VERSION_CONSENTIMIENTO,
        ],
      );
    },
  };
}

/** The visitor's view of an application: only its own session's, null for any other. */
function visitanteQueries(db: Queryable) {
  const queries = {
    /** @returns the state of application `id` of session `sesion`, or null (unknown id, or another session's) */
    async estado(id: string, sesion: string): Promise<EstadoEmision | null> {
      if (!UUID.test(id)) return null;
      const rows = await db.query<EstadoEmision>(`SELECT ${ESTADO} ${FROM_ESTADO} WHERE s.id = $1 AND c.sesion = $2`, [id, sesion]);
      return rows[0] ?? null;
    },
    /**
     * Flags application `id` of session `sesion` for emission, due now (idempotent: a requested job keeps its schedule).
     * @returns its state, or null (unknown id, or another session's)
     */
    async pedirEmision(id: string, sesion: string): Promise<EstadoEmision | null> {
      if (!UUID.test(id)) return null;
      const rows = await db.query<{ id: string }>(
        `UPDATE solicitudes s SET emision_pedida = true, proximo_intento = coalesce(s.proximo_intento, now()), actualizada_en = now()
         FROM cotizaciones c WHERE s.id = $1 AND c.ref_id = s.ref_id AND c.sesion = $2 RETURNING s.id`,
        [id, sesion],
      );
      return rows.length > 0 ? queries.estado(id, sesion) : null;
    },
  };
  return queries;
}

/** The emission queue: claims with a lease (FOR UPDATE SKIP LOCKED), retries and hand-backs. */
function colaEmisionQueries(db: Queryable) {
  return {
    /**
     * Releases jobs whose lease ended (their worker died or hung): the stuck-job sweeper.
     * @returns the ids released and who held them
     */
    async liberarVencidas(): Promise<{ id: string; tomadaPor: string }[]> {
      return db.query(
        `UPDATE solicitudes SET tomada_por = NULL, tomada_hasta = NULL
         WHERE estado = 'PENDIENTE' AND emision_pedida AND tomada_hasta < now() RETURNING id, tomada_por AS "tomadaPor"`,
      );
    },
    /**
     * Claims up to `limite` due, unclaimed jobs for `worker` for `leaseMs` (FOR UPDATE SKIP LOCKED: instances never
     * claim the same job) and counts the attempt.
     * @returns the claimed ids with their attempt number and how late the claim came, s (now − proximo_intento)
     */
    async tomar(worker: string, leaseMs: number, limite: number): Promise<{ id: string; intentos: number; atrasoSeg: number }[]> {
      return db.query(
        `UPDATE solicitudes s SET tomada_por = $1, tomada_hasta = now() + make_interval(secs => $2::float8 / 1000), intentos = s.intentos + 1
         WHERE s.numero_solicitud IN (
           SELECT numero_solicitud FROM solicitudes
           WHERE estado = 'PENDIENTE' AND emision_pedida AND proximo_intento <= now() AND (tomada_hasta IS NULL OR tomada_hasta < now())
           ORDER BY proximo_intento LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING s.id, s.intentos, extract(epoch FROM now() - s.proximo_intento)::float8 AS "atrasoSeg"`,
        [worker, leaseMs, limite],
      );
    },
    /** After a failed attempt: releases the claim of `worker` and schedules the next attempt in `enMs`. */
    async reprogramar(id: string, worker: string, enMs: number, error: string): Promise<void> {
      await db.query(
        `UPDATE solicitudes SET tomada_por = NULL, tomada_hasta = NULL, proximo_intento = now() + make_interval(secs => $3::float8 / 1000),
           ultimo_error = $4 WHERE id = $1 AND tomada_por = $2`,
        [id, worker, enMs, error],
      );
    },
    /** Gives the job back without counting it as failed (shutdown before it could finish). */
    async soltar(id: string, worker: string): Promise<void> {
      await db.query(
        'UPDATE solicitudes SET tomada_por = NULL, tomada_hasta = NULL, intentos = greatest(intentos - 1, 0) WHERE id = $1 AND tomada_por = $2',
        [id, worker],
      );
    },
  };
}

/** Issuance of one claimed application, inside one transaction: lock, number, record the policy or reject. */
function emisionQueries(db: Queryable) {
  return {
    /** Locks the application row (SELECT … FOR UPDATE); call inside a transaction. */
    async bloquearParaEmitir(id: string): Promise<SolicitudParaEmitir | null> {
      if (!UUID.test(id)) return null;
      const rows = await db.query<SolicitudParaEmitir>(
        `SELECT s.numero_solicitud AS numero, s.id, s.estado, s.tomada_por AS "tomadaPor", s.ref_id AS "refId", s.cod_plan AS "codPlan",
           s.premio::float8 AS premio, s.medio_pago_id AS "medioPagoId", to_char(c.init_policy_date, 'YYYY-MM-DD') AS "initPolicyDate"
         FROM solicitudes s JOIN cotizaciones c USING (ref_id) WHERE s.id = $1 FOR UPDATE OF s`,
        [id],
      );
      return rows[0] ?? null;
    },
    /** @returns whether quote `refId` already has a (non-legacy) policy */
    async tienePoliza(refId: string): Promise<boolean> {
      return (await db.query('SELECT 1 FROM polizas WHERE ref_id = $1 AND NOT legado', [refId])).length > 0;
    },
    /** Next policy sequence value (sequence poliza_seq). */
    async siguienteNumeroPoliza(): Promise<number> {
      const rows = await db.query<{ n: number }>("SELECT nextval('poliza_seq')::int AS n");
      return rows[0].n;
    },
    /**
     * Records the policy and marks the application EMITIDA (job done).
     * @param vigencia start/end dates (YYYY-MM-DD); `movida` when the start was moved to the issue date
     * @param mensaje shown to the visitor (null for none)
     */
    async registrarPoliza(
      s: SolicitudParaEmitir,
      numSecuPol: string,
      vigencia: { desde: string; hasta: string; movida: boolean },
      mensaje: string | null,
    ): Promise<void> {
      await db.query(
        `INSERT INTO polizas (num_secu_pol, numero_solicitud, ref_id, cod_plan, premio, vigencia_desde, vigencia_hasta, vigencia_movida)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`,
        [numSecuPol, s.numero, s.refId, s.codPlan, s.premio, vigencia.desde, vigencia.hasta, vigencia.movida],
      );
      await db.query(
        `UPDATE solicitudes SET estado = 'EMITIDA', num_secu_pol = $2, mensaje = $3, tomada_por = NULL, tomada_hasta = NULL,
           ultimo_error = NULL, actualizada_en = now() WHERE numero_solicitud = $1`,
        [s.numero, numSecuPol, mensaje],
      );
    },
    /** Marks the application RECHAZADA with the message shown to the visitor (job done). */
    async rechazar(id: string, mensaje: string): Promise<void> {
      await db.query(
        `UPDATE solicitudes SET estado = 'RECHAZADA', mensaje = $2, tomada_por = NULL, tomada_hasta = NULL, actualizada_en = now()
         WHERE id = $1`,
        [id, mensaje],
      );
    },
    /** @returns whether a policy with that number exists */
    async existePoliza(numSecuPol: string): Promise<boolean> {
      return (await db.query('SELECT 1 FROM polizas WHERE num_secu_pol = $1', [numSecuPol])).length > 0;
    },
  };
}
