/** Leads (`contactos`, POST /cotizacion/info) and campaign parameters (`campanias`, POST /cotizacion/insertar-campa-solnoc). */
import type { Queryable } from '../index.ts';

export interface ContactoNuevo {
  email: string;
  prefijo?: string;
  telefono?: string;
  app?: string;
  hash?: string;
  navegador?: string;
  version?: string;
}

/** Campaign parameters captured from the landing URL (SPEC §3 › Campaign parameters stored). */
export interface CampaniaNueva {
  refId?: string;
  gclid?: string;
  gad_source?: string;
  gad_campaignid?: string;
  url_campaign?: string;
  fbclid?: string;
  utm_campaign?: string;
}

/** Lead and campaign inserts over `db`. */
export function contactosRepository(db: Queryable) {
  return {
    /** @returns the new lead id */
    async insertContacto(c: ContactoNuevo): Promise<number> {
      const rows = await db.query<{ id: number }>(
        'INSERT INTO contactos (email, prefijo, telefono, app, hash, navegador, version) VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING id',
        [c.email, c.prefijo ?? null, c.telefono ?? null, c.app ?? null, c.hash ?? null, c.navegador ?? null, c.version ?? null],
      );
      return rows[0].id;
    },
    /** @returns the new campaign record id */
    async insertCampania(c: CampaniaNueva): Promise<number> {
      const rows = await db.query<{ id: number }>(
        `INSERT INTO campanias (ref_id, gclid, gad_source, gad_campaignid, url_campaign, fbclid, utm_campaign)
         VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING id`,
        [
          c.refId ?? null,
          c.gclid ?? null,
          c.gad_source ?? null,
          c.gad_campaignid ?? null,
          c.url_campaign ?? null,
          c.fbclid ?? null,
          c.utm_campaign ?? null,
        ],
      );
      return rows[0].id;
    },
  };
}
export type ContactosRepository = ReturnType<typeof contactosRepository>;
