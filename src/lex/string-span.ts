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
  const quote = src.charCodeAt(start);
  const length = src.length;
  let i = start + 1;
  while (i < length) {
    const code = src.charCodeAt(i);
    if (code === quote) return i + 1;
    i += code === Code.Backslash ? 2 : 1;
  }
  return -1;
}
