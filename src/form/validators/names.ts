/** File name (without .js) of the precompiled flow conditions in generated/ — `__` so no step id can take it. */
export const CONDITIONS_MODULE = '__conditions';
