/**
 * The per-parse state the field readers share: the text, the registry, and memoised
 * forward searches. A reader that skips to "the next call opener or section close" asks here;
 * each needle list keeps its last answer (see `EarliestNeedle`), so thousands of skips over
 * one text sweep it once per list, not once per skip.
 */
import type { ToolRegistry } from '../../dialects/registry.js';
import { EarliestNeedle, earliestOnce } from '../earliest-needle.js';

const nonEmptyOf = new WeakMap<readonly string[], readonly string[]>();

/** `needles` without empty strings, one array per list object (so EarliestNeedle keeps its grouping). */
function nonEmpty(needles: readonly string[]): readonly string[] {
  let kept = nonEmptyOf.get(needles);
  if (kept === undefined) {
    kept = needles.filter((n) => n !== '');
    nonEmptyOf.set(needles, kept);
  }
  return kept;
}

/**
 * Tells whether a candidate of one kind stands at an index. An object with a method rather than
 * a closure, so a reader passes itself instead of making a function per value.
 */
export interface CandidateTest<K extends string = string> {
  accepts(kind: K, at: number): boolean;
}

export class FieldScan {
  readonly text: string;
  readonly registry: ToolRegistry | null;
  readonly #finders = new Map<readonly string[], EarliestNeedle>();
  readonly #accepted = new Map<readonly string[], Map<string, { from: number; found: number }>>();
  /**
   * Where the visible answer may begin: past the reasoning blocks that open the text (the lane
   * moves it as it reads them). A look-alike there, with blanks only before it, is as good as
   * the whole response's start.
   */
  answerFrom = 0;

  constructor(text: string, registry: ToolRegistry | null) {
    this.text = text;
    this.registry = registry;
  }

  /** The earliest index `>= from` where one of `needles` starts, or -1. Pass the same array object each time. */
  earliest(needles: readonly string[], from: number): number {
    let finder = this.#finders.get(needles);
    if (finder === undefined) {
      finder = new EarliestNeedle(this.text, nonEmpty(needles));
      this.#finders.set(needles, finder);
    }
    return finder.earliest(from);
  }

  /**
   * The earliest index `>= from` where one of `needles` starts and `test` accepts, or -1.
   * The test must depend on the text at the index alone (one test per `needles` and `kind`),
   * so the answer is memoised as `earliest`'s is: a reader that asks again from further on
   * never tests a rejected candidate twice.
   */
  earliestAccepted<K extends string>(needles: readonly string[], kind: K, from: number, test: CandidateTest<K>): number {
    let byKind = this.#accepted.get(needles);
    if (byKind === undefined) this.#accepted.set(needles, (byKind = new Map()));
    const memo = byKind.get(kind);
    if (memo !== undefined && from >= memo.from && (memo.found < 0 || from <= memo.found)) return memo.found;
    let at = this.earliest(needles, from);
    while (at >= 0 && !test.accepts(kind, at)) at = this.earliest(needles, at + 1);
    byKind.set(kind, { from, found: at });
    return at;
  }

  /**
   * The earliest index in `[from, before)` where one of `needles` starts and `test` accepts, or
   * -1. The search reads only that window (plus a needle's length past it): a value's own text,
   * where `earliestAccepted` would sweep on to the next hit however far it is.
   */
  acceptedBefore<K extends string>(needles: readonly string[], kind: K, from: number, before: number, test: CandidateTest<K>): number {
    const kept = nonEmpty(needles);
    if (before <= from || kept.length === 0) return -1;
    const window = this.text.slice(from, Math.min(this.text.length, before + longestOf(kept) - 1));
    const span = before - from;
    // perf: most windows (a value's own text) hold no candidate, or an accepted first one, so a
    // first look needs no search object (one per value was 4 % of the bytes a Qwen3-Coder parse
    // allocated); one is made for the rest only after a refusal, whose memo keeps it linear.
    const first = earliestOnce(window, kept, 0);
    if (first < 0 || first >= span) return -1;
    if (test.accepts(kind, from + first)) return from + first;
    const finder = new EarliestNeedle(window, kept);
    for (let at = finder.earliest(first + 1); at >= 0 && at < span; at = finder.earliest(at + 1)) {
      if (test.accepts(kind, from + at)) return from + at;
    }
    return -1;
  }
}

const longest = new WeakMap<readonly string[], number>();

function longestOf(needles: readonly string[]): number {
  let n = longest.get(needles);
  if (n === undefined) {
    n = 0;
    for (const needle of needles) n = Math.max(n, needle.length);
    longest.set(needles, n);
  }
  return n;
}
