import { Code } from './codes.js';

/**
 * Length of the balanced `{ ... }` starting at `from`, counting braces outside double-quoted
 * JSON strings; 0 when `text` has no `{` at `from` or the object never closes (a balanced
 * object is at least 2 long, so 0 is unambiguous).
 *
 *     {"a": "}{"} trailing      -> 11
 *     ^ from
 *
 * Only `"` delimits strings (a backslash inside one escapes the next unit); single quotes and
 * backticks are ordinary characters and `[ ]` are not tracked.
 */
export function balancedJsonObjectLen(text: string, from = 0): number {
  if (text.charCodeAt(from) !== Code.LeftBrace) return 0;
  const length = text.length;
  let depth = 0;
  let inString = false;
  let i = from;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === Code.Backslash) i++;
      else if (code === Code.Quote) inString = false;
    } else if (code === Code.Quote) {
      inString = true;
    } else if (code === Code.LeftBrace) {
      depth++;
    } else if (code === Code.RightBrace) {
      depth--;
      if (depth === 0) return i + 1 - from;
    }
    i++;
  }
  return 0;
}
