/**
 * The lenient JSON rung: one value at an offset, read only after the strict reader
 * (`readJsonValueAt`) refused it. It makes exactly these repairs, each of which has one reading:
 *
 *   1. a trailing comma before `}` or `]` is ignored          {"a": 1,}        -> {"a": 1}
 *   2. strings may be single-quoted, as Python writes them     {'a': 'it\'s'}   -> {"a": "it's"}
 *      (inside either quote `\'` is an escape for `'`; the other escapes are JSON's)
 *   3. Python's literals `True`, `False`, `None` stand for `true`, `false`, `null`
 *   4. in a list, an object right after an object item needs no comma  [{"a": 1} {"b": 2}]
 *      (nothing else can stand between two objects: a list of calls written one per line)
 *   5. a backslash before a character that neither JSON nor Python escapes stands for itself,
 *      as a Windows path or a regular expression written unescaped shows it  "C:\Users"  "\d+"
 *      (Python's own escapes, `\a`, `\v`, octal digits, `\xHH`, `\UHHHHHHHH`, `\N{…}`, have
 *      another reading, so they stay errors)
 *   6. an object's key may be an identifier without quotes, as JavaScript writes it
 *      (`{name: 'f', arguments: {city: 'Seoul'}}`: small models and relaxed-JSON prompts do)
 *   7. inside a container, a comment stands for a blank, as JavaScript writes one: `//` to
 *      its line's end, or a block from slash-star to star-slash (models annotate the arguments
 *      they fill in: `"limit": 5 // at most`); outside a string a `/` has no other reading
 *   8. a raw line break or tab inside a string is that character, as if escaped (models write
 *      a file's lines so: `"content": "def f():⏎    return 1"`); other control characters stay
 *      errors
 *
 * Everything else is as strict JSON: no NaN, JSON numbers only. A key written twice is an error
 * (two readings are possible: the first value or the last). Containers nest at most `JSON_NESTING_LIMIT` deep.
 * The reader is iterative (an explicit stack), reads each character once, never throws, and
 * tells "the text ended inside the value" (`eof`, truncation) from "not JSON".
 */
import { Code, hex4, hexDigitValue, isAsciiDigit, skipJsonSpace } from './codes.js';
import { JSON_NESTING_LIMIT, numberTailEnd, unsafeIntegerDigits, type JsonValueAt } from './json-stream.js';
import { setOwn } from './json-object.js';
import { identLength } from './ident.js';

interface Frame {
  readonly container: Record<string, unknown> | unknown[];
  /** The key whose value is being read (objects only). */
  key: string | null;
}

type Step = { readonly value: unknown; readonly end: number } | { readonly eof: true } | { readonly error: string; readonly at: number };

const EOF = { eof: true } as const;

const SIMPLE_ESCAPES: Readonly<Record<number, string>> = {
  [Code.Quote]: '"',
  [Code.Apostrophe]: "'",
  [Code.Backslash]: '\\',
  [Code.Slash]: '/',
  [Code.LowerB]: '\b',
  [Code.LowerF]: '\f',
  [Code.LowerN]: '\n',
  [Code.LowerR]: '\r',
  [Code.LowerT]: '\t',
};

/** `true`/`false`/`null` and their Python spellings. */
const LITERALS: readonly (readonly [string, unknown])[] = [
  ['true', true],
  ['false', false],
  ['null', null],
  ['True', true],
  ['False', false],
  ['None', null],
];

/**
 * A Python escape JSON lacks at `at` (the backslash): `\a`, `\v`, an octal digit, or `\x`,
 * `\U`, `\N` with the digits or brace Python reads after them. Such text has two readings.
 */
function isPythonOnlyEscape(text: string, at: number): boolean {
  const code = text.charCodeAt(at + 1);
  if (code === 0x61 || code === 0x76 || (code >= Code.Digit0 && code <= 0x37)) return true;
  if (code === 0x78) return hexDigitValue(text.charCodeAt(at + 2)) >= 0 && hexDigitValue(text.charCodeAt(at + 3)) >= 0;
  if (code === 0x55) return hex4(text, at + 2) >= 0 && hex4(text, at + 6) >= 0;
  return code === 0x4e && text.charCodeAt(at + 2) === Code.LeftBrace;
}

/** A string in `"` or `'` starting at `at` (the quote). */
function readString(text: string, at: number): Step {
  const quote = text.charCodeAt(at);
  let out = '';
  let runStart = at + 1;
  let i = at + 1;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === quote) return { value: out + text.slice(runStart, i), end: i + 1 };
    // Repair 8: a raw line break or tab stands for itself.
    if (code < 0x20 && code !== Code.LineFeed && code !== Code.Tab && code !== Code.CarriageReturn) return { error: 'control character inside a string', at: i };
    if (code !== Code.Backslash) {
      i++;
      continue;
    }
    out += text.slice(runStart, i);
    if (i + 1 >= text.length) return EOF;
    const escape = text.charCodeAt(i + 1);
    if (escape === Code.LowerU) {
      if (i + 6 > text.length) return EOF;
      const unit = hex4(text, i + 2);
      if (unit < 0) return { error: 'invalid \\u escape in a string', at: i };
      out += String.fromCharCode(unit);
      i += 6;
    } else {
      const simple = SIMPLE_ESCAPES[escape];
      if (simple !== undefined) {
        out += simple;
        i += 2;
      } else if (escape < 0x20 || isPythonOnlyEscape(text, i)) {
        return { error: 'invalid escape in a string', at: i };
      } else {
        // Repair 5: the backslash is a character; what follows is read as usual.
        out += '\\';
        i += 1;
      }
    }
    runStart = i;
  }
  return EOF;
}

/** A JSON number at `at`: `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`. */
function readNumber(text: string, at: number): Step {
  let i = at;
  if (text.charCodeAt(i) === Code.Dash) i++;
  if (i >= text.length) return EOF;
  if (!isAsciiDigit(text.charCodeAt(i))) return { error: 'not a value', at };
  const digits = i;
  if (text.charCodeAt(i) === Code.Digit0) i++;
  else while (isAsciiDigit(text.charCodeAt(i))) i++;
  const integerEnd = i;
  const tail = numberTailEnd(text, i);
  if (tail.kind === 'eof') return EOF;
  if (tail.kind === 'missing') return { error: tail.part === 'fraction' ? 'a number with no digits after its point' : 'a number with no digits in its exponent', at: tail.at };
  i = tail.end;
  // A number running into the end may still be growing.
  if (i >= text.length) return EOF;
  // An integer beyond 2^53 keeps its digits, as the strict reader keeps them (json-stream.ts).
  if (i === integerEnd && unsafeIntegerDigits(text, digits, i - digits)) return { value: text.slice(at, i), end: i };
  const value = Number(text.slice(at, i));
  // Beyond the double range (`1e400`): Infinity, which the answer's JSON would write as `null`.
  if (!Number.isFinite(value)) return { error: 'a number out of range', at };
  return { value, end: i };
}

function readLiteral(text: string, at: number): Step {
  for (const [word, value] of LITERALS) {
    if (text.startsWith(word, at)) return { value, end: at + word.length };
    // `tr` at the end of the text: the literal was cut off.
    if (text.length - at < word.length && word.startsWith(text.slice(at))) return EOF;
  }
  return { error: 'not a value', at };
}

/** A scalar at `at`, or the opening of a container (value undefined, end just past the bracket). */
function readScalar(text: string, at: number): Step {
  const code = text.charCodeAt(at);
  if (code === Code.Quote || code === Code.Apostrophe) return readString(text, at);
  if (code === Code.Dash || isAsciiDigit(code)) return readNumber(text, at);
  return readLiteral(text, at);
}

/** Whether the last item of `list` is an object (repair 4). */
function endsWithObject(list: readonly unknown[]): boolean {
  const last = list[list.length - 1];
  return typeof last === 'object' && last !== null && !Array.isArray(last);
}

/**
 * `at` moved past blanks and comments (repair 7); `text.length` when the text ends inside a
 * comment (a value cut off there), and `at` itself on a lone `/`, which then fails as the
 * character it is.
 */
function skipSpaceAndComments(text: string, at: number): number {
  let i = skipJsonSpace(text, at);
  while (text.charCodeAt(i) === Code.Slash) {
    const next = text.charCodeAt(i + 1);
    if (next === Code.Slash) {
      const lineEnd = text.indexOf('\n', i + 2);
      if (lineEnd < 0) return text.length;
      i = skipJsonSpace(text, lineEnd + 1);
    } else if (next === Code.Asterisk) {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) return text.length;
      i = skipJsonSpace(text, close + 2);
    } else if (i + 1 >= text.length) return text.length;
    else return i;
  }
  return i;
}

/** Reads one value at `start` (after whitespace) with the repairs listed above. */
export function readLenientJsonAt(text: string, start: number): JsonValueAt {
  const from = skipJsonSpace(text, start);
  const stack: Frame[] = [];
  let pos = from;
  // What the cursor expects: a value, or (inside a container) a key / a separator / a close.
  let expect: 'value' | 'key-or-close' | 'separator' = 'value';
  let value: unknown;
  const fail = (error: string, at: number): JsonValueAt => ({ ok: false, eof: false, error, at });
  const cut = (): JsonValueAt => ({ ok: false, eof: true, error: 'the text ended inside a value', at: from });
  for (;;) {
    pos = stack.length === 0 ? skipJsonSpace(text, pos) : skipSpaceAndComments(text, pos);
    if (pos >= text.length) return cut();
    const code = text.charCodeAt(pos);
    if (expect === 'value') {
      if (code === Code.LeftBrace || code === Code.LeftBracket) {
        if (stack.length >= JSON_NESTING_LIMIT) return fail('nested too deeply', pos);
        const isObject = code === Code.LeftBrace;
        stack.push({ container: isObject ? {} : [], key: null });
        pos++;
        expect = isObject ? 'key-or-close' : 'value';
        // An empty array closes at once.
        if (!isObject && text.charCodeAt(skipJsonSpace(text, pos)) === Code.RightBracket) {
          pos = skipJsonSpace(text, pos) + 1;
          value = stack.pop()!.container;
        } else continue;
      } else {
        const step = readScalar(text, pos);
        if ('eof' in step) return cut();
        if ('error' in step) return fail(step.error, step.at);
        value = step.value;
        pos = step.end;
      }
    } else if (expect === 'key-or-close') {
      const frame = stack[stack.length - 1]!;
      if (code === Code.RightBrace) {
        value = stack.pop()!.container;
        pos++;
      } else {
        let key: string;
        let keyEnd: number;
        if (code === Code.Quote || code === Code.Apostrophe) {
          const step = readString(text, pos);
          if ('eof' in step) return cut();
          if ('error' in step) return fail(step.error, step.at);
          key = step.value as string;
          keyEnd = step.end;
        } else {
          // Repair 6: a key written as JavaScript writes one, an identifier with no quotes.
          const length = identLength(text, pos);
          if (length === 0) return fail('expected a quoted key', pos);
          if (pos + length >= text.length) return cut();
          key = text.slice(pos, pos + length);
          keyEnd = pos + length;
        }
        if (Object.prototype.hasOwnProperty.call(frame.container, key)) return fail(`the key '${key}' is written twice`, pos);
        pos = skipSpaceAndComments(text, keyEnd);
        if (pos >= text.length) return cut();
        if (text.charCodeAt(pos) !== Code.Colon) return fail("expected ':' after a key", pos);
        frame.key = key;
        pos++;
        expect = 'value';
        continue;
      }
    } else {
      // separator: `,` then the next member (or, repair 1, the close), or the close itself.
      const frame = stack[stack.length - 1]!;
      const isObject = !Array.isArray(frame.container);
      const close = isObject ? Code.RightBrace : Code.RightBracket;
      if (code === close) {
        value = stack.pop()!.container;
        pos++;
      } else if (code === Code.Comma) {
        pos = skipSpaceAndComments(text, pos + 1);
        if (pos >= text.length) return cut();
        if (text.charCodeAt(pos) === close) {
          value = stack.pop()!.container;
          pos++;
        } else {
          expect = isObject ? 'key-or-close' : 'value';
          continue;
        }
      } else if (!isObject && code === Code.LeftBrace && endsWithObject(frame.container as unknown[])) {
        // Repair 4: the next item, an object, with its comma missing.
        expect = 'value';
        continue;
      } else return fail(isObject ? "expected ',' or '}'" : "expected ',' or ']'", pos);
    }
    // A value is complete: store it in its container, or it is the result.
    const parent = stack[stack.length - 1];
    if (parent === undefined) return { ok: true, value, start: from, end: pos };
    if (Array.isArray(parent.container)) parent.container.push(value);
    else setOwn(parent.container, parent.key!, value);
    expect = 'separator';
  }
}
