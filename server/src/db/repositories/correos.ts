/**
 * The e-mail outbox (`correos`): every message is a durable job, claimed like emission jobs
 * (FOR UPDATE SKIP LOCKED + lease), so any instance delivers it and a dead instance's claim expires. Each claim increments
 * `version`, a fencing token: renewals, failures and hand-backs of an older claim change nothing, while a "sent" is
 * recorded whichever claim reports it (domain/correo/outbox.ts explains the guarantees).
 */
import type { Queryable } from '../index.ts';

/** An attachment by reference, rendered at send time. */
export type AdjuntoRef =
  | { tipo: 'poliza'; numSecuPol: string }
  | { tipo: 'condiciones'; numSecuPol: string }
  | { tipo: 'cotizacion'; refId: string; enlace?: string };

export interface CorreoNuevo {
  /** What it is: POLIZA, COTIZACION, ARREPENTIMIENTO, BAJA. */
  tipo: string;
  para: string;
  asunto: string;
  texto: string;
  html: string;
  adjuntos: AdjuntoRef[];
}

/** The outbox's depth (metrics). */
export interface Bandeja {
  pendientes: number;
  /** Age of the oldest PENDIENTE message, s (0 when none). */
  masViejoSeg: number;
  fallidos: number;
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

/** A dead letter put back in the queue. */
export type CorreoReencolado = Pick<Correo, 'id' | 'tipo' | 'asunto' | 'creadoEn' | 'ultimoError'>;

/** A claimed message with its claim's fencing token. */
export interface CorreoTomado extends Correo {
  version: number;
}

const SELECT = `SELECT id, to_char(creado_en AT TIME ZONE 'America/Argentina/Buenos_Aires', 'YYYY-MM-DD HH24:MI:SS') AS "creadoEn", tipo, para,
  asunto, texto, html, adjuntos, estado, intentos, ultimo_error AS "ultimoError",
  to_char(enviado_en AT TIME ZONE 'America/Argentina/Buenos_Aires', 'YYYY-MM-DD HH24:MI:SS') AS "enviadoEn" FROM correos`;

/**
 * Outbox queries over `db` (the database or a transaction: enqueue inside the transaction that decides to send): the
 * delivery queue's claims, and what operators and metrics read of the outbox.
 */
export function correosRepository(db: Queryable) {
  return { ...entregaQueries(db), ...bandejaQueries(db) };
}
export type CorreosRepository = ReturnType<typeof correosRepository>;

/** Delivery: queue a message, claim it with a lease and a fencing token, and record how its attempt ended. */
function entregaQueries(db: Queryable) {
  return {
    /** Queues a message, due now. @returns its id */
    async encolar(c: CorreoNuevo): Promise<string> {
      const rows = await db.query<{ id: string }>(
        'INSERT INTO correos (tipo, para, asunto, texto, html, adjuntos) VALUES ($1,$2,$3,$4,$5,$6) RETURNING id',
        [c.tipo, c.para, c.asunto, c.texto, c.html, JSON.stringify(c.adjuntos)],
      );
      return rows[0].id;
    },
    /**
     * Claims up to `limite` due messages (PENDIENTE, `proximo_intento` reached, unclaimed or with an expired lease) for
     * `worker` for `leaseMs`, counting the attempt and incrementing the fencing token `version`.
     * @returns the claimed messages, each with the `version` its holder must present afterwards
     */
    async tomar(worker: string, leaseMs: number, limite: number): Promise<CorreoTomado[]> {
      const ids = await db.query<{ id: string; version: number }>(
        `UPDATE correos c SET tomada_por = $1, tomada_hasta = now() + make_interval(secs => $2::float8 / 1000), intentos = c.intentos + 1,
           version = c.version + 1
         WHERE c.id IN (SELECT id FROM correos WHERE estado = 'PENDIENTE' AND proximo_intento <= now() AND (tomada_hasta IS NULL OR tomada_hasta < now())
                        ORDER BY proximo_intento LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING c.id, c.version`,
        [worker, leaseMs, limite],
      );
      if (ids.length === 0) return [];
      const version = new Map(ids.map((r) => [r.id, r.version]));
      const rows = await db.query<Correo>(`${SELECT} WHERE id = ANY($1::uuid[])`, [[...version.keys()]]);
      return rows.map((c) => ({ ...c, version: version.get(c.id) as number })); // the version this claim set, whatever happened since
    },
    /**
     * Extends the claim `version` (still PENDIENTE and still this version) by `leaseMs` from now: a live holder keeps its
     * message while the SMTP server is slow. @returns false when the claim is no longer this holder's
     */
    async renovar(id: string, version: number, leaseMs: number): Promise<boolean> {
      const rows = await db.query(
        `UPDATE correos SET tomada_hasta = now() + make_interval(secs => $3::float8 / 1000) WHERE id = $1 AND version = $2 AND estado = 'PENDIENTE' AND tomada_hasta IS NOT NULL RETURNING id`,
        [id, version, leaseMs],
      );
      return rows.length > 0;
    },
    /**
     * Records that the message was handed over (ENVIADO) or kept (LOCAL), whatever claim sent it: a late "sent" from an
     * earlier claim still counts (the message WAS sent; it must not go again), also over a dead letter. A message
     * already ENVIADO/LOCAL keeps its first record. @returns false when it was already recorded
     */
    async terminar(id: string, version: number, estado: 'ENVIADO' | 'LOCAL'): Promise<boolean> {
      const rows = await db.query(
        `UPDATE correos SET estado = $3, enviado_en = now(), tomada_por = NULL, tomada_hasta = NULL, ultimo_error = NULL,
           version = greatest(version, $2)
         WHERE id = $1 AND estado IN ('PENDIENTE', 'FALLIDO') RETURNING id`,
        [id, version, estado],
      );
      return rows.length > 0;
    },
    /**
     * After a failed attempt of claim `version`: next attempt in `enMs`, or FALLIDO (dead letter) once the message was
     * queued `vidaMaxMs` ago or more (database clock). A stale failure (a newer claim exists, or the message is no longer
     * PENDIENTE) changes nothing. @returns the new state, or null when stale
     */
    async fallo(id: string, version: number, error: string, enMs: number, vidaMaxMs: number): Promise<'PENDIENTE' | 'FALLIDO' | null> {
      const rows = await db.query<{ estado: 'PENDIENTE' | 'FALLIDO' }>(
        `UPDATE correos SET tomada_por = NULL, tomada_hasta = NULL, ultimo_error = $3,
           estado = CASE WHEN encolado_en + make_interval(secs => $5::float8 / 1000) <= now() THEN 'FALLIDO' ELSE 'PENDIENTE' END,
           proximo_intento = now() + make_interval(secs => $4::float8 / 1000)
         WHERE id = $1 AND version = $2 AND estado = 'PENDIENTE' RETURNING estado`,
        [id, version, error, enMs, vidaMaxMs],
      );
      return rows[0]?.estado ?? null;
    },
    /** Gives claim `version` back without counting it (shutdown); no-op when stale. */
    async soltar(id: string, version: number): Promise<void> {
      await db.query(
        "UPDATE correos SET tomada_por = NULL, tomada_hasta = NULL, intentos = greatest(intentos - 1, 0) WHERE id = $1 AND version = $2 AND estado = 'PENDIENTE'",
        [id, version],
      );
    },
  };
}

/** The outbox as operators see it: dead letters, depth, requeueing, the latest messages. */
function bandejaQueries(db: Queryable) {
  return {
    /** @returns how many dead letters (FALLIDO) the outbox holds (GET /api/health/ready). */
    async contarFallidos(): Promise<number> {
      const [r] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM correos WHERE estado = 'FALLIDO'");
      return r.n;
    },
    /**
     * The outbox as the metrics gauges read it, in one round trip.
     * @returns PENDIENTE messages, the age of the oldest one (s, 0 when none) and dead letters (FALLIDO)
     */
    async bandeja(): Promise<Bandeja | null> {
      const [fila] = await db.query<Bandeja>(
        `SELECT count(*) FILTER (WHERE estado = 'PENDIENTE')::int AS pendientes,
           coalesce(extract(epoch FROM now() - min(creado_en) FILTER (WHERE estado = 'PENDIENTE')), 0)::float8 AS "masViejoSeg",
           count(*) FILTER (WHERE estado = 'FALLIDO')::int AS fallidos
         FROM correos WHERE estado IN ('PENDIENTE', 'FALLIDO')`,
      );
      return fila ?? null;
    },
    /**
     * Puts dead letters back in the queue, due now, with a fresh age and attempt count (`npm run correo:reencolar`).
     * @param cual `{ id }` one message (only if FALLIDO) or `{ todos: true }` every FALLIDO one
     * @returns the requeued messages (id, tipo, asunto, creadoEn, ultimoError), oldest first
     */
    async reencolar(cual: { id: string } | { todos: true }): Promise<CorreoReencolado[]> {
      const id = 'id' in cual ? cual.id : null;
      if (id !== null && !/^[0-9a-f-]{36}$/i.test(id)) return [];
      const rows = await db.query<CorreoReencolado>(
        `UPDATE correos SET estado = 'PENDIENTE', proximo_intento = now(), encolado_en = now(), intentos = 0, tomada_por = NULL, tomada_hasta = NULL
         WHERE estado = 'FALLIDO' AND ($1::uuid IS NULL OR id = $1::uuid)
         RETURNING id, tipo, asunto, to_char(creado_en AT TIME ZONE 'America/Argentina/Buenos_Aires', 'YYYY-MM-DD HH24:MI:SS') AS "creadoEn",
           ultimo_error AS "ultimoError"`,
        [id],
      );
      return rows.sort((a, b) => a.creadoEn.localeCompare(b.creadoEn) || a.id.localeCompare(b.id));
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
