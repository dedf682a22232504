import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD_GRAMMARS, type ReasoningGrammar } from '../../dialects/field/index.js';
import { blockCloseCut, closesCutAtEnd, CUT_ALONE, CUT_IN_BLOCK, MarkersCutAtEnd, type MarkerCut } from './close-cut-at-end.js';

/** The question asked plainly (every length of every close), to hold the index to. */
function closeCutAtEnd(text: string, from: number, grammars: readonly ReasoningGrammar[], least: (close: string) => number): MarkerCut<ReasoningGrammar> | null {
  let found: MarkerCut<ReasoningGrammar> | null = null;
  for (const grammar of grammars) {
    for (const close of grammar.close) {
      for (let k = Math.min(close.length - 1, text.length - from); k >= least(close); k--) {
        if (!text.endsWith(close.slice(0, k))) continue;
        if (found === null || text.length - k < found.at) found = { owner: grammar, at: text.length - k };
        break;
      }
    }
  }
  return found;
}

const REASONING = FIELD_GRAMMARS.filter((g): g is ReasoningGrammar => g.family === 'reasoning' && g.close.length > 0);
// Texts that end in pieces of the closes: every prefix of every close, and the closes whole.
const PIECES = [...new Set(REASONING.flatMap((g) => g.close.flatMap((close) => Array.from({ length: close.length }, (_, k) => close.slice(0, k + 1)))))];

describe('MarkersCutAtEnd of reasoning closes', () => {
  it('finds a close begun at the end of the text, the longest one, more than half of it when alone', () => {
    const index = closesCutAtEnd(REASONING, CUT_ALONE);
    expect(index.at('The answer.</thi', 0)).toMatchObject({ at: 11 });
    expect(index.at('The answer.</th', 0)).toBeNull();
    expect(index.at('The answer.</think>', 0)).toBeNull();
    expect(index.at('The answer.</thi', 13)).toBeNull();
    expect(closesCutAtEnd(REASONING, CUT_IN_BLOCK).at('x</', 0)).toMatchObject({ at: 1 });
    const think = REASONING.find((g) => g.close.includes('</think>'))!;
    expect(blockCloseCut(think)).toBe(blockCloseCut(think));
    expect(blockCloseCut(think).at('reasoning </th', 0)).toEqual({ owner: think, at: 10 });
  });

  it('answers as trying every length of every close does, for every grammar set and least length', () => {
    const sets = [REASONING, REASONING.filter((g) => g.orphanUnflagged), REASONING.slice(0, 3).reverse()];
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', ' ', '\n', '<', ...PIECES), { maxLength: 6 }), fc.nat(40), fc.nat(sets.length - 1), fc.boolean(), (parts, from, set, alone) => {
        const text = parts.join('');
        const least = alone ? CUT_ALONE : CUT_IN_BLOCK;
        const start = Math.min(from, text.length);
        expect(closesCutAtEnd(sets[set]!, least).at(text, start)).toEqual(closeCutAtEnd(text, start, sets[set]!, least));
      }),
      { numRuns: 3000 },
    );
  });
});

/**
 * The question as cut-close.ts first asked it of a region's markers: the set of every counting
 * prefix (two characters at least), tried from the longest that fits down to two.
 */
function prefixSetCut(text: string, from: number, markers: readonly string[], counts: (prefix: string) => boolean): number {
  const set = new Set<string>();
  let longest = 0;
  for (const marker of markers) {
    for (let k = 2; k < marker.length; k++) {
      const prefix = marker.slice(0, k);
      if (!counts(prefix)) continue;
      set.add(prefix);
      longest = Math.max(longest, k);
    }
  }
  for (let k = Math.min(longest, text.length - from); k >= 2; k--) if (set.has(text.slice(text.length - k))) return text.length - k;
  return -1;
}

describe('MarkersCutAtEnd of any markers', () => {
  const MARKERS = ['</function>', '</tool_call>', '<|return|>', '<|call|>', ' <x>', '</f', '<|'];
  const PIECES = [...new Set(MARKERS.flatMap((m) => Array.from({ length: m.length }, (_, k) => m.slice(0, k + 1))))];
  // As a region's markers are filed: no prefix that begins with a blank or is itself a marker.
  const counts = (prefix: string): boolean => prefix.charCodeAt(0) !== 0x20 && !MARKERS.includes(prefix);

  it('finds where the longest counting prefix that ends the text begins', () => {
    const index = new MarkersCutAtEnd(MARKERS.map((marker) => ({ owner: null, marker })), CUT_IN_BLOCK, counts);
    expect(index.at('done</func', 0)).toEqual({ owner: null, at: 4 });
    expect(index.at('done</f', 0)).toBeNull();
    expect(index.at('done <x', 0)).toBeNull();
    expect(index.at('done <', 0)).toBeNull();
    expect(index.at('x<|ret', 0)).toEqual({ owner: null, at: 1 });
    expect(index.at('x<|ret', 2)).toBeNull();
  });

  it('answers as the set of every counting prefix does, from any floor', () => {
    const index = new MarkersCutAtEnd(MARKERS.map((marker) => ({ owner: null, marker })), CUT_IN_BLOCK, counts);
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', ' ', '\n', '<', ...PIECES), { maxLength: 6 }), fc.nat(40), (parts, from) => {
        const text = parts.join('');
        const start = Math.min(from, text.length);
        expect(index.at(text, start)?.at ?? -1).toBe(prefixSetCut(text, start, MARKERS, counts));
      }),
      { numRuns: 3000 },
    );
  });
});
