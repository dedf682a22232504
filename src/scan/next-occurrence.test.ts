import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NextOccurrence } from './next-occurrence.js';

describe('NextOccurrence', () => {
  it('answers like indexOf for queries in any order', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '<', '|'), maxLength: 40 }), fc.constantFrom('a', 'ab', '<|', '|<|', 'bb'), fc.array(fc.nat(45)), (src, needle, queries) => {
        const finder = new NextOccurrence(src, needle);
        for (const from of queries) expect(finder.from(Math.min(from, src.length))).toBe(src.indexOf(needle, Math.min(from, src.length)));
      }),
      { numRuns: 3000 },
    );
  });
});
