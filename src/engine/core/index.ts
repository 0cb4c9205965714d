/**
 * What the engine reads of the pure logic, in one import: its own state logic over a flow (guards and flags, counter,
 * next step, saved-state migrations; this folder) and the flow core it shares with the server (src/core/flow: types,
 * pointers, bindings, conditions, compileFlow, flow checks), re-exported so the engine's modules need one import.
 */
export * from '../../core/flow/types.ts';
export * from '../../core/flow/pointer.ts';
export * from '../../core/flow/bindings.ts';
export * from '../../core/flow/conditions.ts';
export * from '../../core/flow/graph.ts';
export * from '../../core/flow/check-flow.ts';
export * from './guards.ts';
export * from './navigation.ts';
export * from './migrations.ts';
