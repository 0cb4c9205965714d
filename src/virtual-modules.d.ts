/** Virtual modules of this project's Vite plugins. */
declare module 'virtual:problemas-del-flujo' {
  import type { FlowProblem } from './core/flow/check-flow.ts';
  /** The flow checker's problems over the build's files (scripts/vite-vista-previa.ts). */
  const problems: FlowProblem[];
  export default problems;
}
