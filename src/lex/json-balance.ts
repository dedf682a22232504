import { Code } from './codes.js';
import { skipStringSpan } from './string-span.js';

/**
 * Length of the balanced `{ ... }` starting at `from`, counting braces outside double-quoted
 * JSON strings; 0 when `text` has no `{` at `from` or the object never closes (a balanced
 * object is at least 2 long, so 0 is unambiguous).
 *
 *     {"a": "}{"} trailing      -> 11
 *     ^ from
 *
 * Only `"` delimits strings, skipped as `skipStringSpan` skips them (a backslash escapes the
 * next unit); single quotes and backticks are ordinary characters and `[ ]` are not tracked.
 */
export function balancedJsonObjectLen(text: string, from = 0): number {
  if (text.charCodeAt(from) !== Code.LeftBrace) return 0;
  const length = text.length;
  let depth = 0;
  let i = from;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code === Code.Quote) {
      i = skipStringSpan(text, i);
      if (i < 0) return 0;
      continue;
    }
    if (code === Code.LeftBrace) {
      depth++;
    } else if (code === Code.RightBrace) {
      depth--;
      if (depth === 0) return i + 1 - from;
    }
    i++;
  }
  return 0;
}
