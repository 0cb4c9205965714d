/**
 * Issued policies (`polizas`) as the after-sale service reads them: the data of the policy document and e-mail, the
 * stored PDF, the lock a withdrawal or cancellation takes, and the state change it makes. Dates are YYYY-MM-DD;
 * the day of issue and of a request are Argentina's (America/Argentina/Buenos_Aires), the vigencia dates are dates.
 * Issuing a policy is solicitudes.ts › registrarPoliza.
 */
import type { Plan } from '../../domain/rating/engine.ts';
import type { Queryable } from '../types.ts';
import type { Domicilio } from './domicilios.ts';
import type { Persona } from './personas.ts';

/** What the policy document, its e-mail and its conditions show. */
export interface DatosPoliza {
  numSecuPol: string;
  /** Day of issue (Argentina). */
  emitida: string;
  /** Vigencia from / to. */
  desde: string;
  hasta: string;
  persona: Persona;
  domicilio: Domicilio;
  plan: Plan;
  /** The payment method's masked description ("VISA terminada en 4242"). */
  medio: string;
}

/** The stored document and the state it must be marked with. */
export interface DocumentoPoliza {
  /** The PDF made on first download (null until then). */
  pdf: Uint8Array | null;
  estado: string;
  /** Since when the state holds (null while VIGENTE). */
  desde: string | null;
  /** Day of the first withdrawal/cancellation request (Argentina), null when none. */
  pedido: string | null;
}

/** A policy locked for a withdrawal or cancellation request. */
export interface PolizaParaTramite {
  numSecuPol: string;
  estado: string;
  emitida: string;
  /** Vigencia from. */
  desde: string;
  persona: Persona;
}

const DIA_AR = (columna: string) => `to_char(${columna} AT TIME ZONE 'America/Argentina/Buenos_Aires', 'YYYY-MM-DD')`;

/** After-sale reads and writes of policies over `db` (the database or a transaction). */
export function polizasRepository(db: Queryable) {
  return {
    /** @returns the document's data of policy `numSecuPol`, or null when it does not exist */
    async datos(numSecuPol: string): Promise<DatosPoliza | null> {
      const rows = await db.query<DatosPoliza>(
        `SELECT p.num_secu_pol AS "numSecuPol", ${DIA_AR('p.emitida_en')} AS emitida,
           to_char(p.vigencia_desde, 'YYYY-MM-DD') AS desde, to_char(p.vigencia_hasta, 'YYYY-MM-DD') AS hasta, s.persona, s.domicilio, s.plan, m.descripcion AS medio
         FROM polizas p JOIN solicitudes s ON s.numero_solicitud = p.numero_solicitud JOIN medios_pago m ON m.id = s.medio_pago_id
         WHERE p.num_secu_pol = $1`,
        [numSecuPol],
      );
      return rows[0] ?? null;
    },

    /** @returns the stored PDF of `numSecuPol` with its state and the day of the first request, or null */
    async documento(numSecuPol: string): Promise<DocumentoPoliza | null> {
      const rows = await db.query<DocumentoPoliza>(
        `SELECT p.pdf, p.estado, to_char(p.estado_desde, 'YYYY-MM-DD') AS desde,
           (SELECT ${DIA_AR('min(t.creado_en)')} FROM tramites t WHERE t.num_secu_pol = p.num_secu_pol) AS pedido
         FROM polizas p WHERE p.num_secu_pol = $1`,
        [numSecuPol],
      );
      return rows[0] ?? null;
    },

    /** Stores `pdf` as the document of `numSecuPol` unless one is stored already (the first writer wins). */
    async guardarPdf(numSecuPol: string, pdf: Buffer): Promise<void> {
      await db.query('UPDATE polizas SET pdf = $2 WHERE num_secu_pol = $1 AND pdf IS NULL', [numSecuPol, pdf]);
    },

    /**
     * Locks (FOR UPDATE, inside a transaction) the policy `numSecuPol` when its holder's DNI is `dni` and e-mail is
     * `email` (case-insensitive). @returns null when no policy matches all three
     */
    async bloquearParaTramite(numSecuPol: string, dni: string, email: string): Promise<PolizaParaTramite | null> {
      const [p] = await db.query<PolizaParaTramite>(
        `SELECT p.num_secu_pol AS "numSecuPol", p.estado, ${DIA_AR('p.emitida_en')} AS emitida,
           to_char(p.vigencia_desde, 'YYYY-MM-DD') AS desde, s.persona
         FROM polizas p JOIN solicitudes s ON s.numero_solicitud = p.numero_solicitud
         WHERE p.num_secu_pol = $1 AND s.persona->>'numberDoc' = $2 AND lower(s.persona->>'email') = lower($3) FOR UPDATE OF p`,
        [numSecuPol, dni, email],
      );
      return p ?? null;
    },

    /** Sets the state of `numSecuPol` (ANULADA or BAJA) from `desde` (YYYY-MM-DD). */
    async cambiarEstado(numSecuPol: string, estado: 'ANULADA' | 'BAJA', desde: string): Promise<void> {
      await db.query('UPDATE polizas SET estado = $2, estado_desde = $3 WHERE num_secu_pol = $1', [numSecuPol, estado, desde]);
    },

    /** @returns the state of `numSecuPol` and since when (null while VIGENTE), or null when it does not exist */
    async estado(numSecuPol: string): Promise<{ estado: string; estadoDesde: string | null } | null> {
      const [p] = await db.query<{ estado: string; estadoDesde: string | null }>(
        `SELECT estado, to_char(estado_desde, 'YYYY-MM-DD') AS "estadoDesde" FROM polizas WHERE num_secu_pol = $1`,
        [numSecuPol],
      );
      return p ?? null;
    },
  };
}
export type PolizasRepository = ReturnType<typeof polizasRepository>;
