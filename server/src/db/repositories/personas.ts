/** Buyer's personal data (`personas`, the reference stand-in for the CRM record of POST /salesforce/insertar-datos). */
import { texto } from '../../domain/postventa/textos.ts';
import type { Queryable } from '../index.ts';

/** Version of the Ley 25.326 text the visitor accepted (src/i18n/es.json › legal.datosPersonales.version). */
export const VERSION_CONSENTIMIENTO = texto('legal.datosPersonales.version');

export interface Ddjj {
  actividad: string;
  /** Lavado de dinero y financiamiento del terrorismo: sujeto obligado (UIF, Ley 25.246). */
  lyt: boolean;
  /** Persona expuesta políticamente (UIF). */
  ppe: boolean;
}

export interface Persona {
  firstName: string;
  lastName: string;
  typeDoc: string;
  numberDoc: string;
  genere: string;
  birthDate: string;
  email: string;
  areaCod: string;
  phoneNumber: string;
  ddjj: Ddjj;
  /** Ley 25.326 express consent (always true on the wire; stored as its time and text version). */
  consentimientoDatos?: boolean;
}

/** Person inserts over `db`. */
export function personasRepository(db: Queryable) {
  return {
    /** @returns the CRM id, "SF-" + the row id zero-padded to 6 digits (e.g. "SF-000123") */
    async insert(refId: string, p: Persona): Promise<string> {
      const rows = await db.query<{ id: number }>(
        `INSERT INTO personas (ref_id, first_name, last_name, type_doc, number_doc, genere, birth_date, email, area_cod, phone_number, ddjj,
           consentimiento_en, consentimiento_version)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11, CASE WHEN $12 THEN now() END, CASE WHEN $12 THEN $13 END) RETURNING id`,
        [
          refId,
          p.firstName,
          p.lastName,
          p.typeDoc,
          p.numberDoc,
          p.genere,
          p.birthDate,
          p.email,
          p.areaCod,
          p.phoneNumber,
          JSON.stringify(p.ddjj),
          p.consentimientoDatos === true,
          VERSION_CONSENTIMIENTO,
        ],
      );
      return `SF-${String(rows[0].id).padStart(6, '0')}`;
    },
  };
}
export type PersonasRepository = ReturnType<typeof personasRepository>;
