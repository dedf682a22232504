/**
 * The per-drop pre-check of the tool-shape detector never hides a finding: on random ledgers
 * the guarded detector equals the unguarded one run on the rejoined text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rejoinSilentDrops, shapeInText, toolShapeFinding } from './tool-shape.js';
import type { DroppedFragment } from './types.js';

const piece = fc.constantFrom(
  '<', '>', '</', '[TOOL_CALLS]', '<|channel|>', '<|recipient|>', '<function', '<tool ', '<invoke ', '=', 'name', '"name"', '"arguments"',
  '"tool"', '"args"', ':', '{', '}', '(', ')', 'run', 'x', ' ', '\n', '\t', '\u00a0', '\ufeff', '</execute>', '<execute>', 'execute',
);
const text = fc.oneof(fc.array(piece, { maxLength: 10 }).map((parts) => parts.join('')), fc.string({ maxLength: 12 }));
const reason = fc.constantFrom('salvaged_as_prose', 'fenced_narration', 'unparsed_call_block', 'unparsed_markup');
const ledger = fc.array(fc.record({ text, reason }), { maxLength: 8 }) as fc.Arbitrary<DroppedFragment[]>;

describe('tool-shape pre-check', () => {
  it('equals the detector over the rejoined drops', () => {
    fc.assert(fc.property(ledger, (dropped) => {
      const run = rejoinSilentDrops(dropped);
      expect(toolShapeFinding(dropped)).toEqual(run === null ? null : shapeInText(run.text, run.reason));
    }), { numRuns: 4000 });
  });

  it('skips whitespace-only drops as trim does (U+FEFF and U+00A0 included)', () => {
    expect(rejoinSilentDrops([{ text: '\ufeff \u00a0\n', reason: 'salvaged_as_prose' }])).toBeNull();
    expect(toolShapeFinding([{ text: '\ufeff', reason: 'salvaged_as_prose' }, { text: '{"name": "a", "args": 1}', reason: 'fenced_narration' }])?.dropped_reason).toBe('fenced_narration');
  });
});
