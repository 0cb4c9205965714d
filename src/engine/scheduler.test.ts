/** The start-up scheduler: slices see what earlier ones built, and the browser gets a turn between two of them. */
import { describe, expect, it } from 'vitest';
import { buildAtOnce, buildInSlices } from './scheduler.ts';

const slices = (log: string[]) =>
  [
    () => (log.push('a'), { a: 1 }),
    (b: { a: number }) => (log.push('b'), { b: b.a + 1 }),
    (b: { a: number; b: number }) => (log.push('c'), { c: b.a + b.b }),
  ] as const;

describe('scheduler', () => {
  it('builds at once: each slice sees what the earlier ones returned', () => {
    const log: string[] = [];
    expect(buildAtOnce(slices(log))).toEqual({ a: 1, b: 2, c: 3 });
    expect(log).toEqual(['a', 'b', 'c']);
  });

  it('builds in slices with one pause between two slices, none before the first or after the last', async () => {
    const log: string[] = [];
    const built = await buildInSlices(slices(log), async () => void log.push('pausa'));
    expect(built).toEqual({ a: 1, b: 2, c: 3 });
    expect(log).toEqual(['a', 'pausa', 'b', 'pausa', 'c']);
  });
});
