/**
 * Python literals at an offset, read in place: the values of pythonic tool calls
 * (`[get_weather(city='Paris', days=3)]`, Llama 4, LFM2, Olmo 3, Llama 3 built-ins).
 *
 *     {'a': [1, 2.5, (True, None)], "b": 'it\'s'}
 *     ^ dict ^ list  ^ tuple         ^ either quote, escapes decoded
 *
 * What is read: strings in either quote (triple quotes, `r`/`u` prefixes, implicit
 * concatenation `'a' 'b'`, Python's escapes), ints (underscores, `0x`/`0o`/`0b`), floats,
 * `True`/`False`/`None` and their JSON spellings (LFM2 writes `true`/`false`/`null`), lists,
 * tuples and sets (as arrays), dicts (keys as `json.dumps` writes them: `1` -> `"1"`, `None` ->
 * `"null"`), and keyword-argument lists (keywords may be Unicode identifiers). Anything else
 * (a name, an operator, a call, a `b'…'` bytes literal, which has no JSON value) is not a
 * literal: an error, never a guess.
 *
 * Leniency (`PyLeniency`, for calls between a grammar's own markers): agents' calls are often
 * not quite Python, and the field's parsers recover two slips when the reading is certain.
 * A raw line break inside a quoted string is part of it (`command='cat <<EOF\n…'`). A quote
 * of the string's own style that cannot end it (what follows is none of `,` `)` `]` `}` `:`,
 * a next string, or the end) is literal when exactly one later quote can end it:
 *
 *     bash(command='sed -n '360,450p' f.py')      ->  sed -n '360,450p' f.py
 *                        ^ cannot end it   ^ the one quote that can, followed by `)` and the end
 *
 * A quote "can end it" when what follows fits the frames open at the string: a comma or colon
 * they take, or closes that match them (past the call's own `)`, nothing that continues it). The
 * first such quote is taken; when the closing quote of a later string of that style in the same
 * call could have ended it too, the call has two readings and is an error, never a guess.
 * Readings that run past the call's own close are not considered, so a call never swallows the
 * call after it. Up to `PY_CLOSE_CANDIDATES` later quotes are tried, looked for before the
 * grammar's close.
 *
 * One forward pass over an explicit stack (nesting capped at `PY_NESTING_LIMIT`), so deep
 * input cannot overflow the call stack and the work is the length of what is read. The result
 * tells "the text ended inside the value" (`eof`, truncation) from "not a literal". Keys such
 * as `__proto__` become ordinary own properties. Never throws.
 */
import { Code, hexDigitValue, isAsciiDigit, skipJsonSpace } from './codes.js';
import { identLength, isIdentPart } from './ident.js';
import { setOwn } from './json-object.js';
import { unsafeIntegerDigits } from './json-stream.js';

/** Containers nested deeper than this are an error (the JSON reader's limit). */
export const PY_NESTING_LIMIT = 128;

/** How many later quotes a string with an unescaped quote inside it may try as its end. */
export const PY_CLOSE_CANDIDATES = 16;

/** How many such strings one call may hold (each later string of their style is checked against them). */
const REPAIRED_PER_CALL = 8;

export type PyRead =
  | { readonly ok: true; readonly value: unknown; readonly end: number }
  | { readonly ok: false; readonly eof: boolean; readonly error: string; readonly at: number };

/**
 * The leniency of a read between a grammar's own markers (see the file's comment): the quotes
 * ahead of the reader, shared by every read over one text, and how far a string's end may be
 * looked for from an offset (the grammar's next close, or the end of the text).
 */
export interface PyLeniency {
  readonly ahead: PyQuotesAhead;
  limit(from: number): number;
}

/** Python's constants, and the JSON spellings LFM2 writes for them. */
const CONSTANTS: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  ['True', true],
  ['False', false],
  ['None', null],
  ['true', true],
  ['false', false],
  ['null', null],
]);

type Kind = 'list' | 'tuple' | 'dict' | 'set' | 'kwargs';

/** What a frame expects next. */
const enum Phase {
  /** An item, or the frame's close (after the opener or a comma). */
  Item,
  /** A comma or the frame's close. */
  Separator,
  /** Dict: the `:` after a key (or, in a dict with no entry yet, `,` or `}`: a set). */
  Colon,
  /** Keyword arguments: the `=` after a name. */
  Equals,
  /** The value after `:` or `=` (no close allowed). */
  Value,
}

interface Frame {
  kind: Kind;
  readonly items: unknown[];
  readonly record: Record<string, unknown>;
  key: string;
  /** Dict: the key just read, as written (a set's first item if no `:` follows). */
  pending: unknown;
  entries: number;
  phase: Phase;
  commas: number;
}

const CLOSER: Readonly<Record<Kind, number>> = { list: Code.RightBracket, tuple: Code.RightParen, dict: Code.RightBrace, set: Code.RightBrace, kwargs: Code.RightParen };

function frame(kind: Kind): Frame {
  return { kind, items: [], record: {}, key: '', pending: undefined, entries: 0, phase: Phase.Item, commas: 0 };
}

function eofAt(at: number): PyRead {
  return { ok: false, eof: true, error: 'the text ended inside a Python literal', at };
}

function errorAt(at: number, error: string): PyRead {
  return { ok: false, eof: false, error, at };
}

/** One Python literal starting at `start` (after whitespace). */
export function readPyValueAt(text: string, start: number, lenient: PyLeniency | null = null): PyRead {
  return strictFirst(text, start, () => null, lenient);
}

/**
 * A lenient read only where the strict one fails: a repair never changes what reads as written
 * (`r"r"` stays `r`, though a later quote could have ended it). A failed strict read stops at
 * its error, so the two reads cost at most twice one.
 */
function strictFirst(text: string, start: number, top: () => Frame | null, lenient: PyLeniency | null): PyRead {
  const strict = run(text, start, top(), null);
  return strict.ok || lenient === null ? strict : run(text, start, top(), lenient);
}

/**
 * Keyword arguments `name=value, …)` from `start`, just after a call's `(`: an object of the
 * arguments, `end` just past the `)`. Positional arguments and repeated names are errors.
 */
export function readPyKwargsAt(text: string, start: number, lenient: PyLeniency | null = null): PyRead {
  return strictFirst(text, start, () => frame('kwargs'), lenient);
}

/** One read's state: the frames open, and the strings whose end was chosen among several quotes. */
interface Read {
  readonly text: string;
  readonly lenient: PyLeniency | null;
  readonly stack: Frame[];
  readonly repaired: Shape[];
}

function run(text: string, start: number, top: Frame | null, lenient: PyLeniency | null): PyRead {
  const stack: Frame[] = top === null ? [] : [top];
  const read: Read = { text, lenient, stack, repaired: [] };
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
      if (code === Code.Colon) {
        const key = dictKey(current.pending);
        if (key === null) return errorAt(pos, 'a dict key must be a string, a number, a boolean or None');
        current.key = key;
        current.phase = Phase.Value;
        pos++;
        continue;
      }
      // `{'a', 'b'}` is a set: its first item was read as a key.
      if (current.entries > 0 || (code !== Code.Comma && code !== Code.RightBrace)) return errorAt(pos, "expected ':' after a dict key");
      current.kind = 'set';
      current.items.push(current.pending);
      current.phase = Phase.Separator;
      continue;
    } else if (current !== null && current.phase === Phase.Equals) {
      if (code !== Code.Equals) return errorAt(pos, "expected '=' after a keyword argument's name (arguments are keyword arguments)");
      current.phase = Phase.Value;
      pos++;
      continue;
    } else if (current !== null && current.kind === 'kwargs' && current.phase === Phase.Item) {
      const length = keywordLength(text, pos);
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
      const scalar = readScalar(read, pos);
      if (!scalar.ok) return scalar;
      value = scalar.value;
      pos = scalar.end;
    }
    // A value is complete: give it to the frame that waits for it.
    const parent = stack.length === 0 ? null : stack[stack.length - 1]!;
    if (parent === null) return { ok: true, value, end: pos };
    if (parent.kind === 'dict' && parent.phase === Phase.Item) {
      parent.pending = value;
      parent.phase = Phase.Colon;
    } else if (parent.phase === Phase.Value) {
      setOwn(parent.record, parent.key, value);
      if (parent.kind === 'dict') parent.entries++;
      parent.phase = Phase.Separator;
    } else {
      parent.items.push(value);
      parent.phase = Phase.Separator;
    }
  }
}

/** A dict key as `json.dumps` writes it, or null for a key JSON cannot hold. */
function dictKey(key: unknown): string | null {
  if (typeof key === 'string') return key;
  if (typeof key === 'number' || typeof key === 'boolean') return String(key);
  return key === null ? 'null' : null;
}

function openerKind(code: number): Kind | null {
  if (code === Code.LeftBracket) return 'list';
  if (code === Code.LeftParen) return 'tuple';
  if (code === Code.LeftBrace) return 'dict';
  return null;
}

function finish(done: Frame): unknown {
  if (done.kind === 'dict' || done.kind === 'kwargs') return done.record;
  if (done.kind === 'set') return distinct(done.items);
  // `(x)` is x itself; `(x,)` and `()` are tuples.
  if (done.kind === 'tuple' && done.items.length === 1 && done.commas === 0) return done.items[0];
  return done.items;
}

/** A set's items in the order written, each scalar once (as the set holds it once). */
function distinct(items: readonly unknown[]): unknown[] {
  const seen = new Set<unknown>();
  const out: unknown[] = [];
  for (const item of items) {
    const scalar = item === null || typeof item !== 'object';
    if (scalar && seen.has(item)) continue;
    if (scalar) seen.add(item);
    out.push(item);
  }
  return out;
}

// A keyword may be any Python identifier (`città=`); the ASCII ones, nearly all, skip the RegExp.
const UNICODE_IDENT = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/uy;

function keywordLength(text: string, at: number): number {
  const ascii = identLength(text, at);
  if (ascii > 0 && text.charCodeAt(at + ascii) < 0x80) return ascii;
  UNICODE_IDENT.lastIndex = at;
  return UNICODE_IDENT.test(text) ? UNICODE_IDENT.lastIndex - at : ascii;
}

function readScalar(read: Read, at: number): PyRead {
  const text = read.text;
  const code = text.charCodeAt(at);
  if (stringStart(text, at) >= 0) return readStrings(read, at);
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
function readStrings(read: Read, at: number): PyRead {
  const text = read.text;
  let value = '';
  let pos = at;
  for (;;) {
    const quote = stringStart(text, pos);
    const prefix = quote > pos ? text.charCodeAt(pos) | 0x20 : 0;
    // Bytes have no JSON value (json.dumps refuses them): not a string under another name.
    if (prefix === Code.LowerB) return errorAt(pos, 'a bytes literal has no JSON value');
    const one = readString(read, quote, prefix === Code.LowerR);
    if (!one.ok) return one;
    value += one.value as string;
    const next = skipJsonSpace(text, one.end);
    if (next >= text.length || stringStart(text, next) < 0) return { ok: true, value, end: one.end };
    pos = next;
  }
}

function readString(read: Read, at: number, raw: boolean): PyRead {
  const text = read.text;
  const lenient = read.lenient;
  const quote = text.charCodeAt(at);
  const triple = text.charCodeAt(at + 1) === quote && text.charCodeAt(at + 2) === quote;
  let i = at + (triple ? 3 : 1);
  let value = '';
  let chunk = i;
  // Where a string whose own quote stands inside it ends (a later quote, chosen once), and
  // its shape when the call goes on after it (later strings are checked against it).
  let closeAt = -1;
  let repaired: Shape | null = null;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === quote) {
      if (triple) {
        if (text.charCodeAt(i + 1) === quote && text.charCodeAt(i + 2) === quote) return { ok: true, value: value + text.slice(chunk, i), end: i + 3 };
        i++;
        continue;
      }
      if (closeAt < 0 && lenient !== null && !endsString(text, i)) {
        const chosen = chooseEnd(read, i, quote);
        if (chosen !== null) {
          closeAt = chosen.at;
          if (chosen.reading === 'open') repaired = shapeAt(read, quote);
        }
      }
      if (closeAt <= i) {
        const ended = endOfString(read, quote, i, repaired);
        return ended ?? { ok: true, value: value + text.slice(chunk, i), end: i + 1 };
      }
      i++;
    } else if (code === Code.LineFeed && !triple && lenient === null) {
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

/** True when the quote at `at` ends its string as Python reads it: a comma, a close, a colon, a next string or the end follows. */
function endsString(text: string, at: number): boolean {
  const next = skipJsonSpace(text, at + 1);
  return next >= text.length || isValueFollower(text.charCodeAt(next)) || stringStart(text, next) >= 0;
}

/** What may follow a complete value inside a literal. */
function isValueFollower(code: number): boolean {
  return code === Code.Comma || code === Code.RightParen || code === Code.RightBracket || code === Code.RightBrace || code === Code.Colon;
}

/** The frames open at a string, innermost last, and what the innermost expects the string to be. */
interface Shape {
  readonly quote: number;
  readonly kinds: readonly Kind[];
  readonly role: 'value' | 'key' | 'key-or-set';
}

function shapeAt(read: Read, quote: number): Shape {
  const top = read.stack.at(-1);
  const role = top !== undefined && top.kind === 'dict' && top.phase === Phase.Item ? (top.entries === 0 ? 'key-or-set' : 'key') : 'value';
  return { quote, kinds: read.stack.map((f) => f.kind), role };
}

type Reading = 'invalid' | 'open' | 'closes';

/**
 * How the text reads when the string of `shape` ends at the quote at `at`: `invalid` when what
 * follows does not fit the frames open at the string, `closes` when it closes them all (and
 * nothing that continues them follows), `open` when the frames go on (a comma, a colon, or the
 * limit first).
 */
function readingAfter(text: string, at: number, shape: Shape, limit: number): Reading {
  let pos = at + 1;
  let depth = shape.kinds.length;
  let role = shape.role;
  for (;;) {
    pos = skipJsonSpace(text, pos);
    if (depth === 0) return afterOutermost(text, pos, limit);
    if (pos >= limit || pos >= text.length) return 'open';
    const code = text.charCodeAt(pos);
    if (role !== 'value') {
      if (code === Code.Colon) return 'open';
      if (role === 'key' || (code !== Code.Comma && code !== Code.RightBrace)) return 'invalid';
      if (code === Code.Comma) return 'open';
    } else {
      if (code === Code.Comma) return 'open';
      if (code !== CLOSER[shape.kinds[depth - 1]!]) return 'invalid';
    }
    depth--;
    pos++;
    role = 'value';
  }
}

/** After the outermost frame closed (a call's `)`): the limit, or anything that does not continue a literal. */
function afterOutermost(text: string, pos: number, limit: number): Reading {
  if (pos >= limit || pos >= text.length) return 'closes';
  const code = text.charCodeAt(pos);
  const continues =
    code === Code.RightParen || code === Code.RightBrace || code === Code.Colon || code === Code.Equals || code === Code.LeftParen || code === Code.Quote || code === Code.Apostrophe;
  return continues ? 'invalid' : 'closes';
}

/** The first later quote that can end the string whose own quote stands at `at`, or null. */
function chooseEnd(read: Read, at: number, quote: number): { readonly at: number; readonly reading: Reading } | null {
  const lenient = read.lenient!;
  const shape = shapeAt(read, quote);
  const limit = lenient.limit(at + 1);
  for (const candidate of lenient.ahead.closers(quote, at + 1, limit)) {
    const reading = readingAfter(read.text, candidate, shape, limit);
    if (reading !== 'invalid') return { at: candidate, reading };
  }
  return null;
}

/**
 * A string of `quote` ends at `at`: an error when the quote could also end an earlier string
 * whose end was chosen (two readings), else null; a string chosen so, with the call going on,
 * is kept to check the later ones against.
 */
function endOfString(read: Read, quote: number, at: number, own: Shape | null): PyRead | null {
  const lenient = read.lenient;
  if (lenient === null) return null;
  for (const shape of read.repaired) {
    if (shape.quote === quote && readingAfter(read.text, at, shape, lenient.limit(at)) !== 'invalid') {
      return errorAt(at, 'a quote inside a string can be read as its end in more than one way (escape the quotes inside strings)');
    }
  }
  if (own !== null) {
    if (read.repaired.length >= REPAIRED_PER_CALL) return errorAt(at, 'too many strings with unescaped quotes inside them');
    read.repaired.push(own);
  }
  return null;
}

/**
 * The quotes of a text that can end a string (a comma, a close or a colon follows, past
 * whitespace), looked ahead of a forward reader. Each character is looked at once per text
 * while the reader's offsets grow (they do: it reads forward), and at most
 * `PY_CLOSE_CANDIDATES` positions per quote style are held at a time.
 */
export class PyQuotesAhead {
  readonly #text: string;
  readonly #cursors: QuoteCursor[] = [];

  constructor(text: string) {
    this.#text = text;
  }

  /** The first (at most `PY_CLOSE_CANDIDATES`) such quotes of `quote` in [from, limit). */
  closers(quote: number, from: number, limit: number): readonly number[] {
    let cursor = this.#cursors.find((c) => c.quote === quote);
    if (cursor === undefined) {
      cursor = { quote, from: 0, scanned: 0, found: [] };
      this.#cursors.push(cursor);
    }
    if (from < cursor.from) {
      cursor.found.length = 0;
      cursor.scanned = from;
    }
    cursor.from = from;
    while (cursor.found.length > 0 && cursor.found[0]! < from) cursor.found.shift();
    if (cursor.scanned < from) cursor.scanned = from;
    const text = this.#text;
    const stop = Math.min(limit, text.length);
    while (cursor.found.length < PY_CLOSE_CANDIDATES && cursor.scanned < stop) {
      const i = cursor.scanned;
      const code = text.charCodeAt(i);
      cursor.scanned = code === Code.Backslash ? i + 2 : i + 1;
      if (code === quote) {
        const next = skipJsonSpace(text, i + 1);
        if (next < text.length && isValueFollower(text.charCodeAt(next))) cursor.found.push(i);
      }
    }
    return cursor.found.filter((at) => at < limit);
  }
}

interface QuoteCursor {
  readonly quote: number;
  from: number;
  scanned: number;
  readonly found: number[];
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
  let value: number | string;
  const radix = text.charCodeAt(i) === Code.Digit0 ? RADIX.get(text.charCodeAt(i + 1) | 0x20) : undefined;
  if (radix !== undefined) {
    const end = digitsEnd(text, i + 2, radix.isDigit);
    if (end === i + 2) return end >= text.length ? eofAt(at) : errorAt(at, 'a number with no digits');
    value = sign * parseInt(text.slice(i + 2, end).replaceAll('_', ''), radix.radix);
    i = end;
  } else {
    i = digitsEnd(text, i, isAsciiDigit);
    let digits = i - digitsFrom;
    const integerEnd = i;
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
    const literal = text.slice(digitsFrom, i).replaceAll('_', '');
    // An integer beyond 2^53 keeps its digits, as the JSON readers keep them (json-stream.ts):
    // rounded, a snowflake id names another record.
    value = i === integerEnd && unsafeIntegerDigits(literal, 0, literal.length) ? (sign < 0 ? `-${literal}` : literal) : sign * Number(literal);
  }
  // The text may have been cut inside the number; and `1abc` or `1.2.3` is not a number.
  if (i >= text.length) return eofAt(at);
  const next = text.charCodeAt(i);
  if (isIdentPart(next) || next === Code.Dot) return errorAt(i, 'a malformed number');
  if (typeof value === 'number' && !Number.isFinite(value)) return errorAt(at, 'a number out of range');
  return { ok: true, value, end: i };
}
