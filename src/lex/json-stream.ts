/**
 * Consecutive top-level JSON values from the start of a text, with the semantics of a
 * streaming JSON reader (serde_json's `StreamDeserializer`):
 *
 *     {"a": 1} {"b": 2}[3]"s" 4 nope
 *     ^ value  ^ value ^   ^   ^ ^ error: not a JSON value (the values before it are kept)
 *
 * Values may be separated by JSON whitespace; objects, arrays and strings may abut anything; a
 * number or literal must be followed by whitespace, one of `[ ] { } , : "`, or the end.
 *
 * Each value's extent is found by an iterative strict-JSON validator (so it can tell "cut off
 * by the end of input" from "invalid"), then `JSON.parse` builds the value from that slice
 * (which makes `__proto__` an ordinary own key). Offsets are UTF-16 indexes. Linear: every
 * character is validated once and parsed once.
 */
import { Code, hex4, isAsciiDigit, isJsonSpace, skipJsonSpace } from './codes.js';

export interface JsonStreamValue {
  value: unknown;
  start: number;
  end: number;
}

/**
 * `end` is the index just past the last value read (0 when none). The first failure stops the
 * stream: `eof` when the text ended inside a value (truncation), otherwise `error` describes
 * the invalid input (own wording, with a 1-based line and column).
 */
export interface JsonStreamResult {
  values: JsonStreamValue[];
  end: number;
  eof: boolean;
  error?: string;
}

/** Containers nested deeper than this are an error, as with serde_json's recursion limit. */
export const JSON_NESTING_LIMIT = 128;

type Extent = { end: number } | { eof: true } | { error: string; at: number };

const EOF: Extent = { eof: true };

function isSimpleEscape(code: number): boolean {
  return (
    code === Code.Quote ||
    code === Code.Backslash ||
    code === Code.Slash ||
    code === Code.LowerB ||
    code === Code.LowerF ||
    code === Code.LowerN ||
    code === Code.LowerR ||
    code === Code.LowerT
  );
}

/** May follow a number or literal at top level (serde's end-of-value check). */
function endsValue(code: number): boolean {
  return (
    Number.isNaN(code) ||
    isJsonSpace(code) ||
    code === Code.Quote ||
    code === Code.LeftBracket ||
    code === Code.RightBracket ||
    code === Code.LeftBrace ||
    code === Code.RightBrace ||
    code === Code.Comma ||
    code === Code.Colon
  );
}


/**
 *     "a\u00e9\n"
 *     ^ at   -> end just past the closing quote
 */
function scanString(text: string, at: number): Extent {
  const length = text.length;
  let i = at + 1;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code === Code.Quote) return { end: i + 1 };
    if (code < 0x20) return { error: 'control character inside a string', at: i };
    if (code !== Code.Backslash) {
      i++;
      continue;
    }
    if (i + 1 >= length) return EOF;
    const escape = text.charCodeAt(i + 1);
    if (escape !== Code.LowerU) {
      if (!isSimpleEscape(escape)) return { error: 'invalid escape in a string', at: i };
      i += 2;
      continue;
    }
    // Four digits cut off by the end of the text are a truncation, not an error.
    if (i + 6 > length) return EOF;
    const unit = hex4(text, i + 2);
    if (unit < 0) return { error: 'invalid \\u escape in a string', at: i };
    i += 6;
    if (unit >= 0xdc00 && unit <= 0xdfff) return { error: 'lone low surrogate in a \\u escape', at: i - 6 };
    if (unit >= 0xd800 && unit <= 0xdbff) {
      // A high surrogate must be followed by an escaped low one.
      if (i >= length || (i + 1 >= length && text.charCodeAt(i) === Code.Backslash)) return EOF;
      if (text.charCodeAt(i) !== Code.Backslash || text.charCodeAt(i + 1) !== Code.LowerU) {
        return { error: 'lone high surrogate in a \\u escape', at: i - 6 };
      }
      if (i + 6 > length) return EOF;
      const low = hex4(text, i + 2);
      if (low < 0xdc00 || low > 0xdfff) return { error: 'lone high surrogate in a \\u escape', at: i - 6 };
      i += 6;
    }
  }
  return EOF;
}

/**
 *     -12.5e+3
 *     ^ at     -> end just past the last digit
 */
function scanNumber(text: string, at: number): Extent {
  const length = text.length;
  let i = at;
  if (text.charCodeAt(i) === Code.Dash) i++;
  if (i >= length) return EOF;
  const lead = text.charCodeAt(i);
  if (lead === Code.Digit0) {
    i++;
    if (isAsciiDigit(text.charCodeAt(i))) return { error: 'a number has a leading zero', at: i };
  } else if (isAsciiDigit(lead)) {
    while (isAsciiDigit(text.charCodeAt(i))) i++;
  } else {
    return { error: 'expected a digit', at: i };
  }
  const tail = numberTailEnd(text, i);
  if (tail.kind === 'eof') return EOF;
  if (tail.kind === 'missing') return { error: tail.part === 'fraction' ? 'expected a digit after the decimal point' : 'expected a digit in the exponent', at: tail.at };
  i = tail.end;
  if (!Number.isFinite(Number(text.slice(at, i)))) return { error: 'number out of range', at };
  return { end: i };
}

/** Where the fraction and exponent of a JSON number end, its integer part ending at `at`. */
export type NumberTail = { readonly kind: 'end'; readonly end: number } | { readonly kind: 'eof' } | { readonly kind: 'missing'; readonly part: 'fraction' | 'exponent'; readonly at: number };

/**
 *     -12.5e+3
 *        ^ at  -> end just past the exponent's last digit
 *
 * Shared by the strict reader and the lenient rung, which word their errors differently.
 */
export function numberTailEnd(text: string, at: number): NumberTail {
  let i = at;
  if (text.charCodeAt(i) === Code.Dot) {
    i++;
    if (i >= text.length) return { kind: 'eof' };
    if (!isAsciiDigit(text.charCodeAt(i))) return { kind: 'missing', part: 'fraction', at: i };
    while (isAsciiDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === Code.LowerE || e === Code.UpperE) {
    i++;
    const sign = text.charCodeAt(i);
    if (sign === Code.Plus || sign === Code.Dash) i++;
    if (i >= text.length) return { kind: 'eof' };
    if (!isAsciiDigit(text.charCodeAt(i))) return { kind: 'missing', part: 'exponent', at: i };
    while (isAsciiDigit(text.charCodeAt(i))) i++;
  }
  return { kind: 'end', end: i };
}

function scanLiteral(text: string, at: number, word: string): Extent {
  for (let k = 0; k < word.length; k++) {
    if (at + k >= text.length) return EOF;
    if (text.charCodeAt(at + k) !== word.charCodeAt(k)) return { error: `expected \`${word}\``, at: at + k };
  }
  return { end: at + word.length };
}

/** Where the value whose first character is at `at` ends (`at` is past any whitespace). */
function scanValue(text: string, at: number): Extent {
  const length = text.length;
  // One entry per open container: true for an object, false for an array.
  const open: boolean[] = [];
  let i = at;
  for (;;) {
    // Cursor: where a value must start.
    i = skipJsonSpace(text, i);
    if (i >= length) return EOF;
    let code = text.charCodeAt(i);
    let scalar: Extent | undefined;
    if (code === Code.LeftBrace || code === Code.LeftBracket) {
      if (open.length >= JSON_NESTING_LIMIT) return { error: 'nesting too deep', at: i };
      const isObject = code === Code.LeftBrace;
      open.push(isObject);
      i = skipJsonSpace(text, i + 1);
      if (i >= length) return EOF;
      code = text.charCodeAt(i);
      if (code === (isObject ? Code.RightBrace : Code.RightBracket)) {
        open.pop();
        i++;
      } else if (isObject) {
        const key = scanKey(text, i);
        if (!('end' in key)) return key;
        i = key.end;
        continue;
      } else {
        continue;
      }
    } else if (code === Code.Quote) scalar = scanString(text, i);
    else if (code === Code.Dash || isAsciiDigit(code)) scalar = scanNumber(text, i);
    else if (code === Code.LowerT) scalar = scanLiteral(text, i, 'true');
    else if (code === Code.LowerF) scalar = scanLiteral(text, i, 'false');
    else if (code === Code.LowerN) scalar = scanLiteral(text, i, 'null');
    else return { error: 'expected a JSON value', at: i };
    if (scalar !== undefined) {
      if (!('end' in scalar)) return scalar;
      i = scalar.end;
    }
    // Cursor: just past a complete value; close containers until one wants another member.
    for (;;) {
      if (open.length === 0) return { end: i };
      const isObject = open[open.length - 1] as boolean;
      i = skipJsonSpace(text, i);
      if (i >= length) return EOF;
      code = text.charCodeAt(i);
      if (code === (isObject ? Code.RightBrace : Code.RightBracket)) {
        open.pop();
        i++;
        continue;
      }
      if (code !== Code.Comma) {
        return { error: isObject ? 'expected `,` or `}` in an object' : 'expected `,` or `]` in an array', at: i };
      }
      i = skipJsonSpace(text, i + 1);
      if (i >= length) return EOF;
      code = text.charCodeAt(i);
      if (code === (isObject ? Code.RightBrace : Code.RightBracket)) return { error: 'trailing comma', at: i };
      if (isObject) {
        const key = scanKey(text, i);
        if (!('end' in key)) return key;
        i = key.end;
      }
      break;
    }
  }
}

/**
 *     "key" : value
 *     ^ at    ^ end (the value is scanned by the caller)
 */
function scanKey(text: string, at: number): Extent {
  if (text.charCodeAt(at) !== Code.Quote) return { error: 'expected a quoted object key', at };
  const key = scanString(text, at);
  if (!('end' in key)) return key;
  const colon = skipJsonSpace(text, key.end);
  if (colon >= text.length) return EOF;
  if (text.charCodeAt(colon) !== Code.Colon) return { error: 'expected `:` after an object key', at: colon };
  return { end: colon + 1 };
}

function describeAt(text: string, detail: string, at: number): string {
  let line = 1;
  let lineStart = 0;
  for (let newline = text.indexOf('\n'); newline >= 0 && newline < at; newline = text.indexOf('\n', newline + 1)) {
    line++;
    lineStart = newline + 1;
  }
  return `${detail} at line ${line} column ${at - lineStart + 1}`;
}

/** Read consecutive top-level JSON values from the start of `text`. */
export function readJsonStream(text: string): JsonStreamResult {
  if (typeof text !== 'string') throw new TypeError('readJsonStream: text must be a string');
  const values: JsonStreamValue[] = [];
  let end = 0;
  for (;;) {
    const start = skipJsonSpace(text, end);
    if (start >= text.length) return { values, end, eof: false };
    const extent = scanValue(text, start);
    if ('eof' in extent) return { values, end, eof: true };
    if ('error' in extent) return { values, end, eof: false, error: describeAt(text, extent.error, extent.at) };
    const first = text.charCodeAt(start);
    const delimited = first === Code.LeftBrace || first === Code.LeftBracket || first === Code.Quote;
    if (!delimited && !endsValue(text.charCodeAt(extent.end))) {
      return { values, end, eof: false, error: describeAt(text, 'unexpected character after a value', extent.end) };
    }
    let value: unknown;
    try {
      value = JSON.parse(text.slice(start, extent.end));
    } catch {
      // Unreachable when the validator agrees with JSON.parse; kept so model text never throws.
      return { values, end, eof: false, error: describeAt(text, 'invalid JSON value', start) };
    }
    values.push({ value, start, end: extent.end });
    end = extent.end;
  }
}

/** One JSON value starting at `start` (after JSON whitespace), read in place: no slice of the rest of the text. */
export type JsonValueAt =
  | { readonly ok: true; readonly value: unknown; readonly start: number; readonly end: number }
  | { readonly ok: false; readonly eof: boolean; readonly error: string; readonly at: number };

/**
 * Reads one strict JSON value at `start`, capped at `JSON_NESTING_LIMIT` like `readJsonStream`.
 * `eof` tells "the text ended inside the value" (truncation) from "not JSON". Work is the
 * value's own length, so a reader may call it at many offsets of one text and stay linear.
 */
export function readJsonValueAt(text: string, start: number): JsonValueAt {
  const from = skipJsonSpace(text, start);
  if (from >= text.length) return { ok: false, eof: true, error: 'the text ended before a value', at: from };
  const extent = scanValue(text, from);
  if ('eof' in extent) return { ok: false, eof: true, error: 'the text ended inside a value', at: from };
  if ('error' in extent) return { ok: false, eof: false, error: extent.error, at: extent.at };
  try {
    return { ok: true, value: JSON.parse(text.slice(from, extent.end)), start: from, end: extent.end };
  } catch {
    return { ok: false, eof: false, error: 'invalid JSON value', at: from };
  }
}
