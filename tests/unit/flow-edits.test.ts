/**
 * The worked examples of docs/flow-format.md, as a staffer makes them: JSON edits only (RFC 6902 patches in
 * tests/fixtures/flow-edits/), applied to a copy of the product files. Each must pass `flow:check` with no error,
 * and its journey must reach a result step.
 */
import { readdirSync, readFileSync } from 'node:fs';
import jsonpatch, { type Operation } from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { checkProduct, type ProductFiles } from '../../src/check/project.ts';
import { journey, type FlowDef } from '../../src/engine/core/index.ts';
import { loadProduct } from '../../scripts/flow-check.ts';
import { compileFlowNode } from '../../src/check/conditions.ts';

const dir = 'tests/fixtures/flow-edits';
const examples = readdirSync(dir).filter((f) => f.endsWith('.json'));

/**
 * Applies an example's edits to a copy of the product: a patch per file, or null to delete a schema file. Edits of
 * the wire schemas (schemas/api/) and the tariff (server/tariffs/) are not part of what flow:check reads; the API
 * test of the example applies them (server/test/flow-edits-api.test.ts).
 */
export function applyEdits(product: ProductFiles, edits: Record<string, Operation[] | null>): ProductFiles {
  const out = structuredClone(product);
  for (const [file, ops] of Object.entries(edits)) {
    if (file.startsWith('schemas/api/') || file.startsWith('server/tariffs/')) continue;
    const schema = /^schemas\/(.+)\.(schema|ui)\.json$/.exec(file);
    if (schema) {
      const bucket = schema[2] === 'schema' ? out.schemas : out.ui;
      if (ops === null) delete bucket[schema[1]];
      else bucket[schema[1]] = jsonpatch.applyPatch(bucket[schema[1]] ?? {}, ops, true, false).newDocument;
      continue;
    }
    const key = { 'flow/flow.json': 'flow', 'flow/contract.json': 'contract', 'src/i18n/es.json': 'texts' }[file] as 'flow' | 'contract' | 'texts';
    if (!key || ops === null) throw new Error(`no sé editar ${file}`);
    (out as unknown as Record<string, unknown>)[key] = jsonpatch.applyPatch(out[key], ops, true, false).newDocument;
  }
  return out;
}

describe('worked examples (JSON edits only)', () => {
  const product = loadProduct('.');
  it.each(examples)('%s passes flow:check and still reaches the end', (name) => {
    const example = JSON.parse(readFileSync(`${dir}/${name}`, 'utf8'));
    const edited = applyEdits(product, example.edits);
    const errors = checkProduct(edited).problems.filter((p) => p.severity !== 'warning');
    expect(errors).toEqual([]);
    const flow = compileFlowNode(edited.flow as FlowDef);
    const path = journey(flow, { flags: {}, answers: { permanencia: { titularidad: 'INQUILINO' } }, data: { emision: { estado: 'EMITIDA' } }, numberDetailStep: 1.1 });
    expect(flow.steps.find((s) => s.id === path[path.length - 1])?.kind).toBe('result');
  });

  it('the examples change what they say they change', () => {
    const load = (n: string) => compileFlowNode(applyEdits(product, JSON.parse(readFileSync(`${dir}/${n}`, 'utf8')).edits).flow as FlowDef);
    expect(load('reordenar.json').guardOrder.slice(0, 3)).toEqual(['property', 'area', 'permanence']);
    expect(load('quitar-adicionales.json').stages).not.toContain('adicionales');
    expect(load('agregar-rama.json').steps.find((s) => s.id === 'aviso-inquilino')?.back).toBe('adicionales');
    expect(load('cambiar-guard.json').steps.find((s) => s.flag === 'address')?.path).toBe('seguro-hogar/direccion');
    const alarma = load('agregar-alarma.json');
    expect(alarma.steps.map((s) => s.id).slice(3, 6)).toEqual(['metros', 'alarma', 'localidad']);
    expect(alarma.steps.find((s) => s.id === 'localidad')?.back).toBe('alarma');
  });
});
