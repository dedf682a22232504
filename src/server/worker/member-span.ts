/**
 * Where the value of one top-level member sits in a JSON object's text, found without building
 * anything. The worker uses it to key the tools cache by the registry's own bytes and, on a hit,
 * to parse the body with that value cut out: a gateway's 40 tool definitions then cost a string
 * search instead of being decoded, validated and re-serialised on every request.
 *
 * The answer is only a shortcut, so every doubt is `null` and the caller takes the ordinary path:
 * text that is not an object, a key written with escapes (JSON.parse would unescape it, this
 * reader does not), a second member of the same name (JSON.parse keeps the last), or anything
 * malformed. For well-formed JSON a span it returns is exactly the member's value text.
 *
 * Linear: strings are skipped by the lexer's `skipStringSpan` (quote-to-quote hops).
 */
import { Code, isJsonSpace } from '../../lex/codes.js';
import { skipStringSpan } from '../../lex/string-span.js';

export interface Span {
  /** First character of the value. */
  readonly start: number;
  /** One past its last character. */
  readonly end: number;
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && isJsonSpace(text.charCodeAt(at))) at++;
  return at;
}

/** `at` is on `{` or `[`; returns one past the matching close, or -1. */
function skipContainer(text: string, at: number): number {
  let depth = 0;
  let i = at;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === Code.Quote) {
      i = skipStringSpan(text, i);
      if (i < 0) return -1;
      continue;
    }
    if (code === Code.LeftBrace || code === Code.LeftBracket) depth++;
    else if (code === Code.RightBrace || code === Code.RightBracket) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return -1;
}

/** `at` is on a scalar (number, true, false, null); returns one past it. */
function skipScalar(text: string, at: number): number {
  let i = at;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === Code.Comma || code === Code.RightBrace || isJsonSpace(code)) break;
    i++;
  }
  return i;
}

function skipValue(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code === Code.Quote) return skipStringSpan(text, at);
  if (code === Code.LeftBrace || code === Code.LeftBracket) return skipContainer(text, at);
  const end = skipScalar(text, at);
  return end === at ? -1 : end;
}

/** A value's end: `expected` (a whole JSON value's text) when the text there starts with it. */
function valueEnd(text: string, start: number, expected: string | null): number {
  // perf: slice and === (a memory compare) rather than startsWith, which walked 10 KB of tools
  // text a character at a time, ~50x slower.
  if (expected !== null && expected.length > 0 && text.slice(start, start + expected.length) === expected) {
    // A complete array, object or string ends where its text ends; a scalar needs a delimiter
    // after it ("12" is not the whole of "123").
    const end = start + expected.length;
    const after = text.charCodeAt(skipSpace(text, end));
    if (after === Code.Comma || after === Code.RightBrace) return end;
  }
  return skipValue(text, start);
}

/**
 * The span of the value of top-level member `key` in `text`, or null (see the module note).
 * `expected` is the value text the caller has seen before (the tools of the last request): when
 * the member's value starts with it, the value is not walked, only compared. It must be the
 * complete text of one JSON value.
 */
export function topLevelMemberSpan(text: string, key: string, expected: string | null = null): Span | null {
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== Code.LeftBrace) return null;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === Code.RightBrace) return null;
  let found: Span | null = null;
  for (;;) {
    // The cursor is on a member's opening quote.
    if (text.charCodeAt(i) !== Code.Quote) return null;
    const keyEnd = skipStringSpan(text, i);
    if (keyEnd < 0) return null;
    const name = text.slice(i + 1, keyEnd - 1);
    if (name.includes('\\')) return null;
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== Code.Colon) return null;
    const start = skipSpace(text, i + 1);
    const end = name === key ? valueEnd(text, start, expected) : skipValue(text, start);
    if (end < 0) return null;
    if (name === key) {
      if (found !== null) return null;
      found = { start, end };
    }
    i = skipSpace(text, end);
    const next = text.charCodeAt(i);
    if (next === Code.RightBrace) return found;
    if (next !== Code.Comma) return null;
    i = skipSpace(text, i + 1);
  }
}
