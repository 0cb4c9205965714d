// @vitest-environment node
/** docs/flow.svg is drawn from flow/flow.json by `npm run flow:graph`; a stale drawing fails the suite. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FlowDef } from '../../src/core/flow/types.ts';
import { renderFlowSvg } from '../../scripts/flow-graph.ts';

describe('flow diagram', () => {
  it('docs/flow.svg is up to date with flow/flow.json (run npm run flow:graph)', async () => {
    const def = JSON.parse(readFileSync('flow/flow.json', 'utf8')) as FlowDef;
    const svg = await renderFlowSvg(def);
    expect(readFileSync('docs/flow.svg', 'utf8') === svg, 'docs/flow.svg está desactualizado: corré npm run flow:graph').toBe(true);
    for (const s of def.steps) expect(svg).toContain(`<title>${s.id.replace(/-/g, '&#45;')}</title>`);
  });
});
