/**
 * A marker that the end of the text cut off (`…</thi`, `…</func`, `…<|ret`): the text ends with
 * a proper prefix of the marker, long enough to count as one begun. One index answers it for
 * every caller: a reasoning block's close, a region's markers (cut-close.ts), the ends of a
 * visible answer's body.
 */
import type { ReasoningGrammar } from '../../dialects/field/index.js';

/** The shortest fragment of a close that counts as one begun, where the text says nothing else of it: more than half the close. */
export const CUT_ALONE = (close: string): number => Math.max(2, (close.length >> 1) + 1);
/** Inside a block that a close would end, two characters of one count (as cut-close.ts reads a region's markers). */
export const CUT_IN_BLOCK = (): number => 2;

/** A marker and who writes it (a grammar; null where the caller needs only where the cut begins). */
export interface OwnedMarker<T> {
  readonly owner: T;
  readonly marker: string;
}

export interface MarkerCut<T> {
  readonly owner: T;
  /** Where the fragment starts. */
  readonly at: number;
}

/** One prefix of a marker that may end a text: its owner, the marker and the prefix's length. */
interface Fragment<T> {
  readonly owner: T;
  readonly marker: string;
  readonly length: number;
}

/**
 * The marker that the end of a text cut off: the text ends with a proper prefix of it, at least
 * `least(marker)` long, that `counts`, starting at or after `from`. The longest such fragment
 * (the first marker's, of equal ones), or null. The prefixes are filed by their last character
 * once, so a text compares only those its last character could end (perf: trying every length
 * of every close, as this was first written, was 6 % of a 2 KB parse).
 */
export class MarkersCutAtEnd<T> {
  readonly #byLast = new Map<number, Fragment<T>[]>();

  constructor(markers: Iterable<OwnedMarker<T>>, least: (marker: string) => number, counts: (prefix: string) => boolean = () => true) {
    for (const { owner, marker } of markers) {
      for (let k = marker.length - 1; k >= least(marker); k--) {
        if (!counts(marker.slice(0, k))) continue;
        const last = marker.charCodeAt(k - 1);
        let list = this.#byLast.get(last);
        if (list === undefined) this.#byLast.set(last, (list = []));
        list.push({ owner, marker, length: k });
      }
    }
  }

  /** The cut marker at the end of `text`, from `from` on, or null. */
  at(text: string, from: number): MarkerCut<T> | null {
    const list = this.#byLast.get(text.charCodeAt(text.length - 1));
    if (list === undefined) return null;
    let best: Fragment<T> | null = null;
    for (let i = 0; i < list.length; i++) {
      const fragment = list[i]!;
      if (fragment.length > text.length - from || (best !== null && fragment.length <= best.length)) continue;
      if (endsWithPrefix(text, fragment.marker, fragment.length)) best = fragment;
    }
    return best === null ? null : { owner: best.owner, at: text.length - best.length };
  }
}

/** Whether `text` ends with the first `k` characters of `marker`. */
function endsWithPrefix(text: string, marker: string, k: number): boolean {
  const at = text.length - k;
  for (let j = 0; j < k; j++) if (text.charCodeAt(at + j) !== marker.charCodeAt(j)) return false;
  return true;
}

/** The closes of `grammars`, each owned by its grammar. */
export function closesCutAtEnd(grammars: readonly ReasoningGrammar[], least: (close: string) => number): MarkersCutAtEnd<ReasoningGrammar> {
  return new MarkersCutAtEnd(
    grammars.flatMap((owner) => owner.close.map((marker) => ({ owner, marker }))),
    least,
  );
}

// Built once each: the grammar sets are fixed, and a block's own close is asked of one grammar.
const IN_BLOCK = new WeakMap<ReasoningGrammar, MarkersCutAtEnd<ReasoningGrammar>>();

/** Inside a block of `grammar`: its close cut at the text's end (`CUT_IN_BLOCK`). */
export function blockCloseCut(grammar: ReasoningGrammar): MarkersCutAtEnd<ReasoningGrammar> {
  let index = IN_BLOCK.get(grammar);
  if (index === undefined) IN_BLOCK.set(grammar, (index = closesCutAtEnd([grammar], CUT_IN_BLOCK)));
  return index;
}
