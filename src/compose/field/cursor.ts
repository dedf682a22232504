/**
 * Small forward-only text helpers the field readers share. None looks behind its cursor, and
 * every search is bounded by the caller, so a reader's work is the length of what it reads.
 */
import { skipJsonSpace } from '../../lex/codes.js';

/** Past JSON whitespace (space, tab, LF, CR): the readers' token gap. */
export { skipJsonSpace as skipSpace };

/** The first of `literals` that stands at `at`, or null. */
export function matchAt(text: string, at: number, literals: readonly string[]): string | null {
  // perf: a startsWith costs a builtin call even when the first character already differs, and
  // most literals asked at a position fail there; the first code is compared inline (an empty
  // literal, whose code is NaN, never matches; `startsWith` reads a negative `at` as 0).
  const code = text.charCodeAt(at < 0 ? 0 : at);
  // perf: an index, not for-of: vocabulary arrays are frozen, and V8 iterates a frozen array on
  // its slow path (an iterator result allocated per element; 1.5x the time of this loop). Even an
  // indexed read of a frozen array is not inlined by the optimising compiler (it calls the
  // engine's keyed-load stub): see `matchListAt` for the hottest callers.
  for (let i = 0; i < literals.length; i++) {
    const literal = literals[i]!;
    if (literal.charCodeAt(0) === code && text.startsWith(literal, at)) return literal;
  }
  return null;
}

declare const compiled: unique symbol;

/**
 * A list of literals compiled once for `matchListAt`: each literal once, the empty one left
 * out, in an unfrozen array of its own (never a vocabulary record's array). Only `searchList`
 * makes one.
 */
export type SearchList = readonly string[] & { readonly [compiled]: true };

export function searchList(list: readonly string[]): SearchList {
  return [...new Set(list)].filter((literal) => literal !== '') as unknown as SearchList;
}

/**
 * `matchAt` for compiled lists, with the same answer.
 *
 * perf: V8 keeps a function's type feedback once for all its callers. Every reader hands
 * `matchAt` the frozen vocabulary's own arrays, so once a process has read a few grammars, each
 * literal it reads goes through the engine's generic keyed-load stub, in every caller it is
 * inlined into. This twin only ever sees compiled lists (the type admits no other), so its reads
 * stay inline: on the Qwen3-Coder row after every other row had run, the stub's share of the
 * samples fell from 3.6 % to none.
 */
export function matchListAt(text: string, at: number, list: SearchList): string | null {
  const code = text.charCodeAt(at < 0 ? 0 : at);
  for (let i = 0; i < list.length; i++) {
    const literal = list[i]!;
    if (literal.charCodeAt(0) === code && text.startsWith(literal, at)) return literal;
  }
  return null;
}

/** How many characters `indexWithin` looks at one by one before it searches the rest of its window. */
const NEAR = 8;

/** `needle` in text[from, from + window + needle.length), or -1: the search never runs past the window. */
export function indexWithin(text: string, needle: string, from: number, window: number): number {
  const stop = Math.min(text.length, from + window + needle.length);
  let at = from;
  // perf: a one-character needle (a tag's `>`) usually stands within a few characters, where a
  // look at each costs less than a window cut out; further on, the builtin search is many times
  // faster per character than this loop (a 256-character window: about 20 ns against 700 ns).
  if (needle.length === 1) {
    const code = needle.charCodeAt(0);
    const near = Math.min(stop, from + NEAR);
    for (; at < near; at++) if (text.charCodeAt(at) === code) return at;
    if (at >= stop) return -1;
  }
  const found = text.slice(at, stop).indexOf(needle);
  return found < 0 ? -1 : at + found;
}

/** True when only whitespace remains from `at`. */
export function atEnd(text: string, at: number): boolean {
  return skipJsonSpace(text, at) >= text.length;
}
