/** Idempotency-Key answers (`idempotencia`), per session and key; estado_http 0 = the first request is in progress. */
import type { Queryable } from '../index.ts';

/** A placeholder older than this is taken to belong to a request that died (its instance stopped). */
export const EN_CURSO_ABANDONADO_S = 60;

export interface RespuestaIdempotente {
  ruta: string;
  huella: string;
  /** 0 while the first request is in progress. */
  estadoHttp: number;
  respuesta: string | null;
}

/** Idempotency records over `db`. */
export function idempotenciaRepository(db: Queryable) {
  return {
    /**
     * Claims (sesion, clave) for a new request: inserts the placeholder, or takes over an abandoned one.
     * @returns true when this request now owns the key
     */
    async reservar(sesion: string, clave: string, ruta: string, huella: string): Promise<boolean> {
      const rows = await db.query(
        `INSERT INTO idempotencia (sesion, clave, ruta, huella) VALUES ($1, $2, $3, $4)
         ON CONFLICT (sesion, clave) DO UPDATE SET ruta = EXCLUDED.ruta, huella = EXCLUDED.huella, creada_en = now()
           WHERE idempotencia.estado_http = 0 AND idempotencia.creada_en < now() - make_interval(secs => $5)
         RETURNING 1`,
        [sesion, clave, ruta, huella, EN_CURSO_ABANDONADO_S],
      );
      return rows.length > 0;
    },
    /** @returns the stored record, or null */
    async get(sesion: string, clave: string): Promise<RespuestaIdempotente | null> {
      const rows = await db.query<RespuestaIdempotente>(
        'SELECT ruta, huella, estado_http AS "estadoHttp", respuesta FROM idempotencia WHERE sesion = $1 AND clave = $2',
        [sesion, clave],
      );
      return rows[0] ?? null;
    },
    /** Stores the first answer (status + JSON text). */
    async completar(sesion: string, clave: string, estadoHttp: number, respuesta: string): Promise<void> {
      await db.query('UPDATE idempotencia SET estado_http = $3, respuesta = $4 WHERE sesion = $1 AND clave = $2', [
        sesion,
        clave,
        estadoHttp,
        respuesta,
      ]);
    },
    /** Drops a placeholder whose request failed (a retry may then run). */
    async liberar(sesion: string, clave: string): Promise<void> {
      await db.query('DELETE FROM idempotencia WHERE sesion = $1 AND clave = $2 AND estado_http = 0', [sesion, clave]);
    },
  };
}
export type IdempotenciaRepository = ReturnType<typeof idempotenciaRepository>;
