/**
 * The e-mail outbox (`correos`): every message is a durable job, claimed like emission jobs
 * (FOR UPDATE SKIP LOCKED + lease), so any instance delivers it and a dead instance's claim expires.
 */
import type { Queryable } from '../index.ts';

/** An attachment by reference, rendered at send time. */
export type AdjuntoRef = { tipo: 'poliza'; numSecuPol: string } | { tipo: 'condiciones'; numSecuPol: string } | { tipo: 'cotizacion'; refId: string; enlace?: string };

export interface CorreoNuevo {
  /** What it is: POLIZA, COTIZACION, ARREPENTIMIENTO, BAJA. */
  tipo: string;
  para: string;
  asunto: string;
  texto: string;
  html: string;
  adjuntos: AdjuntoRef[];
}

export type EstadoCorreo = 'PENDIENTE' | 'ENVIADO' | 'LOCAL' | 'FALLIDO';

export interface Correo extends CorreoNuevo {
  id: string;
  creadoEn: string;
  estado: EstadoCorreo;
  intentos: number;
  ultimoError: string | null;
  enviadoEn: string | null;
}

const SELECT = `SELECT id, to_char(creado_en AT TIME ZONE 'America/Argentina/Buenos_Aires', 'YYYY-MM-DD HH24:MI:SS') AS "creadoEn", tipo, para,
  asunto, texto, html, adjuntos, estado, intentos, ultimo_error AS "ultimoError",
  to_char(enviado_en AT TIME ZONE 'America/Argentina/Buenos_Aires', 'YYYY-MM-DD HH24:MI:SS') AS "enviadoEn" FROM correos`;

/** Outbox queries over `db` (the database or a transaction: enqueue inside the transaction that decides to send). */
export function correosRepository(db: Queryable) {
  return {
    /** Queues a message, due now. @returns its id */
    async encolar(c: CorreoNuevo): Promise<string> {
      const rows = await db.query<{ id: string }>(
        'INSERT INTO correos (tipo, para, asunto, texto, html, adjuntos) VALUES ($1,$2,$3,$4,$5,$6) RETURNING id',
        [c.tipo, c.para, c.asunto, c.texto, c.html, JSON.stringify(c.adjuntos)],
      );
      return rows[0].id;
    },
    /** Releases claims whose lease ended. @returns how many */
    async liberarVencidas(): Promise<number> {
      const rows = await db.query("UPDATE correos SET tomada_por = NULL, tomada_hasta = NULL WHERE estado = 'PENDIENTE' AND tomada_hasta < now() RETURNING id");
      return rows.length;
    },
    /** Claims up to `limite` due messages for `worker` for `leaseMs` and counts the attempt. */
    async tomar(worker: string, leaseMs: number, limite: number): Promise<(Correo & { intentos: number })[]> {
      const ids = await db.query<{ id: string }>(
        `UPDATE correos c SET tomada_por = $1, tomada_hasta = now() + make_interval(secs => $2::float8 / 1000), intentos = c.intentos + 1
         WHERE c.id IN (SELECT id FROM correos WHERE estado = 'PENDIENTE' AND proximo_intento <= now() AND (tomada_hasta IS NULL OR tomada_hasta < now())
                        ORDER BY proximo_intento LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING c.id`,
        [worker, leaseMs, limite],
      );
      if (ids.length === 0) return [];
      return db.query(`${SELECT} WHERE id = ANY($1::uuid[])`, [ids.map((r) => r.id)]);
    },
    /** Marks a claimed message done (ENVIADO or LOCAL). */
    async terminar(id: string, worker: string, estado: 'ENVIADO' | 'LOCAL'): Promise<void> {
      await db.query(
        `UPDATE correos SET estado = $3, enviado_en = now(), tomada_por = NULL, tomada_hasta = NULL, ultimo_error = NULL WHERE id = $1 AND tomada_por = $2`,
        [id, worker, estado],
      );
    },
    /** After a failed attempt: next attempt in `enMs`, or FALLIDO when `final`. */
    async fallo(id: string, worker: string, error: string, enMs: number, final: boolean): Promise<void> {
      await db.query(
        `UPDATE correos SET tomada_por = NULL, tomada_hasta = NULL, ultimo_error = $3,
           estado = CASE WHEN $5 THEN 'FALLIDO' ELSE estado END, proximo_intento = now() + make_interval(secs => $4::float8 / 1000)
         WHERE id = $1 AND tomada_por = $2`,
        [id, worker, error, enMs, final],
      );
    },
    /** Gives a claim back without counting it (shutdown). */
    async soltar(id: string, worker: string): Promise<void> {
      await db.query('UPDATE correos SET tomada_por = NULL, tomada_hasta = NULL, intentos = greatest(intentos - 1, 0) WHERE id = $1 AND tomada_por = $2', [id, worker]);
    },
    /** @returns the latest `limite` messages, newest first (development page). */
    async ultimos(limite: number): Promise<Correo[]> {
      return db.query(`${SELECT} ORDER BY creado_en DESC, id LIMIT $1`, [limite]);
    },
    /** @returns one message, or null */
    async get(id: string): Promise<Correo | null> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
      return (await db.query<Correo>(`${SELECT} WHERE id = $1`, [id]))[0] ?? null;
    },
  };
}
export type CorreosRepository = ReturnType<typeof correosRepository>;
