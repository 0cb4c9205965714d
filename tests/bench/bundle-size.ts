/**
 * Benchmark (prints figures, asserts nothing): gzip size of what step 1 loads (entry JS + CSS from
 * dist/index.html) and of every lazy chunk (the form engine, each step's precompiled validator).
 * Run after `npm run build`: `npm run bench:bundle`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = join(import.meta.dirname, '../../dist');
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const gz = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entry = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
const entryBytes = entry.reduce((sum, f) => sum + gz(f), 0);
console.log(`step 1 (entry): ${kb(entryBytes)} gzip`);
for (const f of entry) console.log(`  ${f}: ${kb(gz(f))}`);
console.log('lazy chunks:');
for (const f of readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js') && !entry.includes(`assets/${f}`)).sort()) {
  console.log(`  assets/${f}: ${kb(gz(`assets/${f}`))}`);
}
