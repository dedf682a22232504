import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { workRatio } from '../../test/support/string-work.js';
import { skipStringSpan } from './string-span.js';

describe('skipStringSpan', () => {
  it.each([
    ['"abc" rest', 0, 5],
    ["'it' s", 0, 4],
    ['`a\nb`', 0, 5],
    ['"a\\"b"', 0, 6],
    ['"a\\\\"b"', 0, 5],
    ['"a\\\n"', 0, 5],
    ['"it\'s"', 0, 6],
    ['x "y"', 2, 5],
  ])('%j from %i ends at %i', (src, start, end) => {
    expect(skipStringSpan(src, start)).toBe(end);
  });

  it('returns -1 when unterminated', () => {
    expect(skipStringSpan("it's a trap", 2)).toBe(-1);
    expect(skipStringSpan('"abc\\"', 0)).toBe(-1);
    expect(skipStringSpan('"', 0)).toBe(-1);
  });

  it('ends just past the first unescaped same quote, or -1', () => {
    fc.assert(
      fc.property(fc.constantFrom('"', "'", '`'), fc.string({ maxLength: 20 }), (quote, body) => {
        const src = quote + body;
        const end = skipStringSpan(src, 0);
        if (end < 0) return;
        expect(src.charAt(end - 1)).toBe(quote);
        expect(end).toBeLessThanOrEqual(src.length);
      }),
    );
  });

  it('ends exactly where a character-by-character walk ends', () => {
    // The walk the quote-to-quote hops replace: a backslash skips itself and the next unit.
    const walk = (src: string, start: number): number => {
      for (let i = start + 1; i < src.length; i += src[i] === '\\' ? 2 : 1) if (src[i] === src[start]) return i + 1;
      return -1;
    };
    const unit = fc.constantFrom('"', "'", '`', '\\', 'a', '\n');
    fc.assert(
      fc.property(fc.constantFrom('"', "'", '`'), fc.array(unit, { maxLength: 30 }), (quote, units) => {
        const src = quote + units.join('');
        expect(skipStringSpan(src, 0)).toBe(walk(src, 0));
      }),
      { numRuns: 1000 },
    );
  });

  it('does linear work on an unbalanced quote over escapes', () => {
    expect(workRatio((n) => `'${"it\\'s \\\\ ".repeat(n)}`, (src) => skipStringSpan(src, 0))).toBeLessThan(12);
  });
});
