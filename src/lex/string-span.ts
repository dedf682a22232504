import { Code } from './codes.js';

/**
 * Skip the quoted span whose opening quote is at `start` and return the index just past its
 * closing quote, or -1 when the input ends first (unterminated).
 *
 *     say("it's", x)
 *         ^ start    -> returns the index after the second `"`
 *
 * The delimiter is whatever character sits at `start` (callers pass `"`, `'` or a backtick).
 * A backslash skips itself and the next character, whatever it is; newlines do not end the
 * span; there is no `${}` awareness. Every quote in a call body opens a span on purpose, so an
 * apostrophe in prose makes the rest of the text one unterminated span.
 */
export function skipStringSpan(src: string, start: number): number {
  const quote = src[start]!;
  let from = start + 1;
  // perf: hop from quote to quote with the native search, then decide by the backslashes just
  // before it (an odd run escapes it). Each run is counted once, for the quote it precedes, so
  // the walk stays linear; the span ends exactly where a character-by-character walk would.
  for (;;) {
    const close = src.indexOf(quote, from);
    if (close < 0) return -1;
    let backslashes = 0;
    while (src.charCodeAt(close - 1 - backslashes) === Code.Backslash) backslashes++;
    if (backslashes % 2 === 0) return close + 1;
    from = close + 1;
  }
}
