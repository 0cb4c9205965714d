/**
 * One persistence suite run against each engine (PGlite on disk, real PostgreSQL): migrations are idempotent,
 * data survives an app restart, a flagged issuance is resumed at start-up, the journey reaches EMITIDA, and no
 * payment number is stored in clear. `openDb` must reopen the SAME storage each time it is called.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/db/index.ts';
import { migrate } from '../src/db/migrate.ts';
import { randomBytes } from 'node:crypto';
import { buildTestApp, CBU_OK, cotizarBody, esperarEstado, post, recorrerJourney, TARJETA_OK } from './helper.ts';

export function describeDbSuite(name: string, openDb: () => Promise<Db>, opts: { skip?: string } = {}): void {
  describe.skipIf(opts.skip !== undefined)(`${name}${opts.skip ? ` — omitido: ${opts.skip}` : ''}`, () => {
    const paymentKey = randomBytes(32); // same key across restarts, as DATA_DIR/payment.key would give
    const open: FastifyInstance[] = [];
    const start = async (emisionDelayMs = 20) => {
      const app = await buildTestApp({ db: await openDb(), paymentKey, emisionDelayMs });
      open.push(app);
      return app;
    };
    const stop = async (app: FastifyInstance) => {
      await app.close();
      open.splice(open.indexOf(app), 1);
    };
    afterAll(async () => {
      for (const app of open) await app.close();
    });

    it('migrations are idempotent', async () => {
      const app = await start();
      expect(await migrate(app.deps.db)).toEqual([]);
      const [row] = await app.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      expect(row.n).toBeGreaterThan(0);
      await stop(app);
    });

    it('the shared counters skip the write-ahead log and the quotes do not (migration 020)', async () => {
      const app = await start();
      const rows = await app.deps.db.query<{ relname: string; relpersistence: string }>(
        `SELECT relname, relpersistence FROM pg_class
         WHERE relname IN ('limites', 'cotizaciones') AND relnamespace = to_regnamespace(current_schema()) ORDER BY relname`,
      );
      expect(rows).toEqual([
        { relname: 'cotizaciones', relpersistence: 'p' },
        { relname: 'limites', relpersistence: 'u' },
      ]);
      await stop(app);
    });

    it('a quote is written with the indexes something reads: its key and its date for the retention purge (migration 021)', async () => {
      const app = await start();
      try {
        const rows = await app.deps.db.query<{ indexname: string }>(
          `SELECT indexname FROM pg_indexes WHERE tablename = 'cotizaciones' AND schemaname = current_schema() ORDER BY indexname`,
        );
        expect(rows.map((r) => r.indexname)).toEqual(['cotizaciones_creada', 'cotizaciones_pkey']);
      } finally {
        // a failed check must not leave the folder locked for the next tests
        await stop(app);
      }
    });

    it('a quote keeps its plans and answers as JSON text, read back whole (migration 022)', async () => {
      const app = await start();
      try {
        const tipos = await app.deps.db.query<{ column_name: string; data_type: string }>(
          `SELECT column_name, data_type FROM information_schema.columns
           WHERE table_name = 'cotizaciones' AND table_schema = current_schema() AND column_name IN ('planes', 'datos', 'plan_elegido')
           ORDER BY column_name`,
        );
        expect(tipos).toEqual([
          { column_name: 'datos', data_type: 'json' },
          { column_name: 'plan_elegido', data_type: 'jsonb' },
          { column_name: 'planes', data_type: 'json' },
        ]);
        const body = cotizarBody({ metros: 97 });
        const res = await post(app, '/api/cotizacion/cotizar', body);
        expect(res.statusCode).toBe(200);
        const guardada = await app.deps.repos.cotizaciones.get(res.json().refId);
        expect(guardada?.datos).toEqual(body);
        expect(guardada?.planes).toEqual(res.json().planes);
      } finally {
        await stop(app);
      }
    });

    it('a quote survives a restart', async () => {
      const first = await start();
      const res = await post(first, '/api/cotizacion/cotizar', cotizarBody({ metros: 123 }));
      expect(res.statusCode).toBe(200);
      const { refId, planes } = res.json();
      await stop(first);
      const second = await start();
      const cot = await second.deps.repos.cotizaciones.get(refId);
      expect(cot).toMatchObject({ refId, metros: 123, zona: 'Z1', planes });
      await stop(second);
    });

    it('a quote is stored small, in line, with its texts once; it keeps the texts it was offered with; whole plans (before 019) read too', async () => {
      const app = await start();
      const { db, repos } = app.deps;
      const { refId, planes } = (await post(app, '/api/cotizacion/cotizar', cotizarBody())).json();
      await post(app, '/api/cotizacion/cotizar', cotizarBody({ metros: 90 }));
      const [row] = await db.query<{ bytes: number; huella: string }>(
        'SELECT pg_column_size(planes) AS bytes, textos_huella AS huella FROM cotizaciones WHERE ref_id = $1',
        [refId],
      );
      // ~16.9 KB of jsonb when the texts were in every row (~5.7 KB compressed: over the TOAST threshold, out of line)
      expect(row.bytes).toBeLessThan(2000);
      expect(await db.query('SELECT count(*)::int AS n FROM cotizacion_textos')).toEqual([{ n: 1 }]); // two quotes, one tariff
      expect((await repos.cotizaciones.get(refId))!.planes).toEqual(planes);
      // the tariff's texts edited after the quote: the quote is read with the texts it was stored with
      await db.query(
        `INSERT INTO cotizacion_textos (huella, textos) SELECT 'antes-' || huella, jsonb_set(textos, '{planes,BASICO,nombre}', '"Básico de antes"')
          FROM cotizacion_textos WHERE huella = $1`,
        [row.huella],
      );
      await db.query("UPDATE cotizaciones SET textos_huella = 'antes-' || textos_huella WHERE ref_id = $1", [refId]);
      const antes = (await repos.cotizaciones.get(refId))!.planes;
      expect(antes.map((p) => p.nombre)).toEqual(['Básico de antes', planes[1].nombre, planes[2].nombre]);
      expect({ ...antes[0], nombre: planes[0].nombre }).toEqual(planes[0]);
      // stored before migration 019: the plans whole, no fingerprint
      await db.query('UPDATE cotizaciones SET planes = $2::json, textos_huella = NULL WHERE ref_id = $1', [refId, JSON.stringify(planes)]);
      expect((await repos.cotizaciones.get(refId))!.planes).toEqual(planes);
      await stop(app);
    });

    it('an issuance requested before a stop is resumed at start-up', async () => {
      const first = await start(60_000);
      const { numeroSolicitud, estado, csrf } = await recorrerJourney(
        first,
        { methodPayment: 'CBU', numberCBU: CBU_OK },
        { esperar: false },
      );
      expect(estado.estado).toBe('PENDIENTE');
      await stop(first);
      const second = await start(10);
      const final = await esperarEstado(second, numeroSolicitud, csrf);
      expect(final).toMatchObject({ numeroSolicitud, estado: 'EMITIDA' });
      expect(await second.deps.repos.solicitudes.existePoliza(String(final.numSecuPol))).toBe(true);
      await stop(second);
    });

    it('the journey reaches EMITIDA and nothing stores a payment number in clear', async () => {
      const app = await start();
      const tc = await recorrerJourney(app, { methodPayment: 'TC', numberPaymentCard: TARJETA_OK });
      expect(tc.estado).toMatchObject({ estado: 'EMITIDA', numSecuPol: expect.stringMatching(/^HOG-\d{4}-\d{6}$/) });
      expect(await app.deps.repos.solicitudes.existePoliza(String(tc.estado.numSecuPol))).toBe(true);
      const cbu = await recorrerJourney(app, { methodPayment: 'CBU', numberCBU: CBU_OK });
      expect(cbu.estado).toMatchObject({ estado: 'EMITIDA' });
      const tables = await app.deps.db.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
      );
      for (const { table_name } of tables) {
        const rows = await app.deps.db.query<{ r: string }>(`SELECT row_to_json(t)::text AS r FROM "${table_name}" t`);
        const dump = rows.map((x) => x.r).join('\n');
        expect(dump, table_name).not.toContain(TARJETA_OK);
        expect(dump, table_name).not.toContain(CBU_OK);
      }
      await stop(app);
    });
  });
}
