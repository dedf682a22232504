/**
 * Properties of the param-markup family over every record: calls rendered from the record's
 * data (names, nested values, unicode, quotes, other grammars' markers inside strings) and
 * surrounded by prose read back exactly; random fragments of the markers never throw.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD_GRAMMARS } from '../../dialects/field/index.js';
import { PARAM_MARKUP_GRAMMARS } from '../../dialects/field/param-markup.js';
import { renderParamMarkup } from '../../../test/support/param-markup-render.js';
import { asRead } from '../../../test/support/exact-integers.js';
import { parseToolCalls } from '../parse.js';

const tools = ['probe', 'other_tool'].map((name) => ({
  name,
  parameters: {
    type: 'object',
    properties: {
      s: { type: 'string' },
      t: { type: 'string' },
      i: { type: 'integer' },
      n: { type: 'number' },
      b: { type: 'boolean' },
      o: { type: 'object' },
      a: { type: 'array' },
      u: { type: ['integer', 'null'] },
    },
  },
}));

const ALL_MARKERS = [...new Set(FIELD_GRAMMARS.flatMap((g) => g.markers))];

const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 3 })),
})).value;

const prose = fc.array(fc.constantFrom('Sure', 'the', 'weather', 'is', 'fine', 'today', 'ok'), { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));

for (const grammar of PARAM_MARKUP_GRAMMARS) {
  const named = grammar.args.kind === 'named-tags';
  const closes = grammar.args.kind === 'tags' ? grammar.args.tag.close : grammar.args.kind === 'pairs' ? [grammar.args.valueClose] : ['</'];
  const forbidden = closes.map((c) => c.split('{S}').join(':opensource'));
  // A string the grammar can carry raw: no value close inside, no framing whitespace, not empty.
  const text = fc
    .oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }), fc.constantFrom(...ALL_MARKERS).map((m) => `a ${m} "q" }`), fc.constant('line one\n  line "two" <b>'))
    .filter((s) => s.trim() === s && s !== '' && !forbidden.some((c) => s.includes(c)) && !(grammar.values.cdata && s.includes('<![CDATA[')) && !(named && s.startsWith('<')));
  // Named tags carry nested values as tags whose leaves have no schema here: text leaves only.
  const tagKey = fc.stringMatching(/^[a-z][a-z0-9_]{0,5}$/).filter((k) => k !== 'item');
  const object = named ? fc.dictionary(tagKey, text, { minKeys: 1, maxKeys: 3 }) : fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 3 });
  const array = named ? fc.array(text, { minLength: 1, maxLength: 3 }) : fc.array(json, { maxLength: 3 });
  const args = fc.record(
    { s: text, t: text, i: fc.integer(), n: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0)), b: fc.boolean(), o: object, a: array, u: fc.option(fc.integer(), { nil: null }) },
    { requiredKeys: [] },
  );
  const call = fc.record({ name: fc.constantFrom('probe', 'other_tool'), arguments: args });

  describe(`param-markup properties: ${grammar.id}`, () => {
    it('round-trips random calls surrounded by prose', () => {
      fc.assert(
        fc.property(fc.array(call, { minLength: 1, maxLength: 3 }), prose, prose, (calls, before, after) => {
          const region = grammar.section === null && grammar.envelope === null ? calls.map((c) => renderParamMarkup(grammar, [c])).join('\n') : renderParamMarkup(grammar, calls);
          const result = parseToolCalls(`${before}\n${region}\n${after}`, { tools, profile: 'gateway' });
          expect(result.calls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual(asRead(calls));
          expect(result.prose).toBe(`${before}\n\n${after}`);
          expect(result.tool_parse_errors).toEqual([]);
        }),
        { numRuns: 60 },
      );
    });
  });
}

describe('param-markup properties: never throws', () => {
  const pieces = [...new Set(PARAM_MARKUP_GRAMMARS.flatMap((g) => [...g.markers, ...g.openers]).map((m) => m.split('{S}').join(':x')))];
  const fragment = fc.array(fc.oneof(fc.constantFrom(...pieces, ' name="', '"', '>', '{', '}', '\n', '=', 'probe', '42', '<![CDATA['), fc.string({ maxLength: 4 })), { maxLength: 30 }).map((p) => p.join(''));
  it('returns a result for any sequence of marker fragments, with and without a registry', () => {
    fc.assert(
      fc.property(fragment, fc.boolean(), (text, withTools) => {
        const result = parseToolCalls(text, withTools ? { tools, profile: 'gateway' } : { profile: 'gateway' });
        expect(Array.isArray(result.calls)).toBe(true);
        for (const call of result.calls) expect(typeof call.name).toBe('string');
      }),
      { numRuns: 400 },
    );
  });
});
