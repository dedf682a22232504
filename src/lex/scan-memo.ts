/**
 * What earlier parses of one text established, so that parsing again from a later offset of the
 * same text (the sniffer tries every line start) does not re-read what was already read.
 *
 *     edit({ a: <<EOF\n edit({ a: <<EOF\n edit({ a: <<EOF\n ...
 *                     ^ first search: no line closes EOF, read to the end
 *                                       ^ a later search for EOF starts inside the range read
 *                                         and gets the same answer without reading
 *
 * Every fact here is a "first hit at or after an offset" whose answer holds for each later start
 * up to the hit, so a parse that starts inside a searched range answers in O(1) and all the
 * parses over one text read each character a bounded number of times.
 */
import { TextIndex } from './text-index.js';

/**
 * The last answer of a monotone forward search: the first hit at or after `from` is `hit` (-1:
 * none up to the end), hence also the first hit at or after any start in `[from, hit]`.
 */
export class ForwardSearch {
  private from = -1;
  private hit = -1;

  /** The hit for `start`, computing it with `search` unless the last answer covers `start`. */
  find(start: number, search: (start: number) => number): number {
    if (this.from >= 0 && start >= this.from && (this.hit < 0 || start <= this.hit)) return this.hit;
    this.from = start;
    this.hit = search(start);
    return this.hit;
  }
}

/**
 * A decoded string: `out` decodes the source range `[start, stop)`. Escape number `i` ended at
 * source offset `sourceMarks[i]` and output offset `outMarks[i]`, so the decoding of any suffix
 * that starts on a character boundary is a slice of `out`.
 */
export interface DecodedRange {
  start: number;
  stop: number;
  out: string;
  sourceMarks: number[];
  outMarks: number[];
}

/** The facts one text's parses share; create one per text and pass it to every parse of it. */
export class ScanMemo {
  #plainCloses: Map<string, ForwardSearch> | undefined;
  #escapedCloses: Map<string, ForwardSearch> | undefined;
  #recoveries: Map<number, ForwardSearch> | undefined;
  #recovered: Map<number, DecodedRange> | undefined;
  #escapedBodies: Map<string, DecodedRange> | undefined;
  #commentCloses: ForwardSearch | undefined;
  // perf: each fact store is made on first use; most memos (one per piece of prose the field
  // lane hands to the tagged lane) never need one. With the same change in SpanWalker
  // (lex/spans.ts), the tagged lane on a one-line piece went from 2.6 µs to 1.3-2.0 µs.

  /** Per heredoc tag: the first line at or after a line start that closes a plain body. */
  get plainCloses(): Map<string, ForwardSearch> {
    return (this.#plainCloses ??= new Map());
  }
  /** Per heredoc tag: the same for escaped bodies (lines split at a literal backslash-n). */
  get escapedCloses(): Map<string, ForwardSearch> {
    return (this.#escapedCloses ??= new Map());
  }
  /** Per quote code: the first stop of an over-closed-string recovery (a close or a dead end). */
  get recoveries(): Map<number, ForwardSearch> {
    return (this.#recoveries ??= new Map());
  }
  /** Per quote code: the last successful recovery, decoded, for later starts inside it. */
  get recovered(): Map<number, DecodedRange> {
    return (this.#recovered ??= new Map());
  }
  /** Per heredoc tag: the last escaped body decoded, for later bodies that end with it. */
  get escapedBodies(): Map<string, DecodedRange> {
    return (this.#escapedBodies ??= new Map());
  }
  /** The first `*\/` at or after an offset. */
  get commentCloses(): ForwardSearch {
    return (this.#commentCloses ??= new ForwardSearch());
  }
  /** The last line facts `heredoc.ts` uses for its implicit close, computed once per text. */
  tail: { last: number; lineStart: number; isCallTail: boolean } | undefined;
  /**
   * Characters read by searches that no fact here covers (template interpolations). The sniffer
   * bounds this as a safety net; the memoised shapes never add to it.
   */
  unsharedReads = 0;
  /** The text's line table, made on the first counted heredoc. */
  private lines: TextIndex | undefined;

  constructor(readonly text: string) {}

  /** Offset of the `n`th LF (0-based) at or after `from`, or -1. */
  nthLineFeed(from: number, n: number): number {
    const lines = (this.lines ??= new TextIndex(this.text));
    // `lineOf(from)` counts the LFs before `from`, so it indexes the first LF at or after it.
    const at = lines.lineOf(from) + n;
    const feeds = lines.newlines;
    return at < feeds.length ? (feeds[at] as number) : -1;
  }

  /** The search for `key` in `table`, created on first use. */
  static searchOf<K>(table: Map<K, ForwardSearch>, key: K): ForwardSearch {
    let search = table.get(key);
    if (search === undefined) {
      search = new ForwardSearch();
      table.set(key, search);
    }
    return search;
  }
}

/**
 * The decoding of `[start, range.stop)`, where `start` is a character boundary of the range (no
 * escape spans it), read as a slice of the range's output.
 */
export function decodedSuffix(range: DecodedRange, start: number): string {
  const marks = range.sourceMarks;
  let low = 0;
  let high = marks.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((marks[mid] as number) <= start) low = mid + 1;
    else high = mid;
  }
  // `low` decoded escapes end at or before `start`; the text after the last of them is verbatim.
  const outAt = low === 0 ? start - range.start : (range.outMarks[low - 1] as number) + (start - (marks[low - 1] as number));
  return range.out.slice(outAt);
}
