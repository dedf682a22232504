import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { workRatio } from '../../test/support/string-work.js';
import { balancedJsonObjectLen } from './json-balance.js';

describe('balancedJsonObjectLen', () => {
  it.each([
    ['{"a": "}{"} trailing', 11],
    ['{"a": 1', 0],
    ['prose', 0],
    ['{}', 2],
    ["{'a': '}'}", 8],
    ['{"a": {"b": "\\"}"}} x', 19],
    ['', 0],
    [' {}', 0],
  ])('%j is %i', (text, length) => {
    expect(balancedJsonObjectLen(text)).toBe(length);
  });

  it('measures from an offset', () => {
    expect(balancedJsonObjectLen('x = {"a": 1} y', 4)).toBe(8);
  });

  it('measures exactly any serialized object', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), fc.string(), (value, tail) => {
        const json = JSON.stringify(value);
        expect(balancedJsonObjectLen(json + tail)).toBe(json.length);
      }),
    );
  });

  it('does linear work on an unclosed object', () => {
    expect(workRatio((n) => `{${'{"a\\"}":'.repeat(n)}`, (s) => balancedJsonObjectLen(s))).toBeLessThan(12);
  });
});
