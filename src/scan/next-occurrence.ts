/**
 * Forward `indexOf` with a memo, for needles the scan looks up again and again from a cursor
 * that only moves forward (block closes, markup closes, Harmony frame tokens).
 *
 * Without it an unclosed `<done>` per line costs a search to the end per line (quadratic).
 * The memo keeps the last answer: when the needle was not found in [from, found), a later query
 * from inside that range has the same answer.
 */
import type { ScanStats } from '../lex/spans.js';

export class NextOccurrence {
  readonly #src: string;
  readonly #needle: string;
  readonly #stats: ScanStats | undefined;
  #from = -1;
  #found = -1;

  constructor(src: string, needle: string, stats?: ScanStats) {
    this.#src = src;
    this.#needle = needle;
    this.#stats = stats;
  }

  /** First index `>= from` where the needle starts, or -1. */
  from(from: number): number {
    const src = this.#src;
    const needle = this.#needle;
    if (this.#from !== -1 && from >= this.#from && (this.#found === -1 || from <= this.#found)) return this.#found;
    let found: number;
    if (this.#from !== -1 && from < this.#from) {
      // A step looking back a little (a corrupted opener's frame, then the cursor's own): only
      // the stretch before the remembered query is new; past it the remembered answer holds.
      const windowEnd = Math.min(src.length, this.#from + needle.length - 1);
      const inWindow = src.slice(from, windowEnd).indexOf(needle);
      found = inWindow === -1 ? this.#found : from + inWindow;
      this.#count(windowEnd - from);
    } else {
      found = src.indexOf(needle, from);
      this.#count((found === -1 ? src.length : found) - from + 1);
    }
    this.#from = from;
    this.#found = found;
    return found;
  }

  #count(work: number): void {
    if (this.#stats) this.#stats.work += work;
  }
}

/** One `NextOccurrence` per needle, created on first use. */
export class NextOccurrences {
  readonly #src: string;
  readonly #stats: ScanStats | undefined;
  readonly #byNeedle = new Map<string, NextOccurrence>();

  constructor(src: string, stats?: ScanStats) {
    this.#src = src;
    this.#stats = stats;
  }

  /** First index `>= from` where `needle` starts, or -1. */
  find(needle: string, from: number): number {
    let finder = this.#byNeedle.get(needle);
    if (finder === undefined) {
      finder = new NextOccurrence(this.#src, needle, this.#stats);
      this.#byNeedle.set(needle, finder);
    }
    return finder.from(from);
  }
}
