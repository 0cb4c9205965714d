/**
 * API benchmark (prints figures, asserts nothing; not part of `npm test`): `npm run bench:api`.
 * At saturation, with autocannon, for BENCH_SECONDS (default 5) per row and BENCH_CONNECTIONS (default 10)
 * connections (max throughput; its latencies are queueing at full speed, shown as information):
 * - floor: a Fastify hello-world in this process, measured in the same run (what the machine gives at best);
 * - `cotizar` (one POST with CSRF token and cookies) and the whole purchase (cotizar → datos-presupuesto →
 *   salesforce → comparar-zonas → insertar-domicilio → validar-forma-cobro → solicitar → emitir-async, chained per
 *   connection) against the real server on PGlite (one process) and on PostgreSQL with two instances (load split
 *   between them; needs TEST_DATABASE_URL's server, a throw-away `hard_bench_…` database is created and dropped);
 * - on that PostgreSQL server, its floor: Fastify + one INSERT through the app's pool into the same database, in a
 *   process of its own (api-floor.ts › escritura-pg), measured the same way; and that floor behind the app's
 *   per-minute limit as it runs on PostgreSQL, a count in `limites` per request (api-floor.ts › escritura-pg-limitada):
 *   what an /api request that stores something pays there (one limit for every instance) — except `cotizar`, which
 *   counts its minute in the statement that stores its quote (plugins/limits.ts › limiteEnSentencia), as information.
 * At a steady 200 req/s for 10 s over BENCH_CONNECTIONS connections (the open-loop pacer of `npm run bench`, paced.ts,
 * median of BENCH_API_RUNS runs by p99, default 3, the three loads' runs in turn): those two floors, and `cotizar` on
 * the two instances (requests alternated between them), each with the CPU its server processes use per request.
 * Ends with the target (`cotizar` on PostgreSQL at a steady 200 req/s: p99 ≤ 1.5× the first floor's p99), met or not,
 * and beside it `cotizar` against the floor with the limit (how much of the gap is that count, how much the route).
 * Rate limits and quote quotas are raised for the run. Ports 3390–3393 (`BENCH_API_PORT`: another first port).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { cotizarBody, domicilio, hoy, persona, TARJETA_OK } from '../../server/test/helper.ts';
import { createTestDatabase, pgUnavailable, startServer, type ServerProcess } from '../../server/test/processes.ts';
import { startApiFloor, visitor } from './api-floor.ts';
import { pacedMedians, type PacedResult } from './paced.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PORT = Number(process.env.BENCH_API_PORT ?? 3390);
const RUNS = Number(process.env.BENCH_API_RUNS ?? 3);
/** The steady load of the latency target: 200 req/s for 10 s. */
const RATE = 200;
const PACED_SECONDS = 10;
const ENV = { RATE_LIMIT_MAX: '100000000', COTIZACIONES_POR_HORA: '100000000', EMISSION_DELAY_MS: '0', LOG_LEVEL: 'warn' };

interface Row {
  target: string;
  escenario: string;
  reqPorS: number;
  p50: number;
  p99: number;
  compras?: number;
  errores: number;
}
const rows: Row[] = [];
const PISO_PG = 'Fastify + 1 INSERT en PostgreSQL (piso, mismo servidor)';
const PISO_PG_LIMITADO = 'Fastify + límite por minuto compartido + 1 INSERT en PostgreSQL (piso de una ruta /api que guarda)';
const COTIZAR_PG = 'POST /api/cotizacion/cotizar (PostgreSQL, 2 instancias)';
/** At a steady RATE req/s (paced.ts): the two floors and cotizar on PostgreSQL, once measured. */
let pg: { floor: PacedResult; limited: PacedResult; quote: PacedResult } | undefined;

/** The purchase as an autocannon request chain; `done` counts completed purchases. */
function purchase(headers: Record<string, string>, done: { n: number }) {
  const post = (
    path: string,
    body: (c: Record<string, unknown>) => unknown,
    save?: (json: Record<string, unknown>, c: Record<string, unknown>) => void,
    last = false,
  ) => ({
    method: 'POST',
    path,
    headers,
    setupRequest: (req: object, c: Record<string, unknown>) => ({ ...req, body: JSON.stringify(body(c)) }),
    onResponse: (status: number, text: string, c: Record<string, unknown>) => {
      if (status < 300 && save) save(JSON.parse(text), c);
      if (status < 300 && last) done.n++;
    },
  });
  const exp = `12/${Number(hoy().slice(2, 4)) + 3}`;
  return [
    post(
      '/api/cotizacion/cotizar',
      () => cotizarBody(),
      (j, c) => (c.refId = j.refId),
    ),
    post('/api/cotizacion/datos-presupuesto', (c) => ({ refId: c.refId, codPlan: 'INTERMEDIO', coberturasOpcionales: [] })),
    post('/api/salesforce/insertar-datos', (c) => ({ refId: c.refId, ...persona() })),
    post('/api/domicilio/comparar-zonas', (c) => ({ refId: c.refId, codLocation: '06434010' })),
    post('/api/domicilio/insertar-domicilio', (c) => ({ refId: c.refId, ...domicilio() })),
    post(
      '/api/pagos/validar-forma-cobro',
      (c) => ({
        refId: c.refId,
        methodPayment: 'TC',
        numberPaymentCard: TARJETA_OK,
        namePaymentCard: 'ANA PEREZ',
        expirationPaymentCard: exp,
      }),
      (j, c) => (c.medioPagoId = (j.medioPago as { id: string }).id),
    ),
    post(
      '/api/emision/solicitar',
      (c) => ({
        refId: c.refId,
        codPlan: 'INTERMEDIO',
        coberturasOpcionales: [],
        medioPagoId: c.medioPagoId,
        persona: persona(),
        domicilio: domicilio(),
      }),
      (j, c) => (c.numeroSolicitud = j.numeroSolicitud),
    ),
    post('/api/emision/emitir-async', (c) => ({ numeroSolicitud: c.numeroSolicitud }), undefined, true),
  ];
}

/** Runs one scenario against one or more instances at once (connections split) and records the summed figures. */
async function measure(target: string, escenario: string, bases: string[]): Promise<void> {
  const done = { n: 0 };
  const results = await Promise.all(
    bases.map(async (base) => {
      const headers = await visitor(base);
      const connections = Math.max(1, Math.round(CONNECTIONS / bases.length));
      return escenario === 'cotizar'
        ? autocannon({
            url: base,
            connections,
            duration: SECONDS,
            method: 'POST',
            headers,
            body: JSON.stringify(cotizarBody()),
            requests: [{ path: '/api/cotizacion/cotizar' }],
          })
        : autocannon({ url: base, connections, duration: SECONDS, requests: purchase(headers, done) });
    }),
  );
  rows.push({
    target,
    escenario,
    reqPorS: results.reduce((s, r) => s + r.requests.average, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    ...(escenario === 'compra' ? { compras: done.n / SECONDS } : {}),
    errores: results.reduce((s, r) => s + r.non2xx + r.errors + r.timeouts, 0),
  });
}

const floor = Fastify();
floor.get('/', async () => ({ hello: 'world' }));
await floor.listen({ port: PORT, host: '127.0.0.1' });
const f = await autocannon({ url: `http://127.0.0.1:${PORT}/`, connections: CONNECTIONS, duration: SECONDS });
rows.push({
  target: 'Fastify hello-world (piso)',
  escenario: 'GET /',
  reqPorS: f.requests.average,
  p50: f.latency.p50,
  p99: f.latency.p99,
  errores: f.non2xx + f.errors,
});
await floor.close();

const servers: ServerProcess[] = [];
/** The API measured as production runs it (server/test/processes.ts › startServer › optimizeWasm). */
const PRODUCCION = { optimizeWasm: true };
try {
  const pglite = await startServer(PORT + 1, { ...ENV, DATA_DIR: mkdtempSync(join(tmpdir(), 'cotizador-bench-')) }, PRODUCCION);
  servers.push(pglite);
  await measure('PGlite, 1 proceso', 'cotizar', [pglite.url]);
  await measure('PGlite, 1 proceso', 'compra', [pglite.url]);
  await pglite.stop();

  const why = await pgUnavailable();
  if (why) console.warn(`PostgreSQL omitido: ${why}`);
  else {
    const db = await createTestDatabase('bench', process.env.BENCH_DB_PREFIX);
    try {
      const env = { ...ENV, DATABASE_URL: db.url, PAYMENT_KEY: 'ab'.repeat(32), DATA_DIR: mkdtempSync(join(tmpdir(), 'cotizador-bench-')) };
      const pair = await Promise.all([startServer(PORT + 2, env, PRODUCCION), startServer(PORT + 3, env, PRODUCCION)]);
      servers.push(...pair);
      const floors = [
        { mode: 'escritura-pg', target: PISO_PG },
        { mode: 'escritura-pg-limitada', target: PISO_PG_LIMITADO },
      ] as const;
      const started = await Promise.all(floors.map((f) => startApiFloor(f.mode, db.url)));
      try {
        for (const [i, floor] of started.entries()) {
          const r = await autocannon({ url: floor.url, connections: CONNECTIONS, duration: SECONDS });
          rows.push({
            target: floors[i].target,
            escenario: 'GET /',
            reqPorS: r.requests.average,
            p50: r.latency.p50,
            p99: r.latency.p99,
            errores: r.non2xx + r.errors,
          });
        }
        await measure(
          'PostgreSQL, 2 instancias',
          'cotizar',
          pair.map((s) => s.url),
        );
        const cotizar = await Promise.all(
          pair.map(async (s) => ({
            url: s.url,
            req: { method: 'POST', path: '/api/cotizacion/cotizar', headers: await visitor(s.url), body: JSON.stringify(cotizarBody()) },
          })),
        );
        // the floors' runs and cotizar's in turn (paced.ts › pacedMedians)
        const [floor, limited, quote] = pacedMedians(
          RUNS,
          [
            ...started.map((f) => ({ targets: [{ url: f.url, req: {} }], pids: [f.pid] })),
            { targets: cotizar, pids: pair.map((s) => s.proc.pid!) },
          ],
          RATE,
          PACED_SECONDS,
          CONNECTIONS,
        );
        pg = { floor, limited, quote };
      } finally {
        for (const f of started) await f.stop();
      }
      await measure(
        'PostgreSQL, 2 instancias',
        'compra',
        pair.map((s) => s.url),
      );
      for (const s of pair) await s.stop();
    } finally {
      await db.drop();
    }
  }
} finally {
  for (const s of servers) await s.stop('SIGKILL');
}

console.log(`\nAPI a saturación (informativo) — ${SECONDS} s por fila, ${CONNECTIONS} conexiones (Node ${process.version})\n`);
console.log('| destino | escenario | pedidos/s | p50 ms | p99 ms | compras/s | no-2xx+errores |');
console.log('|---|---|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.target} | ${r.escenario} | ${r.reqPorS.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.compras?.toFixed(1) ?? '—'} | ${r.errores} |`,
  );
}

if (pg) {
  const pacedRows = [
    { target: PISO_PG, ...pg.floor },
    { target: PISO_PG_LIMITADO, ...pg.limited },
    { target: COTIZAR_PG, ...pg.quote },
  ];
  console.log(`\nAPI a ${RATE}/s parejos — ${PACED_SECONDS} s, ${CONNECTIONS} conexiones, mediana de ${RUNS} corridas por p99\n`);
  console.log('| destino | p50 ms | p99 ms | CPU ms por pedido (procesos Node) | no-2xx+errores |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of pacedRows) console.log(`| ${r.target} | ${r.p50} | ${r.p99} | ${r.cpuMsPerRequest.toFixed(2)} | ${r.errors} |`);
}

const veces = (a: number, b: number) => (a / b).toFixed(2).replace('.', ',');
const objetivo = `PostgreSQL: cotizar p99 a ${RATE}/s parejos ≤ 1,5 × p99 del piso Fastify + 1 INSERT (mismo servidor)`;
console.log('\n| objetivo | medido | ¿cumple? |');
console.log('|---|---|---|');
if (pg) {
  const { floor: pgFloorRow, limited: pgLimitedRow, quote: pgCotizar } = pg;
  const ok = pgCotizar.p99 <= 1.5 * pgFloorRow.p99;
  // beside the target, the floor with the app's shared per-minute count (one round trip more, by design): how much of
  // cotizar's figure is that count, and how much its own work
  const conLimite =
    `; ante el piso con el límite por minuto compartido (${pgLimitedRow.p99} ms, ${veces(pgLimitedRow.p99, pgFloorRow.p99)}× el piso): ` +
    `${veces(pgCotizar.p99, pgLimitedRow.p99)}× por p99, ${veces(pgCotizar.p50, pgLimitedRow.p50)}× por p50`;
  console.log(
    `| ${objetivo} | ${pgCotizar.p99} ms ≤ 1,5 × ${pgFloorRow.p99} ms = ${(1.5 * pgFloorRow.p99).toFixed(1)} ms (${veces(pgCotizar.p99, pgFloorRow.p99)}×${conLimite}) | ${ok ? 'sí' : 'NO'} |`,
  );
} else console.log(`| ${objetivo} | sin PostgreSQL: no medido | NO |`);
