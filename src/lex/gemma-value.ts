/**
 * The Gemma value grammar (Gemma 4 and FunctionGemma tool calls), read in place:
 *
 *     {city:<|"|>Paris, "the" city<|"|>,days:3,units:"m\u00b3",tags:[<|"|>a<|"|>,true,null],opt:{deep:-1.5}}
 *      ^ unquoted key ^ delimited string, taken verbatim  ^ JSON-quoted string, unescaped
 *
 * Keys are unquoted (any run of characters up to `:` that holds no space, bracket, comma or
 * quote) or JSON-quoted; values are strings between the grammar's delimiter (`<|"|>` for Gemma 4,
 * `<escape>` for FunctionGemma) taken exactly as written, JSON strings, nested objects and
 * arrays, and bare values. A bare value runs to the next `,`, `}`, `]`, line end or `<`, and is
 * read as the field's parsers read it: `true`/`false` (also `True`/`False`), null in any of the
 * spellings models write (`null`, `None`, `nil`, `NULL`), a number (`3`, `-1.5e2`, `108.`),
 * and otherwise the text itself, trimmed (`{city:San Francisco}`: models drop the delimiters).
 * The comma between two entries may be missing (`{a:<escape>x<escape>b:<escape>y<escape>}`).
 *
 * One forward pass over an explicit stack (nesting capped), no throw, `eof` when the text ended
 * inside the value. Keys such as `__proto__` become ordinary own properties.
 */
import { Code, isJsonSpace } from './codes.js';
import { setOwn } from './json-object.js';
import { JSON_NESTING_LIMIT, readJsonValueAt, unsafeIntegerDigits } from './json-stream.js';

export type GemmaRead =
  | { readonly ok: true; readonly value: Record<string, unknown>; readonly end: number }
  | { readonly ok: false; readonly eof: boolean; readonly error: string; readonly at: number };

interface Frame {
  readonly object: Record<string, unknown> | null;
  readonly items: unknown[];
  key: string;
  /** 0: a key/item or the close; 1: a comma or the close; 2: after a key, `:`; 3: a value. */
  phase: 0 | 1 | 2 | 3;
}

const WORDS: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  ['true', true],
  ['false', false],
  ['True', true],
  ['False', false],
]);

/** Null as models spell it in a bare value (compared lower-cased). */
const NULL_WORDS: ReadonlySet<string> = new Set(['null', 'none', 'nil']);

/** A number as a bare value writes it: JSON's, and also `108.`, `.5`, `+1`. */
const BARE_NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/** A character that cannot stand in an unquoted key or a bare word. */
function isStop(code: number): boolean {
  return (
    isJsonSpace(code) ||
    code === Code.Colon ||
    code === Code.Comma ||
    code === Code.LeftBrace ||
    code === Code.RightBrace ||
    code === Code.LeftBracket ||
    code === Code.RightBracket ||
    code === Code.Quote ||
    code === Code.LessThan
  );
}

type Failure = Extract<GemmaRead, { ok: false }>;
type Piece = { readonly ok: true; readonly value: unknown; readonly end: number } | Failure;

function eofAt(at: number): Failure {
  return { ok: false, eof: true, error: 'the text ended inside the arguments', at };
}

function errorAt(at: number, error: string): Failure {
  return { ok: false, eof: false, error, at };
}

/** The object `{…}` at `at` (which must hold `{`), strings delimited by `delimiter`. */
export function readGemmaObjectAt(text: string, at: number, delimiter: string): GemmaRead {
  if (at >= text.length) return eofAt(at);
  if (text.charCodeAt(at) !== Code.LeftBrace) return errorAt(at, "expected '{'");
  const stack: Frame[] = [{ object: {}, items: [], key: '', phase: 0 }];
  let pos = at + 1;
  for (;;) {
    while (pos < text.length && isJsonSpace(text.charCodeAt(pos))) pos++;
    if (pos >= text.length) return eofAt(pos);
    const top = stack[stack.length - 1]!;
    const code = text.charCodeAt(pos);
    const closer = top.object === null ? Code.RightBracket : Code.RightBrace;
    let value: unknown;
    if ((top.phase === 0 || top.phase === 1) && code === closer) {
      stack.pop();
      value = top.object ?? top.items;
      pos++;
      if (stack.length === 0) return { ok: true, value: value as Record<string, unknown>, end: pos };
    } else if (top.phase === 1) {
      // A missing comma: what follows is the next entry (its key must still read), unless it
      // closes another kind of container.
      if (code === Code.RightBrace || code === Code.RightBracket) return errorAt(pos, `expected ',' or '${String.fromCharCode(closer)}'`);
      top.phase = 0;
      if (code === Code.Comma) pos++;
      continue;
    } else if (top.phase === 2) {
      if (code !== Code.Colon) return errorAt(pos, "expected ':' after a key");
      top.phase = 3;
      pos++;
      continue;
    } else if (top.object !== null && top.phase === 0) {
      const key = readKey(text, pos, delimiter);
      if (!key.ok) return key;
      top.key = key.key;
      top.phase = 2;
      pos = key.end;
      continue;
    } else if (code === Code.LeftBrace || code === Code.LeftBracket) {
      if (stack.length >= JSON_NESTING_LIMIT) return errorAt(pos, `containers nested deeper than ${JSON_NESTING_LIMIT}`);
      stack.push({ object: code === Code.LeftBrace ? {} : null, items: [], key: '', phase: 0 });
      pos++;
      continue;
    } else {
      const scalar = readScalar(text, pos, delimiter);
      if (!scalar.ok) return scalar;
      value = scalar.value;
      pos = scalar.end;
    }
    const parent = stack[stack.length - 1]!;
    if (parent.object !== null) setOwn(parent.object, parent.key, value);
    else parent.items.push(value);
    parent.phase = 1;
  }
}


function readDelimited(text: string, at: number, delimiter: string): Piece {
  const close = text.indexOf(delimiter, at + delimiter.length);
  if (close < 0) return eofAt(text.length);
  return { ok: true, value: text.slice(at + delimiter.length, close), end: close + delimiter.length };
}

/** A JSON string at `at`: its end is found by hopping escapes, then the JSON rules decode it. */
function readJsonString(text: string, at: number): Piece {
  const read = readJsonValueAt(text, at);
  if (read.ok) return { ok: true, value: read.value, end: read.end };
  return read.eof ? eofAt(text.length) : errorAt(at, 'a malformed quoted string');
}

function readKey(text: string, at: number, delimiter: string): { ok: true; key: string; end: number } | Failure {
  if (text.startsWith(delimiter, at)) {
    const read = readDelimited(text, at, delimiter);
    return read.ok ? { ok: true, key: read.value as string, end: read.end } : read;
  }
  if (text.charCodeAt(at) === Code.Quote) {
    const read = readJsonString(text, at);
    return read.ok ? { ok: true, key: read.value as string, end: read.end } : read;
  }
  let end = at;
  for (;;) {
    while (end < text.length && !isStop(text.charCodeAt(end))) end++;
    // A bare key may hold blanks between its words (`Basic LLM Chain:`, n8n node names; Ollama's
    // Gemma 4 parser reads them): a blank run followed by more of the key is part of it.
    let next = end;
    while (next < text.length && (text.charCodeAt(next) === Code.Space || text.charCodeAt(next) === Code.Tab)) next++;
    if (next === end || next >= text.length || isStop(text.charCodeAt(next))) break;
    end = next;
  }
  if (end >= text.length) return eofAt(end);
  if (end === at) return errorAt(at, 'expected a key');
  return { ok: true, key: text.slice(at, end), end };
}

function readScalar(text: string, at: number, delimiter: string): Piece {
  if (text.startsWith(delimiter, at)) return readDelimited(text, at, delimiter);
  // The text may end inside the delimiter itself.
  if (text.length - at < delimiter.length && delimiter.startsWith(text.slice(at))) return eofAt(text.length);
  if (text.charCodeAt(at) === Code.Quote) return readJsonString(text, at);
  let end = at;
  while (end < text.length && !endsBareValue(text.charCodeAt(end))) end++;
  if (end >= text.length) return eofAt(end);
  // A marker where a value should be is no value (and an empty one would not move on).
  if (end === at && text.charCodeAt(at) === Code.LessThan) return errorAt(at, 'expected a value');
  return { ok: true, value: bareValue(text.slice(at, end).trim()), end };
}

/** Where a bare value stops: the next entry, the container's close, a line end or a marker. */
function endsBareValue(code: number): boolean {
  return code === Code.Comma || code === Code.RightBrace || code === Code.RightBracket || code === Code.LineFeed || code === Code.LessThan;
}

/** An integer literal (sign, digits) whose value is beyond 2^53. */
function isUnsafeInteger(word: string): boolean {
  const from = word.charCodeAt(0) === Code.Dash || word.charCodeAt(0) === Code.Plus ? 1 : 0;
  for (let i = from; i < word.length; i++) if (word.charCodeAt(i) < Code.Digit0 || word.charCodeAt(i) > 0x39) return false;
  return unsafeIntegerDigits(word, from, word.length - from);
}

function bareValue(word: string): unknown {
  if (WORDS.has(word)) return WORDS.get(word);
  if (NULL_WORDS.has(word.toLowerCase())) return null;
  if (BARE_NUMBER.test(word)) {
    const number = Number(word);
    // An integer beyond 2^53 keeps its digits, as the JSON readers keep them (json-stream.ts).
    if (Number.isFinite(number) && !isUnsafeInteger(word)) return number;
  }
  return word;
}
