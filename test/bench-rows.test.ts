// The bench's rows are built from the dialect records, so a new record can break them; a broken
// row only shows when someone runs `npm run bench`. Building them here, and checking each parses
// to the calls it claims, keeps the benchmark runnable and its figures about a correct parse.
import { describe, expect, it } from 'vitest';
import { benchRows, checkRow } from '../bench/rows.js';

describe('bench rows', () => {
  const rows = benchRows();
  it('cover every row the performance goals name', () => {
    expect(rows.length).toBeGreaterThanOrEqual(14);
  });
  for (const r of rows) {
    it(`"${r.name}" parses to its ${r.calls} calls`, () => {
      expect(() => checkRow(r)).not.toThrow();
    });
  }
});
