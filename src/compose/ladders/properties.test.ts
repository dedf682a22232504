import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callFromBody } from './body.js';
import { jsonCallFromBody } from './json-body.js';
import { jsonFields } from './json-fields.js';
import { labelBody } from './label.js';
import { parseMarkup } from './markup.js';
import { scanParameters } from './markup-params.js';
import { foldNameAlias, normalizeCall } from './names.js';
import { nestedXml } from './nested-xml.js';
import { corpus, sample } from './registries.spec.js';
import { unclosedBlockOutcome } from './unclosed.js';

/** Fragments the ladders branch on, so random bodies reach deep rungs and not only the last one. */
const FRAGMENTS = [
  '<function=', '<function=run>', '<function=edit>', '</function>', '<invoke name="run">', '<invoke name=', '</invoke>',
  '<parameter=command>', '<parameter name="path" string="true">', '</parameter>', '<parameter', '<edit>', '</edit>',
  '<thinking>', '</thinking>', '<assistant_prose>', '</assistant_prose>', '<reasoning>', '</reasoning>',
  '{', '}', '[', ']', '"', ':', ',', '"name"', '"run"', '"arguments"', '"args"', '"__proto__"', 'run(', 'run{', 'edit(',
  '{ command: "ls" }', ')', '\n', ' ', '\r\n', 'run\n', '&lt;', '&amp;', '<<EOF\n', '\nEOF', '`', '```', 'frob(',
];
const body = fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 6 })), { maxLength: 40 }).map((parts) => parts.join(''));
const anyText = fc.oneof(body, fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 80 }));
const head = fc.option(fc.record({ name: fc.constantFrom('run', 'edit', 'frob', ''), sep: fc.constantFrom('(' as const, '{' as const) }), { nil: undefined });

describe('ladder rungs never throw on arbitrary text', () => {
  it('callFromBody and unclosedBlockOutcome answer with a rung for any body', () => {
    fc.assert(
      fc.property(anyText, head, (text, h) => {
        for (const ctx of [sample(), corpus()]) {
          const closed = callFromBody(text, ctx, h);
          const unclosed = unclosedBlockOutcome(text, ctx, h);
          expect(typeof closed.rung).toBe('string');
          expect(typeof unclosed.rung).toBe('string');
          if (!closed.ok) expect(closed.error.length).toBeGreaterThan(0);
          if (!unclosed.ok && unclosed.matched !== true) expect(unclosed.error.startsWith('TOOL CALL TRUNCATED: ')).toBe(true);
          if (closed.ok && closed.call) expect(typeof closed.call.arguments).toBe('object');
        }
      }),
      { numRuns: 400 },
    );
  });

  it('the individual rungs and policies are total', () => {
    fc.assert(
      fc.property(anyText, fc.string({ maxLength: 20 }), (text, hint) => {
        const ctx = sample();
        parseMarkup(text, ctx);
        nestedXml(text, ctx);
        labelBody(text);
        jsonCallFromBody(text, ctx, hint);
        const { params, leftover } = scanParameters(text);
        expect(leftover.length).toBeLessThanOrEqual(text.length);
        for (const p of params) expect(typeof p.key).toBe('string');
        foldNameAlias(text, { command: text, intent: hint }, ctx.known);
        normalizeCall(text, { name: hint, args: {} }, ctx, { foldAliases: true });
      }),
      { numRuns: 500 },
    );
  });

  it('jsonFields and alias folding accept any JSON object', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 })), fc.string({ maxLength: 16 }), (item, name) => {
        const fields = jsonFields(item);
        expect(typeof fields.name).toBe('string');
        foldNameAlias(name, fields.arguments, sample().known);
      }),
      { numRuns: 300 },
    );
  });
});
