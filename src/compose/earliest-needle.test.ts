import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALTERNATE_ENVELOPE_OPENERS } from '../dialects/vocabulary.js';
import { EarliestNeedle } from './earliest-needle.js';

const plainEarliest = (text: string, needles: readonly string[], from: number): number => {
  const hits = needles.map((n) => text.indexOf(n, from)).filter((at) => at >= 0);
  return hits.length === 0 ? -1 : Math.min(...hits);
};

const NEEDLES = [...ALTERNATE_ENVELOPE_OPENERS, '<tool_call>'];
const piece = fc.constantFrom(...NEEDLES, '<', '<tool', '<tool_', '[[', '[[tool', 'x', '\n', ']]', '>');
const text = fc.array(piece, { maxLength: 20 }).map((parts) => parts.join(''));

describe('EarliestNeedle', () => {
  it('answers as the smallest indexOf over the needles, for any sequence of cursors', () => {
    fc.assert(fc.property(text, fc.array(fc.nat({ max: 120 }), { maxLength: 12 }), fc.boolean(), (t, cursors, sorted) => {
      const froms = sorted ? [...cursors].sort((a, b) => a - b) : cursors;
      const search = new EarliestNeedle(t, NEEDLES);
      for (const from of froms) expect(search.earliest(from)).toBe(plainEarliest(t, NEEDLES, from));
    }), { numRuns: 2000 });
  });

  it('answers the same for a large group (searched by its tail tree), needles that are prefixes of others included', () => {
    const many = ['<a>', '<ab', '<abc|>', '<|x|>', '<|xy|>', '<|y_long_tail|>', '<b', '<', '[[x]', '[['];
    const bits = fc.constantFrom(...many, '<|', '<|x', '<|y_long', '<a', 'a', '|', '>', '[', 'x', ']', '\n');
    const texts = fc.array(bits, { maxLength: 24 }).map((parts) => parts.join(''));
    for (const needles of [many, many.filter((n) => n !== '<')]) {
      fc.assert(fc.property(texts, fc.array(fc.nat({ max: 150 }), { maxLength: 12 }), (t, cursors) => {
        const search = new EarliestNeedle(t, needles);
        for (const from of [...cursors].sort((a, b) => a - b)) expect(search.earliest(from)).toBe(plainEarliest(t, needles, from));
      }), { numRuns: 2000 });
    }
  });

  it('finds needles that share a first character but not a prefix', () => {
    const search = new EarliestNeedle('a [[tool]] b <tool_use> <tool>', ['<tool>', '[[tool]]', '<tool_use>']);
    expect([search.earliest(0), search.earliest(3), search.earliest(13), search.earliest(14), search.earliest(30)]).toEqual([2, 13, 13, 24, -1]);
  });

  it('refuses an empty needle', () => {
    expect(() => new EarliestNeedle('x', [''])).toThrow(TypeError);
  });
});
