/**
 * Withdrawal and cancellation requests (`tramites`, one per policy and type, each with its tracking code) and the
 * audit row of every after-sale request (`tramites_auditoria`, whatever its answer). Dates are YYYY-MM-DD; the day of
 * a request is Argentina's.
 */
import type { Queryable } from '../types.ts';

export type TipoTramite = 'ARREPENTIMIENTO' | 'BAJA';
/** What the audit records of an after-sale request. */
export type TipoAuditado = TipoTramite | 'CONSULTA';

/** A request found by its tracking code, with its policy's state. */
export interface TramiteConsultado {
  codigo: string;
  tipo: TipoTramite;
  numSecuPol: string;
  /** The policy's state now. */
  estado: string;
  fechaEfectiva: string;
  /** Day of the request. */
  fecha: string;
  /** Day the policy was issued. */
  emitida: string;
}

/** One audit row (see routes/postventa). */
export interface Auditoria {
  tipo: TipoAuditado;
  numSecuPol: string | null;
  codigo: string | null;
  estadoHttp: number;
  ip: string;
  /** At most 400 characters. */
  userAgent: string | null;
}

/** Requests and their audit over `db` (the database or a transaction). */
export function tramitesRepository(db: Queryable) {
  return {
    /** @returns the earlier request of type `tipo` on `numSecuPol` (its code and effective date), or null */
    async previo(numSecuPol: string, tipo: TipoTramite): Promise<{ codigo: string; fecha: string } | null> {
      const [t] = await db.query<{ codigo: string; fecha: string }>(
        `SELECT codigo, to_char(fecha_efectiva, 'YYYY-MM-DD') AS fecha FROM tramites WHERE num_secu_pol = $1 AND tipo = $2`,
        [numSecuPol, tipo],
      );
      return t ?? null;
    },

    /** Records a request with its tracking code and effective date (YYYY-MM-DD). */
    async insertar(codigo: string, tipo: TipoTramite, numSecuPol: string, fechaEfectiva: string): Promise<void> {
      await db.query('INSERT INTO tramites (codigo, tipo, num_secu_pol, fecha_efectiva) VALUES ($1, $2, $3, $4)', [
        codigo,
        tipo,
        numSecuPol,
        fechaEfectiva,
      ]);
    },

    /**
     * The request with tracking code `codigo` when `dato` is its holder's e-mail (`porEmail`, case-insensitive) or
     * DNI (digits). @returns null when the code is unknown or the datum does not match
     */
    async consultar(codigo: string, dato: string, porEmail: boolean): Promise<TramiteConsultado | null> {
      const [t] = await db.query<TramiteConsultado>(
        `SELECT t.codigo, t.tipo, t.num_secu_pol AS "numSecuPol", p.estado, to_char(t.fecha_efectiva, 'YYYY-MM-DD') AS "fechaEfectiva",
           to_char(t.creado_en AT TIME ZONE 'America/Argentina/Buenos_Aires', 'YYYY-MM-DD') AS fecha,
           to_char(p.emitida_en AT TIME ZONE 'America/Argentina/Buenos_Aires', 'YYYY-MM-DD') AS emitida
         FROM tramites t JOIN polizas p ON p.num_secu_pol = t.num_secu_pol JOIN solicitudes s ON s.numero_solicitud = p.numero_solicitud
         WHERE t.codigo = $1 AND ${porEmail ? "lower(s.persona->>'email') = lower($2)" : "s.persona->>'numberDoc' = $2"}`,
        [codigo, dato],
      );
      return t ?? null;
    },

    /** @returns every request on `numSecuPol` (code and type; the development pages) */
    delPoliza(numSecuPol: string): Promise<{ codigo: string; tipo: TipoTramite }[]> {
      return db.query<{ codigo: string; tipo: TipoTramite }>('SELECT codigo, tipo FROM tramites WHERE num_secu_pol = $1', [numSecuPol]);
    },

    /** Appends one audit row. */
    async auditar(a: Auditoria): Promise<void> {
      await db.query(
        'INSERT INTO tramites_auditoria (tipo, num_secu_pol, codigo, estado_http, ip, user_agent) VALUES ($1, $2, $3, $4, $5, $6)',
        [a.tipo, a.numSecuPol, a.codigo, a.estadoHttp, a.ip, a.userAgent],
      );
    },
  };
}
export type TramitesRepository = ReturnType<typeof tramitesRepository>;
