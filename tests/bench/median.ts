/**
 * The bench's median: the middle value of `xs` (the upper of the two middle ones for an even count), as every table of
 * `npm run bench` reports it. @throws nothing; NaN for an empty list
 */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : NaN;
}
