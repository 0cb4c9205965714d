/** Pure flow logic (no Effector, no React): guards, flags, counter, next step, bindings, checks. */
export * from '../../core/flow/types.ts';
export * from '../../core/flow/pointer.ts';
export * from '../../core/flow/bindings.ts';
export * from '../../core/flow/conditions.ts';
export * from './guards.ts';
export * from './navigation.ts';
export * from '../../core/flow/graph.ts';
export * from '../../core/flow/check-flow.ts';
export * from './migrations.ts';
