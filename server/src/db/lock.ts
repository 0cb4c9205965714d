/**
 * One process per PGlite folder. PGlite (WASM PostgreSQL) has no inter-process locking: two processes on one folder
 * silently corrupt it. `acquirePgliteLock(dir)` creates `<dir>/cotizador.lock` atomically (O_EXCL) holding
 * `{ pid, hostname, desde }`; a lock whose PID no longer runs on this host is stale and is replaced.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const LOCK_FILE = 'cotizador.lock';

/** The folder is in use by a live process. */
export class PgliteLockedError extends Error {
  constructor(dir: string, pid: number, host: string) {
    super(
      `La carpeta de PGlite ${dir} está en uso por el proceso ${pid} (${host}). PGlite es para un solo proceso: ` +
        'pará ese proceso, usá otra DATA_DIR o, para varias instancias, PostgreSQL (DATABASE_URL).',
    );
    this.name = 'PgliteLockedError';
  }
}

interface LockInfo {
  pid: number;
  hostname: string;
  desde: string;
}

/** @returns whether process `pid` exists on this host (EPERM: exists but is someone else's). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockInfo>;
    return typeof info.pid === 'number' && typeof info.hostname === 'string' ? (info as LockInfo) : null;
  } catch {
    return null; // unreadable or half-written: treated as stale
  }
}

/**
 * Locks `dir` for this process.
 * @returns `release()`, which removes the lock file if it is still this process's (idempotent)
 * @throws PgliteLockedError when a live process (this one included, through another handle) holds the folder;
 *   a lock from another host is never assumed stale
 */
export function acquirePgliteLock(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, LOCK_FILE);
  const mine: LockInfo = { pid: process.pid, hostname: hostname(), desde: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify(mine));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const current = readLock(file);
        if (current?.pid === mine.pid && current.desde === mine.desde) unlinkSync(file);
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readLock(file);
      if (holder && (holder.hostname !== mine.hostname || isAlive(holder.pid)))
        throw new PgliteLockedError(dir, holder.pid, holder.hostname);
      unlinkSync(file); // stale: its process is gone
    }
  }
  throw new Error(`No se pudo tomar el lock de PGlite en ${dir}.`);
}
