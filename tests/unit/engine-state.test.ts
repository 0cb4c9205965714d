/** What a restart keeps: only the data the flow's start calls saved (they do not run again). */
import { describe, expect, it } from 'vitest';
import flowJson from '../../flow/flow.json';
import { compileFlowNode } from '../../tools/check/conditions.ts';
import type { FlowDef } from '../../src/core/flow/types.ts';
import { startData } from '../../src/engine/state.ts';

describe('startData', () => {
  const flow = compileFlowNode(flowJson as unknown as FlowDef);

  it('keeps what the shipped start call saved (the chat switch) and drops the quote and the policy', () => {
    const data = { chat: { p_estado: 'C', telefono: '5491100000000' }, cotizacion: { refId: 'x' }, emision: { estado: 'EMITIDA' } };
    expect(startData(flow, data)).toEqual({ chat: data.chat });
  });

  it('keeps nothing when the flow has no start call', () => {
    const bare = compileFlowNode({ ...(flowJson as unknown as FlowDef), onStart: [] });
    expect(startData(bare, { chat: { p_estado: 'C' } })).toEqual({});
  });
});
