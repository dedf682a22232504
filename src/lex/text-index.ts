/**
 * `TextIndex`: fence markers and line starts of one source, each built once per scan on first
 * use, so that "inside a fence?" and "which line?" are binary searches instead of rescans from
 * the start (docs/design.md, "Lexer primitives").
 *
 * Offsets are UTF-16 code-unit indexes into the indexed string.
 */
import { Code, isUnicodeWhitespace } from './codes.js';

/** Number of entries of the ascending `sorted` that are `< value`. */
function countBelow(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The blanks `TextIndex.isLineLeading` allows before a marker: space, tab, CR (not FF). */
function isLineBlank(code: number): boolean {
  return code === Code.Space || code === Code.Tab || code === Code.CarriageReturn;
}

const FENCE = '```';
const UNKNOWN = -1;
/** Markers `insideFence` steps over before it binary-searches instead. */
const FENCE_HOPS = 8;

export class TextIndex {
  readonly source: string;
  #fenceMarkers: number[] | undefined;
  #newlines: number[] | undefined;
  /** The last `insideFence` offset and how many markers start before it. */
  #fenceQuery = 0;
  #fencesBefore = 0;
  /** Per line: offset of the first character that is not Unicode whitespace (lazily filled). */
  #firstNonUnicodeSpace: Int32Array | undefined;

  /**
   * Nothing is read here: each index is built on its first query, since most scans ask only
   * fence and line-leading questions and never need the line table.
   */
  constructor(source: string) {
    this.source = source;
  }

  /** Starts of the non-overlapping ``` markers, left to right (six backticks give two). */
  get fenceMarkers(): readonly number[] {
    if (this.#fenceMarkers !== undefined) return this.#fenceMarkers;
    const source = this.source;
    const fences: number[] = [];
    for (let at = source.indexOf(FENCE); at !== -1; at = source.indexOf(FENCE, at + FENCE.length)) fences.push(at);
    return (this.#fenceMarkers = fences);
  }

  /** Positions of every LF. */
  get newlines(): readonly number[] {
    if (this.#newlines !== undefined) return this.#newlines;
    const source = this.source;
    const newlines: number[] = [];
    for (let at = source.indexOf('\n'); at !== -1; at = source.indexOf('\n', at + 1)) newlines.push(at);
    return (this.#newlines = newlines);
  }

  /** Index of the line holding `offset` (0-based; a LF belongs to the line it ends). */
  lineOf(offset: number): number {
    return countBelow(this.newlines, offset);
  }

  /** Offset of the first character of the line holding `offset`. */
  lineStart(offset: number): number {
    const line = this.lineOf(offset);
    return line === 0 ? 0 : (this.newlines[line - 1] as number) + 1;
  }

  /** Offset of the LF ending the line holding `offset`, or the source length on the last line. */
  lineEnd(offset: number): number {
    const line = this.lineOf(offset);
    return line < this.newlines.length ? (this.newlines[line] as number) : this.source.length;
  }

  /**
   * Inside a ``` fence: an odd number of markers start before `offset` and at least one starts
   * at or after it. An opening marker's own position is outside, a closing one's is inside, and
   * an unbalanced trailing fence fences nothing.
   */
  insideFence(offset: number): boolean {
    const markers = this.fenceMarkers;
    let before = this.#fencesBefore;
    if (offset >= this.#fenceQuery) {
      // The scan asks at a cursor that only moves forward: step over the few markers passed
      // since the last question, and fall back to the binary search after a long jump.
      let hops = 0;
      while (before < markers.length && (markers[before] as number) < offset && hops < FENCE_HOPS) {
        before++;
        hops++;
      }
      if (hops === FENCE_HOPS) before = countBelow(markers, offset);
    } else before = countBelow(markers, offset);
    this.#fenceQuery = offset;
    this.#fencesBefore = before;
    return (before & 1) === 1 && before < markers.length;
  }

  /**
   * Only space, tab and CR stand between the start of the line and `offset`. Read backwards
   * from the offset rather than from a line table: the blanks before two different non-blank
   * offsets never overlap, so the scan's queries (one per step, at a non-blank cursor) read
   * each character at most once in all.
   */
  isLineLeading(offset: number): boolean {
    const source = this.source;
    let at = offset;
    while (at > 0) {
      const code = source.charCodeAt(at - 1);
      if (code === Code.LineFeed) return true;
      if (!isLineBlank(code)) return false;
      at--;
    }
    return true;
  }

  /**
   * Only Unicode whitespace stands between the start of the line and `offset` (call-block
   * bounds); read backwards like {@link isLineLeading}, for the same reason.
   */
  isLineLeadingUnicode(offset: number): boolean {
    const source = this.source;
    let at = offset;
    while (at > 0) {
      const code = source.charCodeAt(at - 1);
      if (code === Code.LineFeed) return true;
      if (!isUnicodeWhitespace(code)) return false;
      at--;
    }
    return true;
  }

  /** Number of lines (one more than the number of LFs). */
  get lineCount(): number {
    return this.newlines.length + 1;
  }

  /** Offset of the LF ending `line`, or the source length for the last line. */
  endOfLine(line: number): number {
    return line < this.newlines.length ? (this.newlines[line] as number) : this.source.length;
  }

  /** Offset of the first non-Unicode-whitespace character of `line` (its end when blank). */
  firstNonWhitespace(line: number): number {
    const cache = (this.#firstNonUnicodeSpace ??= new Int32Array(this.newlines.length + 1).fill(UNKNOWN));
    return this.#firstOn(line, cache, isUnicodeWhitespace);
  }

  /** Each line is measured at most once per predicate, so all queries together stay linear. */
  #firstOn(line: number, cache: Int32Array, blank: (code: number) => boolean): number {
    const cached = cache[line] as number;
    if (cached !== UNKNOWN) return cached;
    const newlines = this.newlines;
    const start = line === 0 ? 0 : (newlines[line - 1] as number) + 1;
    const end = line < newlines.length ? (newlines[line] as number) : this.source.length;
    let at = start;
    while (at < end && blank(this.source.charCodeAt(at))) at++;
    cache[line] = at;
    return at;
  }
}
