import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { identLength } from './ident.js';

describe('identLength', () => {
  it.each([
    ['look({})', 0, 4],
    ['_a$1 rest', 0, 4],
    ['$', 0, 1],
    ['1abc', 0, 0],
    ['', 0, 0],
    ['éa', 0, 0],
    ['aé', 0, 1],
    ['  edit(', 2, 4],
    ['a-b', 0, 1],
  ])('%j from %i is %i', (text, from, length) => {
    expect(identLength(text, from)).toBe(length);
  });

  it('agrees with the ASCII identifier pattern', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (text) => {
        const match = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text);
        expect(identLength(text)).toBe(match ? match[0].length : 0);
      }),
    );
  });
});
