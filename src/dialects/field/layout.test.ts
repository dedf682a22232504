import { describe, expect, it } from 'vitest';
import { FIELD_GRAMMARS } from './index.js';
import { uniformRecord } from './layout.js';

describe('uniformRecord', () => {
  it('writes every listed field in the list order, undefined where the record has none', () => {
    const record = uniformRecord({ b: 2, id: 'x' } as { id: string; a?: number; b: number }, ['id', 'a', 'b']);
    expect(Object.keys(record)).toEqual(['id', 'a', 'b']);
    expect(record).toEqual({ id: 'x', b: 2 });
  });

  it('refuses a field the list does not name, so no field is dropped unseen', () => {
    expect(() => uniformRecord({ id: 'x', extra: 1 } as { id: string; extra: number }, ['id'])).toThrow(/field extra of x/);
  });

  // The readers load fields from whichever record of a family a region opened: one key order is one layout.
  it.each(['token-section', 'call-objects'])('gives every %s record the same fields in the same order', (family) => {
    const records = FIELD_GRAMMARS.filter((g) => g.family === family);
    expect(records.length).toBeGreaterThan(1);
    for (const record of records) expect(Object.keys(record)).toEqual(Object.keys(records[0]!));
  });
});
