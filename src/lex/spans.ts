/**
 * Span delimiting over one source: where a call block ends (`findSpanEnd`), where the next
 * line-leading call opener is (`findOpenerAfter`), plain blocks (`matchBlock`) and the legacy
 * `findCloseTag` (docs/design.md, "Lexer primitives").
 *
 * `SpanWalker` holds the memos that keep a whole scan linear even though every call block,
 * reserved stub and resync asks these questions again from a new start:
 * - a quote that runs unterminated to the end makes every later quote of the same character
 *   unterminated too (a later one either is examined by the first scan, which would have closed
 *   there, or is escaped in it, and then both scans continue in step), so the answer is kept;
 * - heredoc results are kept by start offset;
 * - a span walk's outcome depends only on the position it stands on (for one close needle), so
 *   every quote and `<` a walk steps on is stamped with the walk, and a later walk that steps on
 *   a stamped one takes that walk's outcome instead of walking the same ground again (each gap
 *   between such characters hosts at most one walk start: the `<` of its opener precedes it);
 *   walks that reach their close are not stamped, since the scan resumes past that close;
 * - `findOpenerAfter` answers are reused while queries move forward.
 */
import { Code } from './codes.js';
import { scanHeredoc } from './heredoc.js';
import { OffsetTable } from './offset-table.js';
import { skipStringSpan } from './string-span.js';
import { TextIndex } from './text-index.js';

/** Outcome of walking a call body for its close tag. */
export type SpanEnd =
  | { readonly kind: 'closed'; readonly at: number }
  | { readonly kind: 'opener'; readonly at: number }
  | { readonly kind: 'truncated' }
  | { readonly kind: 'not_found' };

const TRUNCATED: SpanEnd = Object.freeze({ kind: 'truncated' });
const NOT_FOUND: SpanEnd = Object.freeze({ kind: 'not_found' });

/** Optional work counter: characters examined, so tests can check linearity without a clock. */
export interface ScanStats {
  work: number;
}

/** What a `<<` at some offset means to a walker. */
const enum HeredocStep {
  /** Not a heredoc (no tag, or an unusable count): the `<` is ordinary content. */
  Content = -1,
  /** A heredoc that never closes or lacks its newline: the model stopped mid-heredoc. */
  Broken = -2,
}

function isHeredocTagChar(code: number): boolean {
  return (
    (code >= Code.LowerA && code <= Code.LowerZ) ||
    (code >= Code.UpperA && code <= Code.UpperZ) ||
    (code >= Code.Digit0 && code <= Code.Digit9) ||
    code === Code.Underscore
  );
}

/** The shape of a heredoc opener, read only to key the memos below. */
interface HeredocOpener {
  readonly tag: string;
  /** `counted` only when a small count is followed by a real newline. */
  readonly form: 'plain' | 'escaped' | 'counted' | 'other';
  readonly count: number;
  /** Just past the opener's newline (plain and counted forms). */
  readonly contentStart: number;
}

/**
 * Reads the opener at `start` (`<<`, optional quote, tag, optional count, newline) without
 * judging it; `scanHeredoc` stays the authority on what the heredoc is.
 *
 *     <<'EOF'\n      <<EOF\\n       <<E:3\n
 *       ^ plain      ^ escaped     ^ counted (the count is read when it has at most 15 digits)
 */
function peekHeredocOpener(src: string, start: number): HeredocOpener | null {
  let at = start + 2;
  const quote = src.charCodeAt(at);
  const quoted = quote === Code.Quote || quote === Code.Apostrophe;
  if (quoted) at++;
  const tagStart = at;
  while (isHeredocTagChar(src.charCodeAt(at))) at++;
  if (at === tagStart) return null;
  const tag = src.slice(tagStart, at);
  if (quoted && src.charCodeAt(at) === quote) at++;
  let count = -1;
  if (src.charCodeAt(at) === Code.Colon) {
    const digitsStart = at + 1;
    let end = digitsStart;
    while (end < src.length && src.charCodeAt(end) >= Code.Digit0 && src.charCodeAt(end) <= Code.Digit9) end++;
    if (end > digitsStart && end - digitsStart <= 15) {
      count = Number(src.slice(digitsStart, end));
      at = end;
    } else if (end > digitsStart) return { tag, form: 'other', count: -1, contentStart: -1 };
  }
  if (src.charCodeAt(at) === Code.CarriageReturn) at++;
  if (src.charCodeAt(at) === Code.LineFeed) return { tag, form: count === -1 ? 'plain' : 'counted', count, contentStart: at + 1 };
  if (src.charCodeAt(at) === Code.Backslash && src.charCodeAt(at + 1) === Code.LowerN) return { tag, form: 'escaped', count: -1, contentStart: -1 };
  return { tag, form: 'other', count: -1, contentStart: -1 };
}

function isQuote(code: number): boolean {
  return code === Code.Quote || code === Code.Apostrophe || code === Code.Backtick;
}

interface WalkMemo {
  /** Quote or `<` offset -> id of the walk that stepped on it (0: none yet). */
  readonly stamp: OffsetTable;
  /** Highest stamped offset (-1: none), so walks past it skip the lookups. */
  highestStamp: number;
  /** `outcome[id]` for finished walks. */
  readonly outcome: SpanEnd[];
}

export class SpanWalker {
  readonly src: string;
  readonly stats: ScanStats | undefined;
  #index: TextIndex | undefined;
  /** Lowest start of an unterminated quote, by quote character. */
  #unterminatedFrom: Map<number, number> | undefined;
  /** `heredocStep` answers by start offset (0: not computed), created on first use. */
  #heredocSteps: OffsetTable | undefined;
  /** Quotes and `<` the current walk stepped on, stamped only when its outcome is kept. */
  readonly #stepped: number[] = [];
  /** Lowest start of an unterminated plain or escaped heredoc, by form and tag. */
  #unterminatedHeredocs: Map<string, number> | undefined;
  /** By close needle, then by openers list (the scanner passes one list object per scan). */
  #walks: Map<string, Map<readonly string[], WalkMemo>> | undefined;
  #openerQueries: Map<readonly string[], { from: number; found: number }> | undefined;
  // perf: the maps above are made on first use; most walkers (one per piece of prose the
  // field lane hands to the tagged lane) never need them. With the same change in ScanMemo
  // (lex/scan-memo.ts), the tagged lane on a one-line piece went from 2.6 µs to 1.3-2.0 µs.

  constructor(src: string, index?: TextIndex, stats?: ScanStats) {
    this.src = src;
    this.#index = index;
    this.stats = stats;
  }

  get index(): TextIndex {
    return (this.#index ??= new TextIndex(this.src));
  }

  #work(amount: number): void {
    if (this.stats) this.stats.work += amount;
  }

  /**
   * Offset just past the quoted span opening at `start`, or -1 when it never closes. Closed
   * spans are not memoised: every caller moves forward past them (a span walk stamps the quote
   * before asking, so a later walk reaching it takes the stamp instead of asking again).
   */
  quoteEnd(start: number): number {
    const quote = this.src.charCodeAt(start);
    const unterminatedFrom = this.#unterminatedFrom?.get(quote);
    if (unterminatedFrom !== undefined && start >= unterminatedFrom) return -1;
    const end = skipStringSpan(this.src, start);
    this.#work((end === -1 ? this.src.length : end) - start);
    if (end === -1) (this.#unterminatedFrom ??= new Map()).set(quote, start);
    return end;
  }

  /**
   * The heredoc whose `<<` is at `start`: its end offset when it closes, `HeredocStep.Content`
   * when `<<` is not a heredoc at all, `HeredocStep.Broken` when it opens but never completes.
   */
  heredocStep(start: number): number {
    // Why the tag-level memo is sound: a plain heredoc that finds no close line before the end
    // of the source, and no call tail on its last non-blank line, fails the same way from any
    // later start with the same tag (it would examine a suffix of the same lines and the same
    // last line); an escaped one walks the same literal-`\n` lines in step. Without the memo
    // every unterminated `<<EOF` rescans to the end: quadratic.
    const steps = (this.#heredocSteps ??= new OffsetTable(this.src.length + 1));
    const known = steps.get(start);
    if (known !== 0) return known;
    const opener = peekHeredocOpener(this.src, start);
    const memoKey = opener !== null && (opener.form === 'plain' || opener.form === 'escaped') ? `${opener.form}:${opener.tag}` : null;
    const brokenFrom = memoKey === null ? undefined : this.#unterminatedHeredocs?.get(memoKey);
    if ((brokenFrom !== undefined && start >= brokenFrom) || (opener?.form === 'counted' && this.#countedCannotClose(opener))) {
      this.#work(1);
      steps.set(start, HeredocStep.Broken);
      return HeredocStep.Broken;
    }
    const scan = scanHeredoc(this.src, start);
    let step: number;
    if (scan === null) step = HeredocStep.Content;
    else if (scan.ok) step = scan.end;
    else step = scan.reason === 'InvalidCount' ? HeredocStep.Content : HeredocStep.Broken;
    if (scan !== null && !scan.ok && scan.reason === 'Unterminated') {
      this.#work(this.src.length - start);
      if (memoKey !== null && brokenFrom === undefined) (this.#unterminatedHeredocs ??= new Map()).set(memoKey, start);
    } else this.#work(step > start ? step - start : 2);
    steps.set(start, step);
    return step;
  }

  /**
   * A counted heredoc (`<<TAG:N`) is certain to fail when the source has fewer than N more
   * newlines, or when line N+1 (leading Unicode whitespace and one trailing CR aside) is not
   * the tag. Reading that off the line index avoids consuming N lines per failed opener.
   */
  #countedCannotClose(opener: HeredocOpener): boolean {
    const index = this.index;
    const firstLine = index.lineOf(opener.contentStart);
    const closeLine = firstLine + opener.count;
    if (closeLine > index.newlines.length) return true;
    const lineEnd = index.endOfLine(closeLine);
    const tagStart = index.firstNonWhitespace(closeLine);
    let tagEnd = lineEnd;
    if (tagEnd > tagStart && this.src.charCodeAt(tagEnd - 1) === Code.CarriageReturn) tagEnd--;
    return tagEnd - tagStart !== opener.tag.length || !this.src.startsWith(opener.tag, tagStart);
  }

  /** End of a complete heredoc at `start`, or -1 for anything else (`skipHeredocBody`). */
  heredocEnd(start: number): number {
    const step = this.heredocStep(start);
    return step >= 0 ? step : -1;
  }

  /**
   * Walk a call body from `from` to its `close` needle. Quoted spans and
   * heredocs are skipped; an unterminated one truncates the walk. A line-leading `opener`
   * (Unicode-whitespace definition) bounds it. Close needle and openers must start with `<`.
   *
   *     <tool_call>run({ command: "echo </tool_call>" })</tool_call>
   *                ^ from              (skipped in span)  ^ closed here
   */
  findSpanEnd(from: number, close: string, openers: readonly string[]): SpanEnd {
    const src = this.src;
    const length = src.length;
    const memo = this.#walkMemo(close, openers);
    const walk = memo.outcome.length;
    memo.outcome.push(NOT_FOUND);
    const stepped = this.#stepped;
    stepped.length = 0;
    let result: SpanEnd = NOT_FOUND;
    let i = from;
    let steps = 0;
    while (i < length) {
      steps++;
      const code = src.charCodeAt(i);
      if (!isQuote(code) && code !== Code.LessThan) {
        i++;
        continue;
      }
      // Only quotes and `<` decide anything, so only they are stamped: a later walk reaching a
      // stamped one would repeat that walk from here on, and takes its outcome instead.
      if (i <= memo.highestStamp) {
        const seenBy = memo.stamp.get(i);
        if (seenBy !== 0) {
          result = memo.outcome[seenBy] as SpanEnd;
          break;
        }
      }
      stepped.push(i);
      if (code !== Code.LessThan) {
        const end = this.quoteEnd(i);
        if (end === -1) {
          result = TRUNCATED;
          break;
        }
        i = end;
        continue;
      }
      if (src.charCodeAt(i + 1) === Code.LessThan) {
        const step = this.heredocStep(i);
        if (step === HeredocStep.Broken) {
          result = TRUNCATED;
          break;
        }
        if (step >= 0) {
          i = step;
          continue;
        }
      }
      if (src.startsWith(close, i)) {
        result = { kind: 'closed', at: i };
        break;
      }
      if (this.index.isLineLeadingUnicode(i) && startsWithAny(src, i, openers)) {
        result = { kind: 'opener', at: i };
        break;
      }
      i++;
    }
    this.#work(steps);
    memo.outcome[walk] = result;
    // A closed block ends at its close and the cursor never comes back before it, so no later
    // walk can step where this one did: stamping is needed only when the unit may end earlier
    // (a resync on raw characters after a truncation, or a reserved stub without its close).
    if (result.kind !== 'closed' && stepped.length > 0) {
      for (const at of stepped) memo.stamp.set(at, walk);
      memo.highestStamp = Math.max(memo.highestStamp, stepped[stepped.length - 1] as number);
    }
    return result;
  }

  /**
   * First offset `>= from` that is line-leading (Unicode whitespace before it on its line) and
   * starts one of `openers`, or -1. Raw characters: no string or heredoc
   * awareness. Openers must start with a non-whitespace character (they start with `<`).
   */
  findOpenerAfter(from: number, openers: readonly string[]): number {
    const last = this.#openerQueries?.get(openers);
    // Nothing in [last.from, last.found) matched, so a later query inside it has the same answer.
    if (last && from >= last.from && (last.found === -1 || from <= last.found)) return last.found;
    const index = this.index;
    const lines = index.newlines.length + 1;
    let found = -1;
    for (let line = index.lineOf(from); line < lines; line++) {
      // Openers start with a non-space character, so the one line-leading candidate of a line
      // is its first non-whitespace character; positions before `from` do not count.
      const candidate = index.firstNonWhitespace(line);
      this.#work(1);
      if (candidate >= from && candidate < index.endOfLine(line) && startsWithAny(this.src, candidate, openers)) {
        found = candidate;
        break;
      }
    }
    (this.#openerQueries ??= new Map()).set(openers, { from, found });
    return found;
  }

  #walkMemo(close: string, openers: readonly string[]): WalkMemo {
    let byOpeners = this.#walks?.get(close);
    if (byOpeners === undefined) {
      byOpeners = new Map();
      (this.#walks ??= new Map()).set(close, byOpeners);
    }
    let memo = byOpeners.get(openers);
    if (memo === undefined) {
      // Walk ids start at 1 so that 0 can mean "not stepped on"; the table turns into a typed
      // array when an adversarial body stamps many positions.
      memo = { stamp: new OffsetTable(this.src.length + 1), highestStamp: -1, outcome: [NOT_FOUND] };
      byOpeners.set(openers, memo);
    }
    return memo;
  }
}

/** Whether `src` at `at` starts with any of `needles`. */
export function startsWithAny(src: string, at: number, needles: readonly string[]): boolean {
  for (const needle of needles) if (src.startsWith(needle, at)) return true;
  return false;
}

/** Section 6.5 as a one-off function (the scanner keeps one `SpanWalker` per scan instead). */
export function findSpanEnd(src: string, from: number, close: string, openers: readonly string[]): SpanEnd {
  return new SpanWalker(src).findSpanEnd(from, close, openers);
}

/** Section 6.6 as a one-off function: -1 when no line-leading opener follows. */
export function findOpenerAfter(src: string, from: number, openers: readonly string[]): number {
  return new SpanWalker(src).findOpenerAfter(from, openers);
}

/**
 * Plain block: `<tag>` at `start`, then the first `</tag>` anywhere after it,
 * with no string, heredoc or nesting awareness. Null when the close is absent.
 */
export function matchBlock(src: string, start: number, tag: string): { body: string; end: number } | null {
  const open = `<${tag}>`;
  if (!src.startsWith(open, start)) return null;
  const close = `</${tag}>`;
  const bodyStart = start + open.length;
  const at = src.indexOf(close, bodyStart);
  return at === -1 ? null : { body: src.slice(bodyStart, at), end: at + close.length };
}

/** Outcome of the legacy close-tag search. */
export type CloseTagSearch = { kind: 'found'; at: number } | { kind: 'need_more' } | { kind: 'not_found' };

/**
 * Legacy close search used by streaming detectors: like `findSpanEnd` without bounds, and an
 * unterminated string or heredoc means "need more input" rather than "truncated".
 */
export function findCloseTag(src: string, from: number, needle: string): CloseTagSearch {
  const walker = new SpanWalker(src);
  let i = from;
  while (i < src.length) {
    const code = src.charCodeAt(i);
    if (isQuote(code)) {
      const end = walker.quoteEnd(i);
      if (end === -1) return { kind: 'need_more' };
      i = end;
      continue;
    }
    if (code === Code.LessThan && src.charCodeAt(i + 1) === Code.LessThan) {
      const step = walker.heredocStep(i);
      if (step === HeredocStep.Broken) return { kind: 'need_more' };
      if (step >= 0) {
        i = step;
        continue;
      }
    }
    if (src.startsWith(needle, i)) return { kind: 'found', at: i };
    i++;
  }
  return { kind: 'not_found' };
}

/** `<tag>` at `start` closed by a string- and heredoc-aware `</tag>`; null otherwise. */
export function matchToolCallBlock(src: string, start: number, tag: string): { body: string; end: number } | null {
  const open = `<${tag}>`;
  if (!src.startsWith(open, start)) return null;
  const bodyStart = start + open.length;
  const close = `</${tag}>`;
  const found = findCloseTag(src, bodyStart, close);
  return found.kind === 'found' ? { body: src.slice(bodyStart, found.at), end: found.at + close.length } : null;
}
