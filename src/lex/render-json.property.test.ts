import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRETTY_DEPTH_LIMIT, renderCanonicalCall, walkCanonicalJson } from './render.js';

// Keys and strings that test the shortcut's refusals: canonical order (code points, so an astral
// key sorts above U+E000..U+FFFF), the `<<` escape, and whatever JSON.stringify escapes.
const text = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('<<EOF', '<<', 'a', 'b', 'B', '\ue000', '\ud83d\ude00', '\ud800', '"', '\\', '\n', '__proto__', 'toJSON', '10', '2'),
);
const scalar = fc.oneof(text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.bigInt());
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('node'), { maxLength: 4 }),
  object: fc.array(fc.tuple(text, tie('node')), { maxLength: 4 }).map((entries) => {
    const record: Record<string, unknown> = {};
    for (const [k, v] of entries) Object.defineProperty(record, k, { value: v, enumerable: true, writable: true, configurable: true });
    return record;
  }),
})).node;

/** `depth` arrays around `inner`: past the pretty-printing limit the walk writes one line. */
function nested(depth: number, inner: unknown): unknown {
  let out = inner;
  for (let i = 0; i < depth; i++) out = [out];
  return out;
}

describe('canonical JSON: the engine shortcut', () => {
  it('writes what the walk writes, for any value', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(renderCanonicalCall('f', v)).toBe(`f(${walkCanonicalJson(v === undefined ? {} : v)})`);
      }),
      { numRuns: 5000 },
    );
  });

  it('writes what the walk writes at and past the pretty-printing depth', () => {
    for (let depth = PRETTY_DEPTH_LIMIT - 3; depth <= PRETTY_DEPTH_LIMIT + 2; depth++) {
      const v = { a: nested(depth, { b: 1 }) };
      expect(renderCanonicalCall('f', v)).toBe(`f(${walkCanonicalJson(v)})`);
    }
  });
});
