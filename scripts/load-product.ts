/**
 * Reads the product's editable files (flow, step and ui schemas, wire schemas, texts, migrations, tariffs) under a
 * root as the flow checker takes them (tools/check/project.ts › ProductFiles). Only `node:fs`: the Vite config's staff
 * preview plugin (scripts/vite-vista-previa.ts) imports it, so nothing of the API or the flow walker is bundled there.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProductFiles } from '../tools/check/project.ts';

/** Reads the product's editable files under `root`. @throws SyntaxError naming the file when one is not JSON */
export function loadProduct(root: string): ProductFiles {
  const read = (p: string) => {
    try {
      return JSON.parse(readFileSync(join(root, p), 'utf8'));
    } catch (error) {
      throw new Error(`${p}: no es JSON válido (${(error as Error).message})`);
    }
  };
  const schemas: ProductFiles['schemas'] = {};
  const ui: ProductFiles['ui'] = {};
  for (const f of readdirSync(join(root, 'schemas'))) {
    if (f.endsWith('.schema.json')) schemas[f.slice(0, -'.schema.json'.length)] = read(`schemas/${f}`);
    if (f.endsWith('.ui.json')) ui[f.slice(0, -'.ui.json'.length)] = read(`schemas/${f}`);
  }
  const wire: NonNullable<ProductFiles['wire']> = {};
  const wireDir = join(root, 'schemas/api');
  if (existsSync(wireDir)) for (const f of readdirSync(wireDir)) if (f.endsWith('.json')) wire[f] = read(`schemas/api/${f}`);
  const migrations: ProductFiles['migrations'] = {};
  const migrationsDir = join(root, 'flow/migrations');
  if (existsSync(migrationsDir)) for (const f of readdirSync(migrationsDir)) if (f.endsWith('.json')) migrations[f] = read(`flow/migrations/${f}`);
  const tariffs: ProductFiles['tariffs'] = {};
  if (existsSync(join(root, 'server/tariffs'))) for (const f of readdirSync(join(root, 'server/tariffs'))) if (f.endsWith('.json')) tariffs[`server/tariffs/${f}`] = read(`server/tariffs/${f}`);
  return {
    tariffs,
    migrations,
    wire,
    flow: read('flow/flow.json'),
    flowSchema: read('flow/flow.schema.json'),
    contract: existsSync(join(root, 'flow/contract.json')) ? read('flow/contract.json') : undefined,
    schemas,
    ui,
    texts: read('src/i18n/es.json'),
  };
}
