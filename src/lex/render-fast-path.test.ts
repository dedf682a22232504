import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderCanonicalCall, renderCanonicalCallCarefully } from './render.js';

describe('renderCanonicalCall fast path', () => {
  it('renders exactly what the careful renderer renders, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(renderCanonicalCall('look', value)).toBe(renderCanonicalCallCarefully('look', value));
      }),
      { numRuns: 500 },
    );
  });

  it('agrees on keys out of order, integer-like keys, << strings and own __proto__ keys', () => {
    const proto = JSON.parse('{"__proto__": {"b": 1, "a": "<<EOF"}, "z": [1, {"y": 2, "x": 3}]}') as unknown;
    const cases: unknown[] = [
      { b: 1, a: 2 },
      { '10': 1, '9': 2, a: 3 },
      { a: '<<EOF\nx\nEOF' },
      { '<<k': 1 },
      [{ b: [], a: {} }],
      proto,
      { a: Number.NaN, b: Number.POSITIVE_INFINITY, c: -0 },
    ];
    for (const value of cases) expect(renderCanonicalCall('f', value)).toBe(renderCanonicalCallCarefully('f', value));
    expect(renderCanonicalCall('f', { b: 1, a: 2 })).toBe('f({\n  "a": 2,\n  "b": 1\n})');
  });
});
