import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OffsetTable } from './offset-table.js';

describe('OffsetTable', () => {
  it('answers 0 where nothing was recorded', () => {
    const table = new OffsetTable(10);
    expect(table.get(3)).toBe(0);
    table.set(3, -2);
    expect(table.get(3)).toBe(-2);
    expect(table.get(4)).toBe(0);
  });

  it('keeps every entry when it moves from the Map to the typed array', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat({ max: 4095 }), fc.integer({ min: -5, max: 1 << 20 }).filter((v) => v !== 0)), { maxLength: 400 }), (writes) => {
        const table = new OffsetTable(4096);
        const expected = new Map<number, number>();
        for (const [at, value] of writes) {
          table.set(at, value);
          expected.set(at, value);
        }
        for (let at = 0; at < 4096; at++) expect(table.get(at)).toBe(expected.get(at) ?? 0);
      }),
      { numRuns: 60 },
    );
  });
});
