/** Front-end business logs (`logs`, POST /logs/insertar-log-ok; e.g. the campaign click log of SPEC §7). */
import type { Queryable } from '../index.ts';

export interface LogNuevo {
  app: string;
  proceso: string;
  proceso_detalle: string;
  dni?: string;
  id_cif?: string;
  id_extra?: string;
  poliza?: string;
  hash?: string;
  navegador?: string;
  version?: string;
  /** Already serialised and redacted text. */
  request?: string;
  response?: string;
}

/** Business-log inserts over `db`. */
export function logsRepository(db: Queryable) {
  return {
    /** @returns the new log id */
    async insert(l: LogNuevo): Promise<number> {
      const rows = await db.query<{ id: number }>(
        `INSERT INTO logs (app, proceso, proceso_detalle, dni, id_cif, id_extra, poliza, hash, navegador, version, request, response)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) RETURNING id`,
        [
          l.app,
          l.proceso,
          l.proceso_detalle,
          l.dni ?? null,
          l.id_cif ?? null,
          l.id_extra ?? null,
          l.poliza ?? null,
          l.hash ?? null,
          l.navegador ?? null,
          l.version ?? null,
          l.request ?? null,
          l.response ?? null,
        ],
      );
      return rows[0].id;
    },
  };
}
export type LogsRepository = ReturnType<typeof logsRepository>;
