import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD_GRAMMARS } from '../../dialects/field/index.js';
import { normalizeTools } from '../../dialects/registry.js';
import { CallMarks } from '../call-provenance.js';
import { readRegion } from './readers/index.js';
import { grammarsToTry, opensJsonOrMarkup, opensMarkup, opensReferenceCall, referenceOpeners, skippedAtJsonOrMarkup, skippedAtMarkup } from './reference-head.js';
import { RegionSink } from './region.js';
import { FieldScan } from './scan.js';

// The openers the lane's shortcut applies to, each with every grammar that opens with it.
const SHARED = [...referenceOpeners()].map((opener) => ({ opener, grammars: FIELD_GRAMMARS.filter((g) => g.openers.includes(opener)) })).filter((s) => s.grammars.length > 0);

// What may follow `name({`: JSON, every marker of the grammars sharing the opener, and the
// pieces their heads look for (a newline, `>`, a `function\n` prefix).
const REST = [
  '"path"', ': ', '"a.rs"', '1', '}', ')', '{', '[', ']', ',', ' ', '\n', '\t', 'x', '>', 'function\n', '<', '"', "'", '(',
  ...new Set(SHARED.flatMap((s) => s.grammars.flatMap((g) => g.markers))),
  '<function=look>', '<parameter=path>', '<invoke name="look">', '<arg_key>path</arg_key>', '<arg_value>a</arg_value>',
  '"name": "look"', '"arguments": {', '"function": {', 'look', '>{', '\n>',
];
const NAMES = fc.oneof(fc.constantFrom('look', 'f', 'function', 'functools', 'get_weather', 'invoke', 'arg_key', '$x'), fc.stringMatching(/^[A-Za-z_$][A-Za-z0-9_$]{0,10}$/));
const BLANKS = fc.array(fc.constantFrom(' ', '\t', '\n', '\r'), { maxLength: 4 }).map((b) => b.join(''));
const REGISTRIES = [null, normalizeTools(['look', 'f', 'function', 'get_weather'])];

describe('opensReferenceCall: a reference call at a shared opener is read by no field grammar', () => {
  it('applies to the opener the field grammars share with the reference grammar', () => {
    expect(SHARED.map((s) => s.opener)).toContain('<tool_call>');
    // Every family that reads this opener is covered below (the shortcut stands for all of them).
    expect(new Set(SHARED.flatMap((s) => s.grammars.map((g) => g.family)))).toEqual(new Set(['token-section', 'call-objects', 'param-markup', 'value-grammar']));
  });

  for (const { opener, grammars } of SHARED) {
    for (const grammar of grammars) {
      it(`${grammar.id} refuses every \`${opener} name({…\` body and reports nothing`, () => {
        fc.assert(
          fc.property(fc.string({ maxLength: 6 }), BLANKS, NAMES, fc.array(fc.constantFrom(...REST), { maxLength: 30 }), fc.constantFrom(...REGISTRIES.keys()), (before, blanks, name, rest, which) => {
            const at = before.length;
            const text = `${before}${opener}${blanks}${name}({${rest.join('')}`;
            expect(opensReferenceCall(text, at, opener)).toBe(true);
            const registry = REGISTRIES[which]!;
            const sink = new RegionSink(text, grammar, registry, new CallMarks());
            expect(readRegion(new FieldScan(text, registry), at, grammar, sink)).toBeLessThanOrEqual(at);
            expect(sink.empty).toBe(true);
          }),
          { numRuns: 1500 },
        );
      });
    }
  }

  for (const { opener, grammars } of SHARED) {
    for (const grammar of grammars.filter(skippedAtJsonOrMarkup)) {
      it(`${grammar.id} refuses every JSON or markup body after \`${opener}\` and reports nothing`, () => {
        fc.assert(
          fc.property(fc.string({ maxLength: 6 }), BLANKS, fc.constantFrom('{', '[', '<', '<function=look>', '<invoke name="look">', '<arg_key>'), fc.array(fc.constantFrom(...REST), { maxLength: 30 }), fc.constantFrom(...REGISTRIES.keys()), (before, blanks, open, rest, which) => {
            const at = before.length;
            const text = `${before}${opener}${blanks}${open}${rest.join('')}`;
            expect(opensJsonOrMarkup(text, at, opener)).toBe(true);
            const registry = REGISTRIES[which]!;
            const sink = new RegionSink(text, grammar, registry, new CallMarks());
            expect(readRegion(new FieldScan(text, registry), at, grammar, sink)).toBeLessThanOrEqual(at);
            expect(sink.empty).toBe(true);
          }),
          { numRuns: 1500 },
        );
      });
    }
  }

  for (const { opener, grammars } of SHARED) {
    for (const grammar of grammars.filter((g) => skippedAtMarkup(g) && !skippedAtJsonOrMarkup(g))) {
      it(`${grammar.id} refuses every markup body after \`${opener}\` and reports nothing`, () => {
        fc.assert(
          fc.property(fc.string({ maxLength: 6 }), BLANKS, fc.constantFrom('<', '<function=look>', '<invoke name="look">', '<arg_key>', '<tool_call>', '<parameter=path>'), fc.array(fc.constantFrom(...REST), { maxLength: 30 }), fc.constantFrom(...REGISTRIES.keys()), (before, blanks, open, rest, which) => {
            const at = before.length;
            const text = `${before}${opener}${blanks}${open}${rest.join('')}`;
            expect(opensMarkup(text, at, opener)).toBe(true);
            const registry = REGISTRIES[which]!;
            const sink = new RegionSink(text, grammar, registry, new CallMarks());
            expect(readRegion(new FieldScan(text, registry), at, grammar, sink)).toBeLessThanOrEqual(at);
            expect(sink.empty).toBe(true);
          }),
          { numRuns: 1500 },
        );
      });
    }
  }

  it('tries, at a JSON body, every grammar sharing the opener but the token-section ones, and at a markup body none of the JSON call-object ones either, in order', () => {
    const text = '<tool_call>\n{"name": "look", "arguments": {}}</tool_call>';
    const { grammars } = SHARED.find((s) => s.opener === '<tool_call>')!;
    const hit = { index: 0, opener: '<tool_call>', grammars };
    expect(grammars.some(skippedAtJsonOrMarkup)).toBe(true);
    expect(grammarsToTry(text, hit)).toEqual(grammars.filter((g) => g.family !== 'token-section'));
    expect(grammarsToTry('<tool_call>look({"path": "a"})', hit)).toEqual([]);
    expect(grammars.some((g) => g.family === 'call-objects')).toBe(true);
    expect(grammarsToTry('<tool_call>\n<function=look>', hit)).toEqual(grammars.filter((g) => g.family !== 'token-section' && g.family !== 'call-objects'));
    expect(grammarsToTry('<tool_call>look\n<arg_key>', hit)).toBe(grammars);
    expect(grammarsToTry('<tool_call>function\nlook\n{}', hit)).toBe(grammars);
  });

  it('does not apply to the bodies these grammars read, nor to other openers', () => {
    const own = [
      '<tool_call>{"name": "look", "arguments": {}}</tool_call>',
      '<tool_call>\n<function=look>\n<parameter=path>\na\n</parameter>\n</function>\n</tool_call>',
      '<tool_call>look\n<arg_key>path</arg_key>\n<arg_value>a</arg_value>\n</tool_call>',
      '<tool_call>function\nlook\n{"path": "a"}</tool_call>',
      '<tool_call>look>{"path": "a"}</tool_call>',
      '<tool_call> look ({"path": "a"})</tool_call>',
      '<tool_call>look(path="a")</tool_call>',
    ];
    for (const text of own) expect(opensReferenceCall(text, 0, '<tool_call>')).toBe(false);
    expect(opensReferenceCall('<function=look({', 0, '<function=')).toBe(false);
    expect(opensReferenceCall('<tool_call>\n  look({"path": "a"})</tool_call>', 0, '<tool_call>')).toBe(true);
  });
});
