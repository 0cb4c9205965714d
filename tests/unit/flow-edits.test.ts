/**
 * The worked examples of docs/flow-format.md, as a staffer makes them: JSON edits only (RFC 6902 patches in
 * tests/fixtures/flow-edits/), applied to a copy of the product files. Each must pass `flow:check` with no error,
 * and its journey must reach a result step.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Operation } from 'fast-json-patch';
import { editedCopy } from '../support/edited-tree.ts';
import { describe, expect, it } from 'vitest';
import { checkProduct, type ProductFiles } from '../../tools/check/project.ts';
import { journey, type FlowDef } from '../../src/engine/core/index.ts';
import { loadProduct } from '../../scripts/flow-check.ts';
import { compileFlowNode } from '../../tools/check/conditions.ts';

const dir = 'tests/fixtures/flow-edits';
const examples = readdirSync(dir).filter((f) => f.endsWith('.json'));

/** The product as the checker reads it, after an example's edits (applied to a copy of the tree, files and all). */
const edited = (edits: Record<string, Operation[] | null>): ProductFiles => loadProduct(editedCopy(edits));

describe('worked examples (JSON edits only)', () => {
  it.each(examples)('%s passes flow:check and still reaches the end', (name) => {
    const example = JSON.parse(readFileSync(`${dir}/${name}`, 'utf8'));
    const editedProduct = edited(example.edits);
    const errors = checkProduct(editedProduct).problems.filter((p) => p.severity !== 'warning');
    expect(errors).toEqual([]);
    const flow = compileFlowNode(editedProduct.flow as FlowDef);
    const path = journey(flow, {
      flags: {},
      answers: { permanencia: { titularidad: 'INQUILINO' } },
      data: { emision: { estado: 'EMITIDA' } },
      numberDetailStep: 1.1,
    });
    expect(flow.steps.find((s) => s.id === path[path.length - 1])?.kind).toBe('result');
  });

  it('the examples change what they say they change', () => {
    const load = (n: string) => compileFlowNode(edited(JSON.parse(readFileSync(`${dir}/${n}`, 'utf8')).edits).flow as FlowDef);
    expect(load('reordenar.json').guardOrder.slice(0, 3)).toEqual(['property', 'area', 'permanence']);
    expect(load('quitar-adicionales.json').stages).not.toContain('adicionales');
    expect(load('agregar-rama.json').steps.find((s) => s.id === 'aviso-inquilino')?.back).toBe('adicionales');
    expect(load('cambiar-guard.json').steps.find((s) => s.flag === 'address')?.path).toBe('seguro-hogar/direccion');
    const alarma = load('agregar-alarma.json');
    expect(alarma.steps.map((s) => s.id).slice(3, 6)).toEqual(['metros', 'alarma', 'localidad']);
    expect(alarma.steps.find((s) => s.id === 'localidad')?.back).toBe('alarma');
  });
});
