import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexWithin, matchAt, matchListAt, searchList } from './cursor.js';

describe('indexWithin', () => {
  it('finds a needle anywhere in its window, near the start or far from it, and nothing past it', () => {
    const text = `${'a'.repeat(300)}>b`;
    expect(indexWithin(text, '>', 0, 300)).toBe(300);
    expect(indexWithin(text, '>', 0, 299)).toBe(-1);
    expect(indexWithin(text, '>', 295, 5)).toBe(300);
    expect(indexWithin(text, 'a>', 0, 299)).toBe(299);
    expect(indexWithin('x>', '>', 0, 4)).toBe(1);
  });

  it('answers as a search of the window cut out would, for one-character and longer needles', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab>\n]{0,60}$/), fc.constantFrom('>', '\n', 'b>', '>>'), fc.nat(60), fc.nat(40), (text, needle, from, window) => {
        const start = Math.min(from, text.length);
        const cut = text.slice(start, start + window + needle.length).indexOf(needle);
        expect(indexWithin(text, needle, start, window)).toBe(cut < 0 ? -1 : start + cut);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('searchList and matchListAt', () => {
  it('compiles a frozen list into an unfrozen one of its own: each literal once, no empty literal, first occurrences in order', () => {
    const frozen = Object.freeze(['<b>', '', '<a>', '<b>', '</a>']);
    const list = searchList(frozen);
    expect([...list]).toEqual(['<b>', '<a>', '</a>']);
    expect(Object.isFrozen(list)).toBe(false);
    expect(list).not.toBe(frozen);
  });

  it('answers as matchAt does over the list it was compiled from', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[<>ab/]{0,12}$/),
        fc.array(fc.stringMatching(/^[<>ab/]{0,3}$/), { maxLength: 5 }),
        fc.integer({ min: -2, max: 14 }),
        (text, literals, at) => {
          expect(matchListAt(text, at, searchList(literals))).toBe(matchAt(text, at, literals));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
