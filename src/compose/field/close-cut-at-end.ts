/**
 * A reasoning close that the end of the text cut off (`…</thi`): the text ends with a proper
 * prefix of the close, long enough to count as one begun.
 */
import type { ReasoningGrammar } from '../../dialects/field/index.js';

/** The shortest fragment of a close that counts as one begun, where the text says nothing else of it: more than half the close. */
export const CUT_ALONE = (close: string): number => Math.max(2, (close.length >> 1) + 1);
/** Inside a block that a close would end, two characters of one count (as cut-close.ts reads a region's markers). */
export const CUT_IN_BLOCK = (): number => 2;

export interface CloseCut {
  readonly grammar: ReasoningGrammar;
  /** Where the fragment starts. */
  readonly at: number;
}

/** One prefix of a close that may end a text: its grammar, the close and the prefix's length. */
interface Fragment {
  readonly grammar: ReasoningGrammar;
  readonly close: string;
  readonly length: number;
}

/**
 * The close of one of `grammars` that the end of a text cut off: the text ends with a proper
 * prefix of it, at least `least(close)` long, starting at or after `from`. The longest such
 * fragment (the first grammar's, of equal ones), or null. The prefixes are filed by their last
 * character once, so a text compares only those its last character could end (perf: trying
 * every length of every close, as this was first written, was 6 % of a 2 KB parse).
 */
export class ClosesCutAtEnd {
  readonly #byLast = new Map<number, Fragment[]>();

  constructor(grammars: readonly ReasoningGrammar[], least: (close: string) => number) {
    for (const grammar of grammars) {
      for (const close of grammar.close) {
        for (let k = close.length - 1; k >= least(close); k--) {
          const last = close.charCodeAt(k - 1);
          let list = this.#byLast.get(last);
          if (list === undefined) this.#byLast.set(last, (list = []));
          list.push({ grammar, close, length: k });
        }
      }
    }
  }

  /** The cut close at the end of `text`, from `from` on, or null. */
  at(text: string, from: number): CloseCut | null {
    const list = this.#byLast.get(text.charCodeAt(text.length - 1));
    if (list === undefined) return null;
    let best: Fragment | null = null;
    for (let i = 0; i < list.length; i++) {
      const fragment = list[i]!;
      if (fragment.length > text.length - from || (best !== null && fragment.length <= best.length)) continue;
      if (endsWithPrefix(text, fragment.close, fragment.length)) best = fragment;
    }
    return best === null ? null : { grammar: best.grammar, at: text.length - best.length };
  }
}

/** Whether `text` ends with the first `k` characters of `close`. */
function endsWithPrefix(text: string, close: string, k: number): boolean {
  const at = text.length - k;
  for (let j = 0; j < k; j++) if (text.charCodeAt(at + j) !== close.charCodeAt(j)) return false;
  return true;
}

// Built once each: the grammar sets are fixed, and a block's own close is asked of one grammar.
const IN_BLOCK = new WeakMap<ReasoningGrammar, ClosesCutAtEnd>();

/** Inside a block of `grammar`: its close cut at the text's end (`CUT_IN_BLOCK`). */
export function blockCloseCut(grammar: ReasoningGrammar): ClosesCutAtEnd {
  let index = IN_BLOCK.get(grammar);
  if (index === undefined) IN_BLOCK.set(grammar, (index = new ClosesCutAtEnd([grammar], CUT_IN_BLOCK)));
  return index;
}
