/**
 * The top-level member finder the worker uses to key the tools cache by the registry's own text.
 * A span it returns must be exactly the member's value; every doubt must be null.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topLevelMemberSpan } from '../../src/server/worker/member-span.js';

const valueText = (json: string, key: string, expected: string | null = null): string | null => {
  const span = topLevelMemberSpan(json, key, expected);
  return span === null ? null : json.slice(span.start, span.end);
};

describe('topLevelMemberSpan', () => {
  it('finds the value text of a top-level member wherever it stands, with any spacing', () => {
    expect(valueText('{"text":"hi","tools":["look"]}', 'tools')).toBe('["look"]');
    expect(valueText('{ "tools" : [ {"name": "a\\"b"} ] ,\n "text": "x" }', 'tools')).toBe('[ {"name": "a\\"b"} ]');
    expect(valueText('{"a": {"tools": 1}, "tools": {"tools": []}}', 'tools')).toBe('{"tools": []}');
    expect(valueText('{"tools": 12.5e3}', 'tools')).toBe('12.5e3');
    expect(valueText('{"text": "a \\\\\\" \\"tools\\": [] \\\\", "tools": null}', 'tools')).toBe('null');
  });

  it('is null when the member is absent or the text is not an object', () => {
    expect(topLevelMemberSpan('{"text": "\\"tools\\": []"}', 'tools')).toBeNull();
    expect(topLevelMemberSpan('{"nested": {"tools": []}}', 'tools')).toBeNull();
    expect(topLevelMemberSpan('[{"tools": []}]', 'tools')).toBeNull();
    expect(topLevelMemberSpan('{}', 'tools')).toBeNull();
    expect(topLevelMemberSpan('', 'tools')).toBeNull();
  });

  it('is null when JSON.parse could read the member differently: escaped keys, repeats', () => {
    expect(topLevelMemberSpan('{"t\\u006fols": ["a"]}', 'tools')).toBeNull();
    expect(topLevelMemberSpan('{"tools": ["a"], "tools": ["b"]}', 'tools')).toBeNull();
  });

  it('is null on malformed text instead of guessing', () => {
    for (const bad of ['{"tools": [1, 2}', '{"tools" ["a"]}', '{"tools": ["a"] "text": 1}', '{"tools": "open', '{"tools": }', '{tools: []}']) {
      expect(topLevelMemberSpan(bad, 'tools')).toBeNull();
    }
  });

  it('agrees with JSON.parse on any object, spaced or not', () => {
    const member = fc.oneof(fc.constant('tools'), fc.constant('text'), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.dictionary(member, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }), fc.constantFrom(0, 2, '\t'), (object, indent) => {
        const json = JSON.stringify(object, null, indent);
        const parsed = JSON.parse(json) as Record<string, unknown>; // -0 is written as 0
        // A key written with escapes might spell the wanted one, so its object may give null.
        const escaped = Object.keys(object).some((k) => JSON.stringify(k).includes('\\'));
        for (const key of Object.keys(object)) {
          const span = topLevelMemberSpan(json, key);
          if (span === null && escaped) continue;
          expect(span).not.toBeNull();
          expect(JSON.parse(json.slice(span!.start, span!.end))).toEqual(parsed[key]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('takes an expected value by comparison, and only when it is the whole value', () => {
    const body = '{"text": "x", "tools": [{"name": "look"}], "n": 123}';
    expect(valueText(body, 'tools', '[{"name": "look"}]')).toBe('[{"name": "look"}]');
    expect(valueText(body, 'tools', '[{"name": "lo"}]')).toBe('[{"name": "look"}]');
    expect(valueText(body, 'n', '12')).toBe('123');
    expect(valueText('{"tools": ["a","b"]}', 'tools', '["a"]')).toBe('["a","b"]');
  });

  it('gives the same span with or without an expected value', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('tools', 'text', 'id'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), fc.jsonValue({ maxDepth: 2 }), fc.boolean(), (object, other, same) => {
        const json = JSON.stringify(object);
        const plain = topLevelMemberSpan(json, 'tools');
        const expected = same && 'tools' in object ? JSON.stringify(object.tools) : JSON.stringify(other);
        expect(topLevelMemberSpan(json, 'tools', expected)).toEqual(plain);
      }),
      { numRuns: 500 },
    );
  });

  it('does work linear in the text for long strings full of escaped quotes', () => {
    // Each backslash run is counted once; a quadratic reader would rescan the runs.
    const body = (n: number) => JSON.stringify({ text: '\\"'.repeat(n) + '\\'.repeat(n), tools: ['look'] });
    for (const n of [1_000, 8_000]) expect(valueText(body(n), 'tools')).toBe('["look"]');
  });
});
