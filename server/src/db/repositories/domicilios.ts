/** Risk addresses (`domicilios`) and address rejections (`rechazos`, POST /domicilio/rechaza-domicilio). */
import type { Queryable } from '../index.ts';

/** Body of POST /domicilio/insertar-domicilio (SPEC §3 › Address). */
export interface Domicilio {
  zipCode: string;
  codLocation: string;
  location: string;
  idProvince: string;
  province: string;
  department: string;
  addressName: string;
  numberAddress?: string;
  noAddressNumber: boolean;
  floor?: string;
  depto?: string;
  checkTyC: boolean;
}

/** Address and rejection inserts over `db`. */
export function domiciliosRepository(db: Queryable) {
  return {
    /** @param zona tariff zone of `codLocation` @returns idDom */
    async insert(refId: string, d: Domicilio, zona: string): Promise<number> {
      const rows = await db.query<{ id: number }>(
        `INSERT INTO domicilios (ref_id, zip_code, cod_location, location, id_province, province, department, address_name,
           number_address, no_address_number, floor, depto, check_tyc, zona)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14) RETURNING id`,
        [
          refId,
          d.zipCode.toUpperCase(),
          d.codLocation,
          d.location,
          d.idProvince,
          d.province,
          d.department,
          d.addressName,
          d.noAddressNumber ? null : (d.numberAddress ?? null),
          d.noAddressNumber,
          d.floor ?? null,
          d.depto ?? null,
          d.checkTyC,
          zona,
        ],
      );
      return rows[0].id;
    },
    /** Records that the visitor rejected the address step (e.g. zone change made the premio go up). */
    async insertRechazo(refId: string, motivo: string): Promise<number> {
      const rows = await db.query<{ id: number }>('INSERT INTO rechazos (ref_id, motivo) VALUES ($1, $2) RETURNING id', [refId, motivo]);
      return rows[0].id;
    },
  };
}
export type DomiciliosRepository = ReturnType<typeof domiciliosRepository>;
