/**
 * Start-up slicing from outside the logic: a model is built by a list of factories ("slices"), each given what the
 * earlier ones built and returning its own units. The browser builds them with a pause between two slices, so that no
 * single task holds the main thread long while the page starts (on a phone, creating every Effector unit of the
 * runtime at once was one ~40 ms task, ~160 ms at 4× CPU slow-down); tests and Node tools build them at once.
 */

/** One factory of a model: reads units the earlier slices built, returns its own (merged into what is built). */
// oxlint-disable-next-line typescript/no-explicit-any -- each slice types the part of the model it reads
export type Slice = (built: any) => object;

/** The model a list of slices builds: the intersection of what each returns. */
export type Built<S extends readonly Slice[]> = S extends readonly [infer F, ...infer Rest extends readonly Slice[]]
  ? (F extends (built: never) => infer R ? R : never) & Built<Rest>
  : unknown;

/** Builds the model of `slices` in one task. */
export function buildAtOnce<const S extends readonly Slice[]>(slices: S): Built<S> {
  let built: object = {};
  for (const slice of slices) built = { ...built, ...slice(built) };
  return built as Built<S>;
}

/** Builds the model of `slices`, awaiting `pause` (e.g. a yield to the browser's main thread) between two slices. */
export async function buildInSlices<const S extends readonly Slice[]>(slices: S, pause: () => Promise<void>): Promise<Built<S>> {
  let built: object = {};
  for (const [i, slice] of slices.entries()) {
    if (i > 0) await pause();
    built = { ...built, ...slice(built) };
  }
  return built as Built<S>;
}

/**
 * Runs `fn` when the browser is next idle, at the latest after `timeoutMs` (requestIdleCallback), or in a task of its
 * own where there are no idle callbacks (Node, older browsers): for work that must not share a frame with a render.
 */
export function whenIdle(fn: () => void, timeoutMs: number): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => fn(), { timeout: timeoutMs });
  else setTimeout(fn, 0);
}
