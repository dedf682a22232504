import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderCanonicalCall } from './render.js';

// The renderer writes short plain strings itself instead of asking JSON.stringify; this pins
// that shortcut to the engine's escaping (plus the `<<` rule) for keys and values alike.
function engineLiteral(s: string): string {
  const json = JSON.stringify(s);
  return s.startsWith('<<') ? `"\\u003c${json.slice(2)}` : json;
}

const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ unit: fc.constantFrom('a', '<', '"', '\\', '\n', '\u0000', '\u001f', '\u007f', '\u2028', '\ud800', '\udc00', '\ud83d\ude00'), maxLength: 70 }),
);

describe('renderCanonicalCall string literals', () => {
  it('match JSON.stringify (with `<<` escaped) for any string, short or long', () => {
    fc.assert(
      fc.property(anyString, anyString, (key, value) => {
        expect(renderCanonicalCall('f', { [key]: value })).toBe(`f({\n  ${engineLiteral(key)}: ${engineLiteral(value)}\n})`);
      }),
      { numRuns: 3000 },
    );
  });

  it('escapes what the shortcut must hand over', () => {
    expect(renderCanonicalCall('f', { a: 'x"y' })).toBe('f({\n  "a": "x\\"y"\n})');
    expect(renderCanonicalCall('f', { a: '<<EOF' })).toBe('f({\n  "a": "\\u003c<EOF"\n})');
    expect(renderCanonicalCall('f', { a: '\ud800' })).toBe('f({\n  "a": "\\ud800"\n})');
  });
});
