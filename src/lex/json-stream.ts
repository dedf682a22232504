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

/**
 * What a scan returns: the index just past what it read, or one of these (negative) when it
 * stopped. perf: a number, not a record per token (a scan made one per key, string and number).
 */
const CUT = -1;
/** Not JSON: `failure` says why and where. */
const FAILED = -2;

/** Why the last scan that returned `FAILED` failed (a scan runs to its end before another starts). */
const failure = { error: '', at: 0 };

function fail(error: string, at: number): number {
  failure.error = error;
  failure.at = at;
  return FAILED;
}

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
function scanString(text: string, at: number): number {
  const length = text.length;
  let i = at + 1;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code === Code.Quote) return i + 1;
    if (code < 0x20) return fail('control character inside a string', i);
    if (code !== Code.Backslash) {
      i++;
      continue;
    }
    if (i + 1 >= length) return CUT;
    const escape = text.charCodeAt(i + 1);
    if (escape !== Code.LowerU) {
      if (!isSimpleEscape(escape)) return fail('invalid escape in a string', i);
      i += 2;
      continue;
    }
    // Four digits cut off by the end of the text are a truncation, not an error.
    if (i + 6 > length) return CUT;
    const unit = hex4(text, i + 2);
    if (unit < 0) return fail('invalid \\u escape in a string', i);
    i += 6;
    if (unit >= 0xdc00 && unit <= 0xdfff) return fail('lone low surrogate in a \\u escape', i - 6);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      // A high surrogate must be followed by an escaped low one.
      if (i >= length || (i + 1 >= length && text.charCodeAt(i) === Code.Backslash)) return CUT;
      if (text.charCodeAt(i) !== Code.Backslash || text.charCodeAt(i + 1) !== Code.LowerU) {
        return fail('lone high surrogate in a \\u escape', i - 6);
      }
      if (i + 6 > length) return CUT;
      const low = hex4(text, i + 2);
      if (low < 0xdc00 || low > 0xdfff) return fail('lone high surrogate in a \\u escape', i - 6);
      i += 6;
    }
  }
  return CUT;
}

/** The most integer digits a JSON number without an exponent may have and still be finite. */
const FINITE_DIGITS_MAX = 308;

/**
 * The integer literals beyond 2^53 in the value last scanned, as `[start, end)` pairs:
 * `JSON.parse` would round them (a 19-digit id comes back with its last digits changed), so
 * `readJsonValueAt` keeps each as a string of its digits.
 */
const UNSAFE_INTEGERS: number[] = [];

/** Whether the `n` digits at `from` (no leading zero) are beyond `Number.MAX_SAFE_INTEGER`. */
export function unsafeIntegerDigits(text: string, from: number, n: number): boolean {
  if (n !== MAX_SAFE.length) return n > MAX_SAFE.length;
  // Same length, no leading zero: the order of the digit strings is the order of the numbers.
  return text.slice(from, from + n) > MAX_SAFE;
}
const MAX_SAFE = String(Number.MAX_SAFE_INTEGER);

/**
 *     -12.5e+3
 *     ^ at     -> end just past the last digit
 */
function scanNumber(text: string, at: number): number {
  const length = text.length;
  let i = at;
  if (text.charCodeAt(i) === Code.Dash) i++;
  if (i >= length) return CUT;
  const digits = i;
  const lead = text.charCodeAt(i);
  if (lead === Code.Digit0) {
    i++;
    if (isAsciiDigit(text.charCodeAt(i))) return fail('a number has a leading zero', i);
  } else if (isAsciiDigit(lead)) {
    while (isAsciiDigit(text.charCodeAt(i))) i++;
  } else {
    return fail('expected a digit', i);
  }
  const integerDigits = i - digits;
  const tail = numberTailEnd(text, i);
  if (tail.kind === 'eof') return CUT;
  if (tail.kind === 'missing') return fail(tail.part === 'fraction' ? 'expected a digit after the decimal point' : 'expected a digit in the exponent', tail.at);
  const exponent = hasExponent(text, i, tail.end);
  if (tail.end === i && integerDigits >= MAX_SAFE.length && unsafeIntegerDigits(text, digits, integerDigits)) UNSAFE_INTEGERS.push(at, i);
  i = tail.end;
  // perf: only an exponent or a very long integer part can reach infinity (no string made per number).
  if ((exponent || integerDigits > FINITE_DIGITS_MAX) && !Number.isFinite(Number(text.slice(at, i)))) return fail('number out of range', at);
  return i;
}

/** Whether the fraction and exponent in [from, to) hold an exponent. */
function hasExponent(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code === Code.LowerE || code === Code.UpperE) return true;
  }
  return false;
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

function scanLiteral(text: string, at: number, word: string): number {
  for (let k = 0; k < word.length; k++) {
    if (at + k >= text.length) return CUT;
    if (text.charCodeAt(at + k) !== word.charCodeAt(k)) return fail(`expected \`${word}\``, at + k);
  }
  return at + word.length;
}

/**
 * The open containers of the scan in progress, one entry per level: 1 for an object, 0 for an
 * array (made once: a scan never runs inside another).
 */
const OPEN = new Uint8Array(JSON_NESTING_LIMIT);

/** Where the value whose first character is at `at` ends (`at` is past any whitespace). */
function scanValue(text: string, at: number): number {
  UNSAFE_INTEGERS.length = 0;
  const length = text.length;
  let depth = 0;
  let i = at;
  for (;;) {
    // Cursor: where a value must start.
    i = skipJsonSpace(text, i);
    if (i >= length) return CUT;
    let code = text.charCodeAt(i);
    if (code === Code.LeftBrace || code === Code.LeftBracket) {
      if (depth >= JSON_NESTING_LIMIT) return fail('nesting too deep', i);
      const isObject = code === Code.LeftBrace;
      OPEN[depth++] = isObject ? 1 : 0;
      i = skipJsonSpace(text, i + 1);
      if (i >= length) return CUT;
      code = text.charCodeAt(i);
      if (code === (isObject ? Code.RightBrace : Code.RightBracket)) {
        depth--;
        i++;
      } else if (isObject) {
        i = scanKey(text, i);
        if (i < 0) return i;
        continue;
      } else {
        continue;
      }
    } else {
      if (code === Code.Quote) i = scanString(text, i);
      else if (code === Code.Dash || isAsciiDigit(code)) i = scanNumber(text, i);
      else if (code === Code.LowerT) i = scanLiteral(text, i, 'true');
      else if (code === Code.LowerF) i = scanLiteral(text, i, 'false');
      else if (code === Code.LowerN) i = scanLiteral(text, i, 'null');
      else return fail('expected a JSON value', i);
      if (i < 0) return i;
    }
    // Cursor: just past a complete value; close containers until one wants another member.
    for (;;) {
      if (depth === 0) return i;
      const isObject = OPEN[depth - 1] === 1;
      i = skipJsonSpace(text, i);
      if (i >= length) return CUT;
      code = text.charCodeAt(i);
      if (code === (isObject ? Code.RightBrace : Code.RightBracket)) {
        depth--;
        i++;
        continue;
      }
      if (code !== Code.Comma) {
        return fail(isObject ? 'expected `,` or `}` in an object' : 'expected `,` or `]` in an array', i);
      }
      i = skipJsonSpace(text, i + 1);
      if (i >= length) return CUT;
      code = text.charCodeAt(i);
      if (code === (isObject ? Code.RightBrace : Code.RightBracket)) return fail('trailing comma', i);
      if (isObject) {
        i = scanKey(text, i);
        if (i < 0) return i;
      }
      break;
    }
  }
}

/**
 *     "key" : value
 *     ^ at    ^ end (the value is scanned by the caller)
 */
function scanKey(text: string, at: number): number {
  if (text.charCodeAt(at) !== Code.Quote) return fail('expected a quoted object key', at);
  const key = scanString(text, at);
  if (key < 0) return key;
  const colon = skipJsonSpace(text, key);
  if (colon >= text.length) return CUT;
  if (text.charCodeAt(colon) !== Code.Colon) return fail('expected `:` after an object key', colon);
  return colon + 1;
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
    if (extent === CUT) return { values, end, eof: true };
    if (extent === FAILED) return { values, end, eof: false, error: describeAt(text, failure.error, failure.at) };
    const first = text.charCodeAt(start);
    const delimited = first === Code.LeftBrace || first === Code.LeftBracket || first === Code.Quote;
    if (!delimited && !endsValue(text.charCodeAt(extent))) {
      return { values, end, eof: false, error: describeAt(text, 'unexpected character after a value', extent) };
    }
    let value: unknown;
    try {
      value = JSON.parse(text.slice(start, extent));
    } catch {
      // Unreachable when the validator agrees with JSON.parse; kept so model text never throws.
      return { values, end, eof: false, error: describeAt(text, 'invalid JSON value', start) };
    }
    values.push({ value, start, end: extent });
    end = extent;
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
  if (extent === CUT) return { ok: false, eof: true, error: 'the text ended inside a value', at: from };
  if (extent === FAILED) return { ok: false, eof: false, error: failure.error, at: failure.at };
  try {
    const json = UNSAFE_INTEGERS.length === 0 ? text.slice(from, extent) : withIntegersQuoted(text, from, extent);
    return { ok: true, value: JSON.parse(json), start: from, end: extent };
  } catch {
    return { ok: false, eof: false, error: 'invalid JSON value', at: from };
  }
}

/** text[from, to) with each of `UNSAFE_INTEGERS` written as a JSON string of its digits. */
function withIntegersQuoted(text: string, from: number, to: number): string {
  let out = '';
  let copied = from;
  for (let k = 0; k < UNSAFE_INTEGERS.length; k += 2) {
    const start = UNSAFE_INTEGERS[k]!;
    const end = UNSAFE_INTEGERS[k + 1]!;
    out += `${text.slice(copied, start)}"${text.slice(start, end)}"`;
    copied = end;
  }
  return out + text.slice(copied, to);
}
