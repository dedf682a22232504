/**
 * Properties of `scanUnits` over generated input: it never throws on model text, every unit
 * advances, units are in order and tile the source with only skippable whitespace between
 * them; plus the reference's own properties over its fragment alphabet (the reference scanner's pinned examples).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildScanSpec } from '../dialects/index.js';
import { tilingViolation } from './invariants.js';
import { scanUnits } from './scanner.js';
import type { ScanSpec } from './types.js';
import { scanSpecArbitrary } from '../../test/support/scan-spec-arbitrary.js';
import { validateScanSpec } from './validate.js';

const defaultSpec = validateScanSpec(buildScanSpec(['look', 'edit', 'run']));

/** Pieces that exercise every branch, joined at random (plus arbitrary text between them). */
const pieces = [
  '<', '>', '/', '<tool_call>', '</tool_call>', '<toolcall>', '</toolcall>', '<tool_call >', '<tool_calls>',
  '<<EOF\n', '<<EOF\\n', '<<E:1\n', '<<\'EOF\'\n', 'EOF', ' EOF })', '})', '"', "'", '`', '```', '~~~', '\\', '\\n',
  '\n', '\r\n', ' ', '\t', '\f', '\u000b', '\u00a0', '\u2028', 'é', '😀', '\ud800',
  '<|', '|>', '<|message|>', '<|start|>', '<|channel|>', '<|end|>', '<|foo|>', 'tool_call to=', 'assistant',
  '<tool_call<|', '</tool_call<|', '<assistant<|', '[[CALL]', '[[CALL]]', ']',
  '<think>', '</think>', 'look({', 'look({ a: 1 })', '<look(', '<look({})>', '<edit({ a: "x" })', '{', '}', '(', ')',
  '<done>', '</done>', '<assistant_prose>', '</assistant_prose>', '<user_response>', '</user_response>',
  '<function=', '</function>', '<invoke name=', '</invoke>', '<function_calls>', '</function_calls>',
  '<notes>', 'prose ', 'x<<2', '1 << 2',
];

const modelText = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...pieces) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }), { maxLength: 40 })
  .map((parts) => parts.join(''));

function assertTiles(text: string, spec: ScanSpec): void {
  const result = scanUnits(text, spec);
  const problem = tilingViolation(result);
  if (problem !== null) throw new Error(`${problem}\ninput: ${JSON.stringify(text)}`);
}

describe('scanUnits properties (default spec)', () => {
  it('never throws and tiles the source, for structured model text', () => {
    fc.assert(fc.property(modelText, (text) => assertTiles(text, defaultSpec)), { numRuns: 3000 });
  });

  it('never throws and tiles the source, for any string', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => assertTiles(text, defaultSpec)), { numRuns: 1000 });
  });

  it('with thinking stripping off, source is the input itself', () => {
    const spec = validateScanSpec({ ...buildScanSpec(['look']), strip_thinking: false });
    fc.assert(
      fc.property(modelText, (text) => {
        const result = scanUnits(text, spec);
        expect(result.source).toBe(text);
        expect(tilingViolation(result)).toBeNull();
      }),
      { numRuns: 500 },
    );
  });
});

/** Short strings over a tiny alphabet, so vocabulary entries collide with each other and the text. */
const vocabWord = fc.string({ unit: fc.constantFrom('<', '>', '|', '/', 'a', 'b', '[', ']', '"', ' ', '\n', '{', '('), minLength: 1, maxLength: 4 });
const randomSpec = scanSpecArbitrary(vocabWord, fc.array(fc.constantFrom('a', 'b', 'ab', 'look'), { maxLength: 3 }));

describe('scanUnits properties (random valid vocabulary)', () => {
  it('never throws and tiles the source', () => {
    fc.assert(
      fc.property(randomSpec, fc.array(fc.oneof(vocabWord, fc.constantFrom(...pieces)), { maxLength: 30 }), (spec, parts) => {
        const vocabulary = [...spec.call_tags, ...spec.block_tags, ...spec.reserved_openers, spec.harmony.frame_prefix, spec.harmony.message_marker];
        const text = parts.map((part, i) => (i % 3 === 0 && vocabulary.length > 0 ? `<${vocabulary[i % vocabulary.length]}>${part}` : part)).join('');
        assertTiles(text, spec);
      }),
      { numRuns: 3000 },
    );
  });
});

/** The reference's fragment alphabet for its property tests (the reference scanner's pinned examples). */
const referenceFragments = [
  '<tool_call>\nlook({})\n</tool_call>\n',
  '<tool_call>\nedit({ content: "half\n',
  '<tool_call>\nedit({})\n',
  '<tool_call>\nrun({ command: <<EOF\n</tool_call>\nEOF })\n</tool_call>\n',
  '<invoke name="edit">\n',
  '[[CALL]\nrun({ command: "x" })\n',
  '</tool_call>\n',
  '```\nsome code\n```\n',
  'Here is what I am going to do.\n',
];
const composition = fc.array(fc.constantFrom(...referenceFragments), { maxLength: 13 }).map((parts) => parts.join(''));

describe('reference properties over its fragment alphabet', () => {
  it('every composition tiles', () => {
    fc.assert(fc.property(composition, (text) => assertTiles(text, defaultSpec)), { numRuns: 2000 });
  });

  it('a trailing well-formed call survives any prefix', () => {
    fc.assert(
      fc.property(composition, (prefix) => {
        const { units } = scanUnits(prefix + referenceFragments[0], defaultSpec);
        const last = units[units.length - 1];
        expect(last?.kind).toBe('block');
        expect(last && 'head_name' in last ? last.head_name : undefined).toBe('look');
      }),
      { numRuns: 2000 },
    );
  });

  it('narration never becomes structure', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 11 }), (n) => {
        const { units } = scanUnits(referenceFragments[8]!.repeat(n), defaultSpec);
        expect(units.every((unit) => unit.kind === 'text')).toBe(true);
      }),
    );
  });
});
