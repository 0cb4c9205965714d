/** All repositories over one `Queryable` (the database, or a transaction). */
import type { Queryable } from '../index.ts';
import { contactosRepository } from './contactos.ts';
import { cotizacionesRepository } from './cotizaciones.ts';
import { domiciliosRepository } from './domicilios.ts';
import { embudoRepository } from './embudo.ts';
import { idempotenciaRepository } from './idempotencia.ts';
import { limitesRepository } from './limites.ts';
import { logsRepository } from './logs.ts';
import { mediosPagoRepository } from './medios-pago.ts';
import { personasRepository } from './personas.ts';
import { solicitudesRepository } from './solicitudes.ts';

/** @returns every repository bound to `db` (pass a transaction to group writes). */
export function createRepositories(db: Queryable) {
  return {
    cotizaciones: cotizacionesRepository(db),
    contactos: contactosRepository(db),
    personas: personasRepository(db),
    domicilios: domiciliosRepository(db),
    mediosPago: mediosPagoRepository(db),
    solicitudes: solicitudesRepository(db),
    logs: logsRepository(db),
    embudo: embudoRepository(db),
    idempotencia: idempotenciaRepository(db),
    limites: limitesRepository(db),
  };
}
export type Repositories = ReturnType<typeof createRepositories>;
