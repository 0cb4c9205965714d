/** Tokenised payment methods (`medios_pago`): the number only encrypted (see domain/pagos/vault.ts) plus its masked form. */
import type { Queryable } from '../index.ts';

export interface MedioPago {
  id: string;
  refId: string;
  tipo: 'TC' | 'CBU';
  marca: string | null;
  bancoCodigo: string | null;
  ultimos4: string;
  mascara: string;
  descripcion: string;
  titular: string | null;
  vencimiento: string | null;
  /** AES-256-GCM stored form; never the clear number. */
  numeroCifrado: string;
}

/** Tokenised payment methods over `db`; rows hold only the encrypted number. */
export function mediosPagoRepository(db: Queryable) {
  return {
    async insert(m: MedioPago): Promise<void> {
      await db.query(
        `INSERT INTO medios_pago (id, ref_id, tipo, marca, banco_codigo, ultimos4, mascara, descripcion, titular, vencimiento, numero_cifrado)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`,
        [m.id, m.refId, m.tipo, m.marca, m.bancoCodigo, m.ultimos4, m.mascara, m.descripcion, m.titular, m.vencimiento, m.numeroCifrado],
      );
    },
    /** @returns the payment method, or null when unknown (or `id` is not a UUID) */
    async get(id: string): Promise<MedioPago | null> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
      const rows = await db.query<MedioPago>(
        `SELECT id, ref_id AS "refId", tipo, marca, banco_codigo AS "bancoCodigo", ultimos4, mascara, descripcion, titular, vencimiento,
           numero_cifrado AS "numeroCifrado" FROM medios_pago WHERE id = $1`,
        [id],
      );
      return rows[0] ?? null;
    },
  };
}
export type MediosPagoRepository = ReturnType<typeof mediosPagoRepository>;
