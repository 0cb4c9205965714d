/**
 * The API as a process on PGlite: one process per PGlite folder (lock file with the PID,
 * stale-lock detection, a clear refusal for a second process), and graceful shutdown on SIGTERM (a request in
 * flight finishes, the process exits 0 and leaves the folder unlocked and consistent); a quote answered survives the
 * process being killed (PGlite runs on a worker thread). Free ports the OS picks.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPgliteDb } from '../src/db/index.ts';
import { LOCK_FILE } from '../src/db/lock.ts';
import { startServer, Visitante } from './processes.ts';
import { cotizarBody } from './helper.ts';

const tmp = (name: string) => mkdtempSync(join(tmpdir(), `cotizador-${name}-`));

describe('6. one process per PGlite folder', () => {
  it('a second open of the folder is refused with the holder’s PID; closing releases it', async () => {
    const dir = join(tmp('lock'), 'pglite');
    const db = await createPgliteDb(dir);
    await expect(createPgliteDb(dir)).rejects.toThrow(`está en uso por el proceso ${process.pid}`);
    await db.close();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    const again = await createPgliteDb(dir);
    await again.close();
  });

  it('a lock left by a process that died is stale and replaced', async () => {
    const dir = join(tmp('stale'), 'pglite');
    await (await createPgliteDb(dir)).close();
    const dead = spawn(process.execPath, ['-e', '0']);
    const pid = dead.pid!;
    await new Promise((r) => dead.once('exit', r));
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid, hostname: hostname(), desde: new Date().toISOString() }));
    const db = await createPgliteDb(dir);
    expect(await db.query('SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
    await db.close();
  });

  it('a second server on the same DATA_DIR refuses to start with a clear message', async () => {
    const dataDir = tmp('two');
    const first = await startServer(0, { DATA_DIR: dataDir });
    const second = await startServer(0, { DATA_DIR: dataDir }, { waitReady: false });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('PGlite es para un solo proceso');
    expect(second.output()).toContain(`proceso ${first.proc.pid}`);
    expect((await fetch(`${first.url}/api/health/ready`)).status).toBe(200);
    expect(await first.stop()).toBe(0);
  });
});

describe('7. graceful shutdown', () => {
  it('SIGTERM: a request in flight completes, the process exits 0, the folder is unlocked and the data is there', async () => {
    const dataDir = tmp('sigterm');
    const server = await startServer(0, { DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    const visitante = new Visitante();
    const csrf = await visitante.get(server.url, '/api/set-csrf');
    const token = ((await csrf.json()) as { csrfToken: string }).csrfToken;
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const body = JSON.stringify(cotizarBody());
    // A quote whose body is still arriving when SIGTERM comes: it must be answered, not cut.
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${server.url}/api/cotizacion/cotizar`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-xsrf-token': token, cookie },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 20));
      setTimeout(() => {
        server.proc.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(20)), 300);
      }, 200);
    });
    const res = await answer;
    expect(res.status).toBe(200);
    const refId = JSON.parse(res.body).refId as string;
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('SIGTERM: cerrando');
    expect(existsSync(join(dataDir, 'pglite', LOCK_FILE))).toBe(false);
    const db = await createPgliteDb(join(dataDir, 'pglite'));
    expect(await db.query('SELECT count(*)::int AS n FROM cotizaciones WHERE ref_id = $1', [refId])).toEqual([{ n: 1 }]);
    await db.close();
  });
});

describe('9. a quote answered is on disk (PGlite on its own thread)', () => {
  it('SIGKILL right after the answers: every answered quote is there at the next start', async () => {
    const dataDir = tmp('sigkill');
    const server = await startServer(0, { DATA_DIR: dataDir });
    const visitante = new Visitante();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => visitante.post(server.url, '/api/cotizacion/cotizar', cotizarBody())),
    );
    const refIds = await Promise.all(
      answers.map(async (r) => {
        expect(r.status).toBe(200);
        return ((await r.json()) as { refId: string }).refId;
      }),
    );
    server.proc.kill('SIGKILL');
    await server.exited;
    const db = await createPgliteDb(join(dataDir, 'pglite')); // the dead process's lock is stale
    expect(await db.query('SELECT count(*)::int AS n FROM cotizaciones WHERE ref_id = ANY($1::uuid[])', [refIds])).toEqual([{ n: 5 }]);
    await db.close();
  });
});
