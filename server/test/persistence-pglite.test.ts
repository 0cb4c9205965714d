/** Persistence suite on PGlite files in a temporary DATA_DIR (build, write, close, build again, read). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgliteDb } from '../src/db/index.ts';
import { describeDbSuite } from './db-suite.ts';

const dir = join(mkdtempSync(join(tmpdir(), 'cotizador-pglite-')), 'pglite');
describeDbSuite(`PGlite en disco (${dir})`, () => createPgliteDb(dir));
