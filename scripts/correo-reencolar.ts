/**
 * `npm run correo:reencolar -- --id <uuid> | --todos`: puts the outbox's dead letters (correos FALLIDO: still failing
 * after CORREO_VIDA_MAX_HORAS) back in the queue, due now, with a fresh age and attempt count; the running instances
 * send them at their next round (CORREO_POLL_MS). Works on the database the API uses — DATABASE_URL, else the embedded
 * PGlite under DATA_DIR (default ./data; stop the API first: that folder is locked to one process, and the API sends
 * them when it starts again).
 * Prints one line per requeued message (id, kind, subject, created, last error) and the total; a FALLIDO message only
 * (`--id` of a message in another state requeues nothing). Exit code 1 with a Spanish message on a bad argument, an
 * unreachable database, or `--id` that requeued nothing.
 */
import { parseArgs } from 'node:util';
import { correosRepository, type CorreoReencolado } from '../server/src/db/repositories/correos.ts';
import { abrirBaseDelEntorno } from './abrir-base.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One printed line per requeued message, then the total. */
export function formatReencolados(rows: CorreoReencolado[]): string {
  const lineas = rows.map((r) => `${r.id}  ${r.tipo}  «${r.asunto}»  creado ${r.creadoEn}  último error: ${r.ultimoError ?? '—'}`);
  const total = rows.length === 1 ? '1 correo reencolado.' : `${rows.length} correos reencolados.`;
  return [...lineas, total].join('\n');
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { id: { type: 'string' }, todos: { type: 'boolean' } }, strict: true });
  if ((values.id === undefined) === (values.todos !== true))
    throw new Error('Indicá --id <uuid> (un correo) o --todos (todos los FALLIDO), uno de los dos.');
  if (values.id !== undefined && !UUID.test(values.id))
    throw new Error(`--id tiene que ser el id (uuid) de un correo (vale "${values.id}").`);
  const db = await abrirBaseDelEntorno();
  try {
    const rows = await correosRepository(db).reencolar(values.id !== undefined ? { id: values.id } : { todos: true });
    process.stdout.write(`${formatReencolados(rows)}\n`);
    if (values.id !== undefined && rows.length === 0) {
      console.error(`El correo ${values.id} no está FALLIDO (o no existe): no se reencoló.`);
      return 1;
    }
    return 0;
  } finally {
    await db.close();
  }
}

if (import.meta.main) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error((err as Error).message);
      process.exit(1);
    },
  );
}
