/**
 * Properties of the JSON-argument field grammars, rendered from their records
 * (test/support/field-json-grammars.ts):
 * - round trip: random calls (names, nested values, unicode, quotes, the grammar's own markers
 *   inside string values) rendered the grammar's way between random prose come back exactly;
 * - never throws: random joins of every marker and JSON fragment parse without an exception.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JSON_GRAMMAR_CASES, type GrammarCase } from '../../../test/support/field-json-grammars.js';
import { asRead } from '../../../test/support/exact-integers.js';
import { parseToolCalls } from '../parse.js';

// Names that a call object reads as its own keys are not tool names a test can round-trip.
const RESERVED = new Set(['name', 'tool_name', 'function', 'arguments', 'parameters', 'args', 'type', 'all']);
const nameArb = fc.stringMatching(/^[a-z_][a-z0-9_]{0,11}$/).filter((n) => !RESERVED.has(n));
const proseArb = fc.stringMatching(/^[A-Za-z][A-Za-z ,.!?]{0,30}$/);

function valueArb(c: GrammarCase): fc.Arbitrary<unknown> {
  const markers = c.rawClose === true ? [] : c.grammar.markers;
  const text = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.constantFrom('"quoted"', "it's", '\\', '\n', '{"a": 1}', '[1, 2]', ...markers),
  );
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      text,
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 3 }),
    ),
  })).value;
}

function argsArb(c: GrammarCase): fc.Arbitrary<Record<string, unknown>> {
  // JSON-normalised (-0, __proto__), as the text carries it.
  return fc.dictionary(fc.string({ maxLength: 8 }), valueArb(c), { maxKeys: 4 }).map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>);
}

describe.each(JSON_GRAMMAR_CASES.map((c) => [c.grammar.id, c] as const))('%s', (_id, c) => {
  it('round-trips random calls between random prose', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(nameArb, argsArb(c)), { minLength: 1, maxLength: 3 }), proseArb, proseArb, (calls, before, after) => {
        const text = `${before}\n${c.render(calls.map(([n, a]) => [n, JSON.stringify(a)] as const))}\n${after}`;
        const tools = [...new Set(calls.map(([n]) => n))].map((name) => ({ name }));
        const result = parseToolCalls(text, { tools, profile: 'gateway' });
        expect(result.calls.map((x) => [x.name, x.arguments])).toEqual(asRead(calls));
        expect(result.tool_parse_errors).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});

const FRAGMENTS = [
  ...new Set(JSON_GRAMMAR_CASES.flatMap((c) => [...c.grammar.markers, ...c.grammar.openers])),
  '{', '}', '[', ']', '"', "'", ',', ';', ':', '\n', ' ', '```json\n', '```', 'get_weather', '"name"', '"arguments"', '"parameters"',
  '{"name": "get_weather", "arguments": {"city": "Paris"}}', "{'name': 'get_weather'", 'True', 'None', '"x', '\\', 'function', '>', '[ARGS]',
];

describe('the JSON-argument field grammars never throw', () => {
  it('on random joins of their markers and JSON fragments', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 24 }), fc.boolean(), (parts, registered) => {
        const text = parts.join('');
        const result = parseToolCalls(text, { tools: registered ? [{ name: 'get_weather' }] : null, profile: 'gateway' });
        if (registered) for (const call of result.calls) expect(call.name).toBe('get_weather');
        for (const call of result.calls) expect(typeof call.arguments).toBe('object');
      }),
      { numRuns: 1500 },
    );
  });
});
