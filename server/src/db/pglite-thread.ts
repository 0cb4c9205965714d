/**
 * PGlite on its own thread (worker_threads; the worker is pglite-worker.ts): the same `Db` port as the in-process
 * adapter, but PostgreSQL's work (parsing, planning, executing, WAL and file writes, ~60% of a quote's CPU) runs
 * beside the HTTP thread instead of on it, so on a machine with two cores requests overlap with the statements of
 * others. Still ONE process and one PGlite session (the folder lock is the caller's, db/index.ts).
 *
 * Ordering is PGlite's: one statement at a time, in call order; a statement outside a transaction waits until the
 * open transaction ends, and only the transaction's own statements go in between. Statements are sent without
 * waiting for the answer to the previous one, so the worker never idles while this thread is busy. Errors keep their
 * SQLSTATE `code` and other fields. A worker that dies (or a closed database) makes every call fail with
 * DatabaseUnavailableError, which the API answers with 503.
 */
import { Worker } from 'node:worker_threads';
import { DatabaseUnavailableError, type Db, type Queryable } from './types.ts';
import type { ErrorPlano, Peticion } from './pglite-worker.ts';

type SinId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** Runs `fn`s one after another (a promise chain). */
function exclusivo() {
  let cola: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const turno = cola.then(fn, fn);
    cola = turno.catch(() => undefined);
    return turno;
  };
}

/** @returns the worker's error as an Error with the same message, name and fields */
function rehacerError(plano: ErrorPlano): Error {
  const { message, name, ...campos } = plano;
  const err = Object.assign(new Error(message), campos);
  if (typeof name === 'string') err.name = name;
  return err;
}

type Pedir = <T>(p: SinId<Peticion>) => Promise<T>;
type Turno = ReturnType<typeof exclusivo>;

/**
 * Starts the worker and waits until its PGlite is ready.
 * @param dataDir directory for the files, or undefined for an in-memory database
 * @param alCerrar called once after the worker ended (e.g. to release the folder lock)
 * @param onError called when the worker dies unasked (crash, WASM abort), with the reason
 * @param loadDataDir a dump to start from instead of initdb (db/index.ts › migrated templates); cloned to the worker
 * @throws the worker's start-up error (e.g. a data folder it cannot open)
 */
export async function createPgliteThreadDb(
  dataDir: string | undefined,
  alCerrar: () => void,
  onError: (err: Error) => void = () => undefined,
  loadDataDir?: Blob,
): Promise<Db> {
  const worker = new Worker(new URL('./pglite-worker.ts', import.meta.url), { workerData: { dataDir, loadDataDir } });
  const salida = new Promise<void>((r) => worker.once('exit', () => r()));
  await esperarInicio(worker).catch(async (err: unknown) => {
    await worker.terminate();
    alCerrar();
    throw err;
  });
  const canal = abrirCanal(worker, onError, alCerrar);
  const guard = () => {
    if (canal.cerrada() || canal.caido()) throw new DatabaseUnavailableError(canal.caido() ?? new Error('PGlite is closed'));
  };
  // Turns to SEND, in call order. A statement's turn ends once it is sent (the worker runs them in arrival order, so
  // several can be on their way); a transaction's turn lasts from BEGIN until COMMIT/ROLLBACK is sent, so nothing
  // else gets in between. The answer is awaited outside the turn (wrapped, so the turn does not wait for it).
  const turno = exclusivo();
  const enviar = async <T>(p: SinId<Peticion>): Promise<T> => (await turno(async () => ({ respuesta: canal.pedir<T>(p) }))).respuesta;

  return {
    kind: 'pglite',
    async query<T>(sql: string, params: unknown[] = []) {
      guard();
      return enviar<T[]>({ op: 'query', sql, params, tx: false });
    },
    async exec(sql) {
      guard();
      await enviar<void>({ op: 'exec', sql, tx: false });
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      guard();
      return transaccion(canal.pedir, turno, fn);
    },
    async close() {
      if (canal.cerrada()) return salida;
      canal.cerrar();
      // after everything already sent or waiting for its turn (a transaction in course ends first)
      await enviar<void>({ op: 'close' }).catch(() => undefined);
      await worker.terminate(); // PGlite is closed (its files written): nothing left to wait for
      await salida;
    },
  };
}

/**
 * Waits for the worker's first message: `{ ready: true }`, or its start-up error.
 * @throws the start-up error, the worker's error, or an Error when it exited before being ready
 */
function esperarInicio(worker: Worker): Promise<void> {
  return new Promise<void>((ok, ko) => {
    const listo = () => {
      worker.off('message', alIniciar);
      worker.off('error', alFallar);
      worker.off('exit', alSalir);
    };
    const alIniciar = (m: { ready?: boolean; error?: ErrorPlano }) => {
      listo();
      if (m.ready) ok();
      else ko(rehacerError(m.error ?? { message: 'PGlite no inició.' }));
    };
    const alFallar = (err: Error) => {
      listo();
      ko(err);
    };
    const alSalir = (code: number) => {
      listo();
      ko(new Error(`El hilo de PGlite terminó al iniciar (código ${code}).`));
    };
    worker.on('message', alIniciar);
    worker.on('error', alFallar);
    worker.on('exit', alSalir);
  });
}

/**
 * The request/answer channel to a started worker: `pedir` posts a request with a fresh id and settles with the
 * answer of that id. Once the worker errs or exits, every pending and later request fails with
 * DatabaseUnavailableError (`onError` is told once, unless the database was closed on purpose: `cerrar()`).
 */
function abrirCanal(worker: Worker, onError: (err: Error) => void, alCerrar: () => void) {
  const pendientes = new Map<number, { ok: (v: unknown) => void; ko: (e: unknown) => void }>();
  let siguiente = 0;
  let caido: Error | undefined;
  let cerrada = false;
  const caer = (err: Error) => {
    if (!caido && !cerrada) onError(err);
    caido ??= err;
    for (const p of pendientes.values()) p.ko(new DatabaseUnavailableError(err));
    pendientes.clear();
  };
  worker.on('message', (m: { id: number; ok: boolean; result?: unknown; error?: ErrorPlano }) => {
    const p = pendientes.get(m.id);
    if (!p) return;
    pendientes.delete(m.id);
    if (m.ok) p.ok(m.result);
    else p.ko(rehacerError(m.error!));
  });
  worker.on('error', (err: Error) => caer(err));
  worker.once('exit', (code) => {
    caer(new Error(`PGlite is closed (el hilo de la base terminó, código ${code})`));
    alCerrar();
  });
  const pedir: Pedir = <T>(p: SinId<Peticion>): Promise<T> => {
    if (caido) return Promise.reject(new DatabaseUnavailableError(caido));
    const id = ++siguiente;
    return new Promise<T>((ok, ko) => {
      pendientes.set(id, { ok: ok as (v: unknown) => void, ko });
      worker.postMessage({ ...p, id });
    });
  };
  return {
    pedir,
    caido: () => caido,
    cerrada: () => cerrada,
    cerrar: () => {
      cerrada = true;
    },
  };
}

/**
 * Runs `fn` as one transaction: BEGIN, `fn`'s statements, then COMMIT (or ROLLBACK when `fn` throws), all in one turn
 * so no other statement gets in between. The turn ends once COMMIT/ROLLBACK is sent; the answer is awaited after it.
 * @returns `fn`'s result once committed
 * @throws `fn`'s error (after the rollback), or the COMMIT's
 */
async function transaccion<T>(pedir: Pedir, turno: Turno, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  const { fin } = await turno(async () => {
    await pedir<void>({ op: 'begin' });
    let terminada = false;
    const tx: Queryable = {
      async query<R>(sql: string, params: unknown[] = []) {
        if (terminada) throw new Error('Transaction is closed');
        return pedir<R[]>({ op: 'query', sql, params, tx: true });
      },
      async exec(sql) {
        if (terminada) throw new Error('Transaction is closed');
        await pedir<void>({ op: 'exec', sql, tx: true });
      },
    };
    let result: T;
    try {
      result = await fn(tx);
    } catch (err) {
      terminada = true;
      const rollback = pedir<void>({ op: 'rollback' }).catch(() => undefined);
      return {
        fin: rollback.then((): T => {
          throw err;
        }),
      };
    }
    terminada = true;
    return { fin: pedir<void>({ op: 'commit' }).then(() => result) };
  });
  return fin;
}
