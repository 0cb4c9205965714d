import { readFileSync, readdirSync } from 'node:fs';
import { createAjv } from './server/src/plugins/schemas.ts';
import { stepAnswers } from './src/check/answers.ts';
const ajv = createAjv({ coerceTypes: false, removeAdditional: false, useDefaults: false }, 'schemas');
const t = Date.now();
for (const f of readdirSync('schemas').filter((f) => f.endsWith('.schema.json'))) {
  const s = JSON.parse(readFileSync('schemas/' + f, 'utf8'));
  const r = stepAnswers(s, ajv, {}, f.startsWith('direccion') ? { idProvince: '06', codLocation: '06434010' } : {});
  console.log(f, r.rows.length, JSON.stringify(r.unreachable.map((u) => [u.field, u.value.value])), r.neverShown);
  if (f.startsWith('datos') || f.startsWith('metodo') || f.startsWith('metros') || f.startsWith('propiedad')) for (const row of r.rows) console.log('   ', JSON.stringify(row.answers));
}
console.log(Date.now() - t, 'ms');
