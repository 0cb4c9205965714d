/**
 * Persistence suite on PGlite files in a temporary DATA_DIR (build, write, close, build again, read), with PGlite on
 * the caller's thread and on a worker thread (as `npm start` runs it).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgliteDb } from '../src/db/index.ts';
import { describeDbSuite } from './db-suite.ts';

const dir = join(mkdtempSync(join(tmpdir(), 'cotizador-pglite-')), 'pglite');
describeDbSuite(`PGlite en disco (${dir})`, () => createPgliteDb(dir));
const dirHilo = join(mkdtempSync(join(tmpdir(), 'cotizador-pglite-hilo-')), 'pglite');
describeDbSuite(`PGlite en disco, en un hilo aparte (${dirHilo})`, () => createPgliteDb(dirHilo, { hilo: true }));
