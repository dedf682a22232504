/**
 * The one reader for JSON that comes from model text: `JSON.parse`, behind a nesting cap.
 *
 * V8's `JSON.parse` reads any depth without recursion, but everything that later walks the
 * value (the canonical renderer, entity decoding, `JSON.stringify` of the answer) would have to
 * be written for unbounded depth as well. Capping here, at the one place model JSON becomes a
 * value, bounds them all. The cap is the stream reader's (`JSON_NESTING_LIMIT`), so the lanes and
 * the ladders refuse the same texts.
 */
import { Code } from './codes.js';
import { JSON_NESTING_LIMIT } from './json-stream.js';
import { skipStringSpan } from './string-span.js';

export type JsonRead = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Deepest container nesting in `text`, counting `[` and `{` outside double-quoted strings (skipped
 * as `skipStringSpan` skips them); stops counting (and returns) as soon as `limit` is passed.
 * Linear, no allocation.
 */
export function jsonNestingDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === Code.Quote) {
      // An unterminated string holds no more containers.
      i = skipStringSpan(text, i);
      if (i < 0) return deepest;
      continue;
    }
    if (code === Code.LeftBrace || code === Code.LeftBracket) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (code === Code.RightBrace || code === Code.RightBracket) {
      depth--;
    }
    i++;
  }
  return deepest;
}

/**
 * One JSON value from the whole of `text`, or the reason it is not one. `JSON.parse` semantics
 * (its error text, `__proto__` as an ordinary own key), except that containers nested deeper
 * than `JSON_NESTING_LIMIT` are an error.
 */
export function readJsonCapped(text: string): JsonRead {
  if (jsonNestingDepth(text, JSON_NESTING_LIMIT) > JSON_NESTING_LIMIT) {
    return { ok: false, error: `JSON nested deeper than ${JSON_NESTING_LIMIT} levels` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  // A literal beyond the double range (`1e400`) parses to Infinity, which the answer's JSON then
  // writes as `null`: the value would change unreported, so it is an error, as the strict
  // reader's (json-stream.ts) is. perf: only a text with a three-digit exponent or a 309-digit
  // run can hold one, so most values are never walked.
  if (MAY_OVERFLOW.test(text) && holdsNonFinite(value)) return { ok: false, error: 'number out of range' };
  return { ok: true, value };
}

const MAY_OVERFLOW = /\d[eE][+-]?\d{3}|\d{309}/;

/** Whether a parsed JSON value holds a number that is not finite (iterative: the value is capped in depth, not in size). */
function holdsNonFinite(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) return true;
    } else if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
    } else if (item !== null && typeof item === 'object') {
      for (const key in item) if (Object.hasOwn(item, key)) stack.push((item as Record<string, unknown>)[key]);
    }
  }
  return false;
}
