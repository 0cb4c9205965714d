/** Purchase applications (`solicitudes`) and issued policies (`polizas`). */
import type { Plan } from '../../domain/rating/engine.ts';
import type { Queryable } from '../index.ts';
import type { Domicilio } from './domicilios.ts';
import type { Persona } from './personas.ts';

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
  numeroSolicitud: number;
  estado: EstadoSolicitud;
  emisionPedida: boolean;
  numSecuPol: string | null;
  mensaje: string | null;
}

/** Row locked for issuance. */
export interface SolicitudParaEmitir extends EstadoEmision {
  refId: string;
  codPlan: string;
  premio: number;
  medioPagoId: string;
  initPolicyDate: string;
}

const ESTADO = `numero_solicitud AS "numeroSolicitud", estado, emision_pedida AS "emisionPedida", num_secu_pol AS "numSecuPol", mensaje`;

/** Application and policy queries over `db`; the issuance steps must run inside one transaction. */
export function solicitudesRepository(db: Queryable) {
  return {
    /** @returns numeroSolicitud (from sequence numero_solicitud_seq) */
    async insert(s: SolicitudNueva): Promise<number> {
      const rows = await db.query<{ n: number }>(
        `INSERT INTO solicitudes (ref_id, cod_plan, coberturas_opcionales, plan, premio, medio_pago_id, persona, domicilio)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8) RETURNING numero_solicitud AS n`,
        [s.refId, s.codPlan, JSON.stringify(s.coberturasOpcionales), JSON.stringify(s.plan), s.plan.premio, s.medioPagoId,
          JSON.stringify(s.persona), JSON.stringify(s.domicilio)],
      );
      return rows[0].n;
    },
    /** @returns the state, or null when the application does not exist */
    async estado(numeroSolicitud: number): Promise<EstadoEmision | null> {
      const rows = await db.query<EstadoEmision>(`SELECT ${ESTADO} FROM solicitudes WHERE numero_solicitud = $1`, [numeroSolicitud]);
      return rows[0] ?? null;
    },
    /** Flags the application for issuance (idempotent). @returns its state, or null when it does not exist */
    async pedirEmision(numeroSolicitud: number): Promise<EstadoEmision | null> {
      const rows = await db.query<EstadoEmision>(
        `UPDATE solicitudes SET emision_pedida = true, actualizada_en = now() WHERE numero_solicitud = $1 RETURNING ${ESTADO}`,
        [numeroSolicitud],
      );
      return rows[0] ?? null;
    },
    /** Applications whose issuance was requested and has not finished (resumed at start-up). */
    async pendientesDeEmision(): Promise<number[]> {
      const rows = await db.query<{ n: number }>(
        "SELECT numero_solicitud AS n FROM solicitudes WHERE estado = 'PENDIENTE' AND emision_pedida ORDER BY numero_solicitud",
      );
      return rows.map((r) => r.n);
    },
    /** Locks the application row (SELECT … FOR UPDATE); call inside a transaction. */
    async bloquearParaEmitir(numeroSolicitud: number): Promise<SolicitudParaEmitir | null> {
      const rows = await db.query<SolicitudParaEmitir>(
        `SELECT ${ESTADO}, s.ref_id AS "refId", s.cod_plan AS "codPlan", s.premio::float8 AS premio, s.medio_pago_id AS "medioPagoId",
           to_char(c.init_policy_date, 'YYYY-MM-DD') AS "initPolicyDate"
         FROM solicitudes s JOIN cotizaciones c USING (ref_id) WHERE numero_solicitud = $1 FOR UPDATE OF s`,
        [numeroSolicitud],
      );
      return rows[0] ?? null;
    },
    /** Next policy sequence value (sequence poliza_seq). */
    async siguienteNumeroPoliza(): Promise<number> {
      const rows = await db.query<{ n: number }>("SELECT nextval('poliza_seq')::int AS n");
      return rows[0].n;
    },
    /** Records the policy and marks the application EMITIDA. */
    async registrarPoliza(s: SolicitudParaEmitir, numSecuPol: string, vigenciaHasta: string): Promise<void> {
      await db.query(
        `INSERT INTO polizas (num_secu_pol, numero_solicitud, ref_id, cod_plan, premio, vigencia_desde, vigencia_hasta)
         VALUES ($1,$2,$3,$4,$5,$6,$7)`,
        [numSecuPol, s.numeroSolicitud, s.refId, s.codPlan, s.premio, s.initPolicyDate, vigenciaHasta],
      );
      await db.query(
        "UPDATE solicitudes SET estado = 'EMITIDA', num_secu_pol = $2, mensaje = NULL, actualizada_en = now() WHERE numero_solicitud = $1",
        [s.numeroSolicitud, numSecuPol],
      );
    },
    /** Marks the application RECHAZADA with the message shown to the visitor. */
    async rechazar(numeroSolicitud: number, mensaje: string): Promise<void> {
      await db.query("UPDATE solicitudes SET estado = 'RECHAZADA', mensaje = $2, actualizada_en = now() WHERE numero_solicitud = $1", [
        numeroSolicitud, mensaje,
      ]);
    },
    /** @returns whether a policy with that number exists */
    async existePoliza(numSecuPol: string): Promise<boolean> {
      return (await db.query('SELECT 1 FROM polizas WHERE num_secu_pol = $1', [numSecuPol])).length > 0;
    },
  };
}
export type SolicitudesRepository = ReturnType<typeof solicitudesRepository>;
