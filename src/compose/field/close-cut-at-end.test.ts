import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD_GRAMMARS, type ReasoningGrammar } from '../../dialects/field/index.js';
import { blockCloseCut, ClosesCutAtEnd, CUT_ALONE, CUT_IN_BLOCK, type CloseCut } from './close-cut-at-end.js';

/** The question asked plainly (every length of every close), to hold the index to. */
function closeCutAtEnd(text: string, from: number, grammars: readonly ReasoningGrammar[], least: (close: string) => number): CloseCut | null {
  let found: CloseCut | null = null;
  for (const grammar of grammars) {
    for (const close of grammar.close) {
      for (let k = Math.min(close.length - 1, text.length - from); k >= least(close); k--) {
        if (!text.endsWith(close.slice(0, k))) continue;
        if (found === null || text.length - k < found.at) found = { grammar, at: text.length - k };
        break;
      }
    }
  }
  return found;
}

const REASONING = FIELD_GRAMMARS.filter((g): g is ReasoningGrammar => g.family === 'reasoning' && g.close.length > 0);
// Texts that end in pieces of the closes: every prefix of every close, and the closes whole.
const PIECES = [...new Set(REASONING.flatMap((g) => g.close.flatMap((close) => Array.from({ length: close.length }, (_, k) => close.slice(0, k + 1)))))];

describe('ClosesCutAtEnd', () => {
  it('finds a close begun at the end of the text, the longest one, more than half of it when alone', () => {
    const index = new ClosesCutAtEnd(REASONING, CUT_ALONE);
    expect(index.at('The answer.</thi', 0)).toMatchObject({ at: 11 });
    expect(index.at('The answer.</th', 0)).toBeNull();
    expect(index.at('The answer.</think>', 0)).toBeNull();
    expect(index.at('The answer.</thi', 13)).toBeNull();
    expect(new ClosesCutAtEnd(REASONING, CUT_IN_BLOCK).at('x</', 0)).toMatchObject({ at: 1 });
    const think = REASONING.find((g) => g.close.includes('</think>'))!;
    expect(blockCloseCut(think)).toBe(blockCloseCut(think));
    expect(blockCloseCut(think).at('reasoning </th', 0)).toEqual({ grammar: think, at: 10 });
  });

  it('answers as trying every length of every close does, for every grammar set and least length', () => {
    const sets = [REASONING, REASONING.filter((g) => g.orphanUnflagged), REASONING.slice(0, 3).reverse()];
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', ' ', '\n', '<', ...PIECES), { maxLength: 6 }), fc.nat(40), fc.nat(sets.length - 1), fc.boolean(), (parts, from, set, alone) => {
        const text = parts.join('');
        const least = alone ? CUT_ALONE : CUT_IN_BLOCK;
        const start = Math.min(from, text.length);
        expect(new ClosesCutAtEnd(sets[set]!, least).at(text, start)).toEqual(closeCutAtEnd(text, start, sets[set]!, least));
      }),
      { numRuns: 3000 },
    );
  });
});
