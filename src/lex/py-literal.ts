/**
 * Python literals at an offset, read in place: the values of pythonic tool calls
 * (`[get_weather(city='Paris', days=3)]`, Llama 4, LFM2, Olmo 3, Llama 3 built-ins).
 *
 *     {'a': [1, 2.5, (True, None)], "b": 'it\'s'}
 *     ^ dict ^ list  ^ tuple         ^ either quote, escapes decoded
 *
 * What is read: strings in either quote (triple quotes, `r`/`u`/`b` prefixes, implicit
 * concatenation `'a' 'b'`, Python's escapes), ints (underscores, `0x`/`0o`/`0b`), floats,
 * `True`/`False`/`None` and their JSON spellings (LFM2 writes `true`/`false`/`null`), lists,
 * tuples (as arrays), dicts with string or number keys, and keyword-argument lists. Anything
 * else (a name, an operator, a call) is not a literal: an error, never a guess.
 *
 * One forward pass over an explicit stack (nesting capped at `PY_NESTING_LIMIT`), so deep
 * input cannot overflow the call stack and the work is the length of what is read. The result
 * tells "the text ended inside the value" (`eof`, truncation) from "not a literal". Keys such
 * as `__proto__` become ordinary own properties. Never throws.
 */
import { Code, hexDigitValue, isAsciiDigit, skipJsonSpace } from './codes.js';
import { identLength, isIdentPart } from './ident.js';
import { setOwn } from './json-object.js';

/** Containers nested deeper than this are an error (the JSON reader's limit). */
export const PY_NESTING_LIMIT = 128;

export type PyRead =
  | { readonly ok: true; readonly value: unknown; readonly end: number }
  | { readonly ok: false; readonly eof: boolean; readonly error: string; readonly at: number };

/** Python's constants, and the JSON spellings LFM2 writes for them. */
const CONSTANTS: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  ['True', true],
  ['False', false],
  ['None', null],
  ['true', true],
  ['false', false],
  ['null', null],
]);

type Kind = 'list' | 'tuple' | 'dict' | 'kwargs';

/** What a frame expects next. */
const enum Phase {
  /** An item, or the frame's close (after the opener or a comma). */
  Item,
  /** A comma or the frame's close. */
  Separator,
  /** Dict: the `:` after a key. */
  Colon,
  /** Keyword arguments: the `=` after a name. */
  Equals,
  /** The value after `:` or `=` (no close allowed). */
  Value,
}

interface Frame {
  readonly kind: Kind;
  readonly items: unknown[];
  readonly record: Record<string, unknown>;
  key: string;
  phase: Phase;
  commas: number;
}

const CLOSER: Readonly<Record<Kind, number>> = { list: Code.RightBracket, tuple: Code.RightParen, dict: Code.RightBrace, kwargs: Code.RightParen };

function frame(kind: Kind): Frame {
  return { kind, items: [], record: {}, key: '', phase: Phase.Item, commas: 0 };
}

function eofAt(at: number): PyRead {
  return { ok: false, eof: true, error: 'the text ended inside a Python literal', at };
}

function errorAt(at: number, error: string): PyRead {
  return { ok: false, eof: false, error, at };
}

/** One Python literal starting at `start` (after whitespace). */
export function readPyValueAt(text: string, start: number): PyRead {
  return run(text, start, null);
}

/**
 * Keyword arguments `name=value, …)` from `start`, just after a call's `(`: an object of the
 * arguments, `end` just past the `)`. Positional arguments and repeated names are errors.
 */
export function readPyKwargsAt(text: string, start: number): PyRead {
  return run(text, start, frame('kwargs'));
}

function run(text: string, start: number, top: Frame | null): PyRead {
  const stack: Frame[] = top === null ? [] : [top];
  let pos = start;
  for (;;) {
    pos = skipJsonSpace(text, pos);
    if (pos >= text.length) return eofAt(pos);
    const code = text.charCodeAt(pos);
    const current = stack.length === 0 ? null : stack[stack.length - 1]!;
    let value: unknown;
    if (current !== null && (current.phase === Phase.Item || current.phase === Phase.Separator) && code === CLOSER[current.kind]) {
      stack.pop();
      value = finish(current);
      pos++;
    } else if (current !== null && current.phase === Phase.Separator) {
      if (code !== Code.Comma) return errorAt(pos, `expected ',' or '${String.fromCharCode(CLOSER[current.kind])}'`);
      current.phase = Phase.Item;
      current.commas++;
      pos++;
      continue;
    } else if (current !== null && current.phase === Phase.Colon) {
      if (code !== Code.Colon) return errorAt(pos, "expected ':' after a dict key");
      current.phase = Phase.Value;
      pos++;
      continue;
    } else if (current !== null && current.phase === Phase.Equals) {
      if (code !== Code.Equals) return errorAt(pos, "expected '=' after a keyword argument's name (arguments are keyword arguments)");
      current.phase = Phase.Value;
      pos++;
      continue;
    } else if (current !== null && current.kind === 'kwargs' && current.phase === Phase.Item) {
      const length = identLength(text, pos);
      if (length === 0) return errorAt(pos, 'expected a keyword argument');
      if (pos + length >= text.length) return eofAt(pos);
      const key = text.slice(pos, pos + length);
      if (Object.hasOwn(current.record, key)) return errorAt(pos, `the keyword argument '${key}' is repeated`);
      current.key = key;
      current.phase = Phase.Equals;
      pos += length;
      continue;
    } else {
      const opened = openerKind(code);
      if (opened !== null) {
        if (stack.length >= PY_NESTING_LIMIT) return errorAt(pos, `containers nested deeper than ${PY_NESTING_LIMIT}`);
        stack.push(frame(opened));
        pos++;
        continue;
      }
      const scalar = readScalar(text, pos);
      if (!scalar.ok) return scalar;
      value = scalar.value;
      pos = scalar.end;
    }
    // A value is complete: give it to the frame that waits for it.
    const parent = stack.length === 0 ? null : stack[stack.length - 1]!;
    if (parent === null) return { ok: true, value, end: pos };
    if (parent.kind === 'dict' && parent.phase === Phase.Item) {
      if (typeof value === 'string') parent.key = value;
      else if (typeof value === 'number') parent.key = String(value);
      else return errorAt(pos, 'a dict key must be a string or a number');
      parent.phase = Phase.Colon;
    } else if (parent.phase === Phase.Value) {
      setOwn(parent.record, parent.key, value);
      parent.phase = Phase.Separator;
    } else {
      parent.items.push(value);
      parent.phase = Phase.Separator;
    }
  }
}

function openerKind(code: number): Kind | null {
  if (code === Code.LeftBracket) return 'list';
  if (code === Code.LeftParen) return 'tuple';
  if (code === Code.LeftBrace) return 'dict';
  return null;
}

function finish(done: Frame): unknown {
  if (done.kind === 'dict' || done.kind === 'kwargs') return done.record;
  // `(x)` is x itself; `(x,)` and `()` are tuples.
  if (done.kind === 'tuple' && done.items.length === 1 && done.commas === 0) return done.items[0];
  return done.items;
}

function readScalar(text: string, at: number): PyRead {
  const code = text.charCodeAt(at);
  if (stringStart(text, at) >= 0) return readStrings(text, at);
  if (isAsciiDigit(code) || code === Code.Dash || code === Code.Plus || code === Code.Dot) return readNumber(text, at);
  const length = identLength(text, at);
  if (length > 0) {
    if (at + length >= text.length) return eofAt(at);
    const word = text.slice(at, at + length);
    if (CONSTANTS.has(word)) return { ok: true, value: CONSTANTS.get(word), end: at + length };
    return errorAt(at, `'${word}' is a name, not a literal`);
  }
  return errorAt(at, 'expected a Python literal');
}

/** Where the quote of a string literal starting at `at` stands (after an r/u/b prefix), or -1. */
function stringStart(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code === Code.Quote || code === Code.Apostrophe) return at;
  const lower = code | 0x20;
  if (lower === Code.LowerR || lower === Code.LowerU || lower === Code.LowerB) {
    const next = text.charCodeAt(at + 1);
    if (next === Code.Quote || next === Code.Apostrophe) return at + 1;
  }
  return -1;
}

/** A string literal, with the literals that follow it concatenated (`'a' "b"` is `'ab'`). */
function readStrings(text: string, at: number): PyRead {
  let value = '';
  let pos = at;
  for (;;) {
    const quote = stringStart(text, pos);
    const raw = quote > pos && (text.charCodeAt(pos) | 0x20) === Code.LowerR;
    const read = readString(text, quote, raw);
    if (!read.ok) return read;
    value += read.value as string;
    const next = skipJsonSpace(text, read.end);
    if (next >= text.length || stringStart(text, next) < 0) return { ok: true, value, end: read.end };
    pos = next;
  }
}

function readString(text: string, at: number, raw: boolean): PyRead {
  const quote = text.charCodeAt(at);
  const triple = text.charCodeAt(at + 1) === quote && text.charCodeAt(at + 2) === quote;
  let i = at + (triple ? 3 : 1);
  let value = '';
  let chunk = i;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === quote) {
      if (!triple) return { ok: true, value: value + text.slice(chunk, i), end: i + 1 };
      if (text.charCodeAt(i + 1) === quote && text.charCodeAt(i + 2) === quote) return { ok: true, value: value + text.slice(chunk, i), end: i + 3 };
      i++;
    } else if (code === Code.LineFeed && !triple) {
      return errorAt(i, 'a quoted string ran past the end of its line');
    } else if (code === Code.Backslash) {
      if (i + 1 >= text.length) return eofAt(i);
      if (raw) {
        i += 2;
        continue;
      }
      value += text.slice(chunk, i);
      const escape = readEscape(text, i + 1);
      if (!escape.ok) return escape;
      value += escape.value as string;
      i = escape.end;
      chunk = i;
    } else {
      i++;
    }
  }
  return eofAt(i);
}

const SIMPLE_ESCAPES: ReadonlyMap<number, string> = new Map([
  [Code.Backslash, '\\'],
  [Code.Apostrophe, "'"],
  [Code.Quote, '"'],
  [0x61, '\x07'], // \a
  [Code.LowerB, '\b'],
  [Code.LowerF, '\f'],
  [Code.LowerN, '\n'],
  [Code.LowerR, '\r'],
  [Code.LowerT, '\t'],
  [0x76, '\v'], // \v
  [Code.LineFeed, ''], // a backslash-newline continues the line
]);

/** The escape whose letter stands at `at` (just past the backslash). */
function readEscape(text: string, at: number): PyRead {
  const code = text.charCodeAt(at);
  const simple = SIMPLE_ESCAPES.get(code);
  if (simple !== undefined) return { ok: true, value: simple, end: at + 1 };
  if (code >= Code.Digit0 && code <= 0x37) {
    let end = at;
    let unit = 0;
    while (end < at + 3 && end < text.length && text.charCodeAt(end) >= Code.Digit0 && text.charCodeAt(end) <= 0x37) {
      unit = unit * 8 + text.charCodeAt(end) - Code.Digit0;
      end++;
    }
    return { ok: true, value: String.fromCodePoint(unit), end };
  }
  const width = code === Code.LowerX ? 2 : code === Code.LowerU ? 4 : code === 0x55 ? 8 : 0; // \x, \u, \U
  if (width === 0) return { ok: true, value: `\\${text[at] ?? ''}`, end: at + 1 }; // Python keeps unknown escapes
  let point = 0;
  for (let k = 1; k <= width; k++) {
    if (at + k >= text.length) return eofAt(at);
    const digit = hexDigitValue(text.charCodeAt(at + k));
    if (digit < 0) return errorAt(at, 'a malformed hex escape');
    point = point * 16 + digit;
  }
  if (point > 0x10ffff) return errorAt(at, 'an escape beyond U+10FFFF');
  return { ok: true, value: String.fromCodePoint(point), end: at + 1 + width };
}

function digitsEnd(text: string, at: number, isDigit: (code: number) => boolean): number {
  let i = at;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (isDigit(code) || (code === Code.Underscore && i > at && isDigit(text.charCodeAt(i + 1)))) i++;
    else break;
  }
  return i;
}

const RADIX: ReadonlyMap<number, { readonly radix: number; readonly isDigit: (code: number) => boolean }> = new Map([
  [Code.LowerX, { radix: 16, isDigit: (code: number) => hexDigitValue(code) >= 0 }],
  [0x6f, { radix: 8, isDigit: (code: number) => code >= Code.Digit0 && code <= 0x37 }], // 0o
  [Code.LowerB, { radix: 2, isDigit: (code: number) => code === Code.Digit0 || code === 0x31 }],
]);

function readNumber(text: string, at: number): PyRead {
  let i = at;
  const sign = text.charCodeAt(i) === Code.Dash ? -1 : 1;
  if (text.charCodeAt(i) === Code.Dash || text.charCodeAt(i) === Code.Plus) i++;
  const digitsFrom = i;
  let value: number;
  const radix = text.charCodeAt(i) === Code.Digit0 ? RADIX.get(text.charCodeAt(i + 1) | 0x20) : undefined;
  if (radix !== undefined) {
    const end = digitsEnd(text, i + 2, radix.isDigit);
    if (end === i + 2) return end >= text.length ? eofAt(at) : errorAt(at, 'a number with no digits');
    value = sign * parseInt(text.slice(i + 2, end).replaceAll('_', ''), radix.radix);
    i = end;
  } else {
    i = digitsEnd(text, i, isAsciiDigit);
    let digits = i - digitsFrom;
    if (text.charCodeAt(i) === Code.Dot) {
      const fraction = digitsEnd(text, i + 1, isAsciiDigit);
      digits += fraction - i - 1;
      i = fraction;
    }
    if (digits === 0) return i >= text.length ? eofAt(at) : errorAt(at, 'expected a Python literal');
    if ((text.charCodeAt(i) | 0x20) === Code.LowerE) {
      let e = i + 1;
      if (text.charCodeAt(e) === Code.Dash || text.charCodeAt(e) === Code.Plus) e++;
      const exponent = digitsEnd(text, e, isAsciiDigit);
      if (exponent === e) return exponent >= text.length ? eofAt(at) : errorAt(at, 'a number with an empty exponent');
      i = exponent;
    }
    value = sign * Number(text.slice(digitsFrom, i).replaceAll('_', ''));
  }
  // The text may have been cut inside the number; and `1abc` or `1.2.3` is not a number.
  if (i >= text.length) return eofAt(at);
  const next = text.charCodeAt(i);
  if (isIdentPart(next) || next === Code.Dot) return errorAt(i, 'a malformed number');
  if (!Number.isFinite(value)) return errorAt(at, 'a number out of range');
  return { ok: true, value, end: i };
}
