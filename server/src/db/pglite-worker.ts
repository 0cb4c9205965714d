/**
 * Worker-thread side of the threaded PGlite adapter (pglite-thread.ts): owns the PGlite instance (files in
 * `workerData.dataDir`, or in memory) and answers the main thread's requests strictly in arrival order.
 * Requests: `query` (prepared statements, pglite-prepared.ts; inside the open transaction when `tx`), `exec`,
 * `begin` / `commit` / `rollback` (PGlite's own `transaction()`, so an aborted transaction's COMMIT fails as it does
 * in-process), `close`. Answers `{ id, ok: true, result }` or `{ id, ok: false, error }` with the error's message and
 * its primitive fields (SQLSTATE `code`, `detail`, `constraint`…), which the main thread rebuilds.
 * Start-up: posts `{ ready: true }` once PGlite is ready, or `{ ready: false, error }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { preparedStatements } from './pglite-prepared.ts';

export type Peticion =
  | { id: number; op: 'query'; sql: string; params: unknown[]; tx: boolean }
  | { id: number; op: 'exec'; sql: string; tx: boolean }
  | { id: number; op: 'begin' | 'commit' | 'rollback' | 'close' };

/** An error as it crosses the thread boundary: message plus its primitive own fields. */
export type ErrorPlano = Record<string, string | number | boolean | null | undefined> & { message: string };

/** @returns `err` as a structured-cloneable object (functions, objects and arrays among its fields are dropped) */
export function aplanarError(err: unknown): ErrorPlano {
  const e = err instanceof Error ? err : new Error(String(err));
  const plano: ErrorPlano = { message: e.message, name: e.name };
  for (const [k, v] of Object.entries(e)) {
    if (v === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof v)) plano[k] = v as string;
  }
  return plano;
}

/** The transaction in course: PGlite's handle, how to end it, and the promise that settles when it has ended. */
interface Abierta {
  tx: Transaction;
  terminar: (confirmar: boolean) => void;
  fin: Promise<void>;
}

async function main() {
  const port = parentPort!;
  const { dataDir, loadDataDir } = workerData as { dataDir?: string; loadDataDir?: Blob };
  let pglite: PGlite;
  try {
    pglite = new PGlite({ dataDir, loadDataDir });
    await pglite.waitReady;
  } catch (err) {
    port.postMessage({ ready: false, error: aplanarError(err) });
    return;
  }
  const prepared = preparedStatements(pglite);
  let abierta: Abierta | undefined;

  async function begin(): Promise<void> {
    let abrir!: (a: Abierta) => void;
    let fallar!: (err: unknown) => void;
    const lista = new Promise<Abierta>((ok, ko) => {
      abrir = ok;
      fallar = ko;
    });
    let terminar!: (confirmar: boolean) => void;
    const decision = new Promise<boolean>((r) => (terminar = r));
    const fin = pglite.transaction(async (tx) => {
      abrir({ tx, terminar, fin });
      if (!(await decision)) await tx.rollback();
    });
    fin.catch(fallar); // BEGIN failed (later failures, e.g. COMMIT of an aborted transaction, reach `terminar`)
    abierta = await lista;
  }

  async function terminar(confirmar: boolean): Promise<void> {
    const a = abierta;
    if (!a) throw new Error('No hay una transacción abierta.');
    abierta = undefined;
    a.terminar(confirmar);
    await a.fin;
  }

  async function atender(p: Peticion): Promise<unknown> {
    switch (p.op) {
      case 'query': {
        if (p.tx && !abierta) throw new Error('Transaction is closed');
        const tx = p.tx ? abierta!.tx : undefined;
        // Inside a transaction PGlite's transaction lock is held by it: take the query lock only, as tx.query does.
        const rows = tx
          ? await pglite._runExclusiveQuery(() => prepared(p.sql, p.params))
          : await pglite._runExclusiveTransaction(() => pglite._runExclusiveQuery(() => prepared(p.sql, p.params)));
        if (rows) return rows;
        return (await (tx ?? pglite).query(p.sql, p.params)).rows;
      }
      case 'exec':
        if (p.tx && !abierta) throw new Error('Transaction is closed');
        await (p.tx ? abierta!.tx : pglite).exec(p.sql);
        return undefined;
      case 'begin':
        return begin();
      case 'commit':
        return terminar(true);
      case 'rollback':
        return terminar(false);
      case 'close':
        if (abierta) await terminar(false).catch(() => undefined);
        if (!pglite.closed) await pglite.close();
        return undefined;
    }
  }

  let cola: Promise<void> = Promise.resolve();
  port.on('message', (p: Peticion) => {
    cola = cola.then(async () => {
      try {
        const result = await atender(p);
        port.postMessage({ id: p.id, ok: true, result });
      } catch (err) {
        port.postMessage({ id: p.id, ok: false, error: aplanarError(err) });
      }
      if (p.op === 'close') port.close();
    });
  });
  port.postMessage({ ready: true });
}

if (parentPort) void main();
