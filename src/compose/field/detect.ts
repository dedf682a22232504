/**
 * Where the next field-grammar region may start: the earliest opener of any grammar at or
 * after a cursor, with the grammars that open with it (in record order).
 *
 * The openers of every grammar are compiled once into one global RegExp shaped as a trie of
 * their characters (literal-trie.ts): the match is the longest opener starting at the earliest
 * position (`<|tool_calls_section_begin|>` over a shorter opener at the same place). A
 * forward-moving cursor makes the whole detection one sweep.
 */
import type { FieldGrammar } from '../../dialects/field/index.js';
import { literalTrieSource } from '../literal-trie.js';

export interface OpenerHit {
  readonly index: number;
  readonly opener: string;
  readonly grammars: readonly FieldGrammar[];
}

export interface OpenerDetector {
  /**
   * The earliest opener at or after `from` in a whole text, or null: a line-start opener counts
   * after a newline, or after the text's start and any spaces or tabs.
   */
  next(text: string, from: number): OpenerHit | null;
  /**
   * As `next`, in a window cut from a longer text: a line-start opener counts after a newline or
   * at the window's first character, never after leading spaces (they are mid-line there).
   */
  nextInWindow(text: string, from: number): OpenerHit | null;
  /**
   * The longest line-start opener that begins exactly at `at`, wherever its line begins: for the
   * first character of an answer that follows a reasoning block on the same line.
   */
  lineOpenerAt(text: string, at: number): OpenerHit | null;
  /** True when `text` holds no opener at all (the common case: the lane is skipped). */
  none(text: string): boolean;
}

export function compileOpeners(grammars: readonly FieldGrammar[]): OpenerDetector {
  const byOpener = new Map<string, FieldGrammar[]>();
  const lineStart = new Set<string>();
  const responseStart = new Set<string>();
  const placeOf = (grammar: FieldGrammar, opener: string): string => (grammar.responseOpeners?.includes(opener) === true ? 'response-start' : (grammar.openAt ?? 'anywhere'));
  for (const grammar of grammars) {
    for (const opener of [...grammar.openers, ...(grammar.responseOpeners ?? [])]) {
      if (opener === '') throw new TypeError(`field grammar ${grammar.id}: an opener must be non-empty`);
      const place = placeOf(grammar, opener);
      if (place === 'line-start') lineStart.add(opener);
      if (place === 'response-start') responseStart.add(opener);
      const list = byOpener.get(opener);
      if (list === undefined) byOpener.set(opener, [grammar]);
      else if (!list.includes(grammar)) list.push(grammar);
    }
  }
  for (const [opener, list] of byOpener) {
    if (list.some((g) => placeOf(g, opener) !== placeOf(list[0]!, opener))) throw new TypeError(`field grammars disagree on where the opener ${JSON.stringify(opener)} counts`);
  }
  if (byOpener.size === 0) {
    return { next: () => null, nextInWindow: () => null, lineOpenerAt: () => null, none: () => true };
  }
  // perf: the flat alternation of the 115 openers ran at about 1.4 ns per character of any
  // text; the trie 10 % to 40 % faster over the bench's rows (same hits on every row).
  const source = literalTrieSource(byOpener.keys(), { lineStart, responseStart, indentedStart: true });
  const finder = new RegExp(source, 'g');
  // A window that does not begin the response holds no response-start opener.
  const windowFinder = new RegExp(literalTrieSource([...byOpener.keys()].filter((o) => !responseStart.has(o)), { lineStart }), 'g');
  const probe = new RegExp(source);
  const lineOpener = lineStart.size === 0 ? null : new RegExp(literalTrieSource(lineStart), 'y');
  // A hit names its opener by the vocabulary's own string, not the match's copy: the maps and
  // sets keyed by opener downstream then find it by identity (perf: no hashing per look-up).
  const spelled = new OpenerTable(byOpener);
  const find = (re: RegExp, text: string, from: number): OpenerHit | null => {
    re.lastIndex = from;
    const match = re.exec(text);
    if (match === null) return null;
    const entry = spelled.get(match[0]);
    return { index: match.index, opener: entry.opener, grammars: entry.grammars };
  };
  return {
    next: (text, from) => find(finder, text, from),
    nextInWindow: (text, from) => find(windowFinder, text, from),
    lineOpenerAt: (text, at) => (lineOpener === null ? null : find(lineOpener, text, at)),
    none: (text) => !probe.test(text),
  };
}

interface OpenerEntry {
  readonly opener: string;
  readonly grammars: readonly FieldGrammar[];
}

/**
 * The vocabulary's entry for a matched opener. perf: the match is a fresh string, and a map
 * keyed by string computes its hash (a call into the engine's runtime: 1 % of a Qwen3-Coder
 * parse); here the openers are bucketed by a number read from their length and two of their
 * characters, and the few in a bucket are compared with the match.
 */
class OpenerTable {
  readonly #buckets = new Map<number, OpenerEntry[]>();
  constructor(byOpener: ReadonlyMap<string, readonly FieldGrammar[]>) {
    for (const [opener, grammars] of byOpener) {
      const key = bucketOf(opener);
      const bucket = this.#buckets.get(key);
      if (bucket === undefined) this.#buckets.set(key, [{ opener, grammars }]);
      else bucket.push({ opener, grammars });
    }
  }

  /** The entry of `opener`, which must be one of the table's (a match of the detector's). */
  get(opener: string): OpenerEntry {
    const bucket = this.#buckets.get(bucketOf(opener))!;
    for (let i = 0; i < bucket.length; i++) if (bucket[i]!.opener === opener) return bucket[i]!;
    throw new Error(`not an opener: ${JSON.stringify(opener)}`);
  }
}

/**
 * A small integer from a literal's length, its middle character and the one before its last
 * (many openers share their first two and their last: `<|…|>`), well within the engine's
 * small-integer range, so the key is never boxed. At most 5 of today's 242 openers share one.
 */
function bucketOf(literal: string): number {
  const n = literal.length;
  return ((n * 31 + literal.charCodeAt(n >> 1)) * 31 + literal.charCodeAt(n < 2 ? 0 : n - 2)) & 0x3fffffff;
}
