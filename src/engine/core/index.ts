/** Pure flow logic (no Effector, no React): guards, flags, counter, next step, bindings, checks. */
export * from './types.ts';
export * from './pointer.ts';
export * from './bindings.ts';
export * from './conditions.ts';
export * from './guards.ts';
export * from './navigation.ts';
export * from './graph.ts';
export * from './check-flow.ts';
export * from './migrations.ts';
