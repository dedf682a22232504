/**
 * TS value parser: the argument payload of `name(...)` and `name{...}` calls, as JSON values.
 *
 *     look({ path: 'a.rs', n: .5, s: "a" + `b`, body: <<EOF\n...\nEOF, })
 *          ^ from
 *
 * Accepts TypeScript-ish literals as models write them: objects with identifier or quoted keys
 * (`=` accepted for `:`), trailing commas, arrays, single/double-quoted strings (with `+`
 * concatenation), template literals (no evaluation), heredocs, `true`/`false`/`null`,
 * `undefined` (as null), numbers including `.5`, and `//` / `/* *\/` comments.
 *
 * Model text never throws: failures come back as `{ok: false, code, error, at}`. Nesting is
 * bounded by {@link MAX_NESTING}; deeper input fails with code `too-deep` instead of growing the
 * stack. Every loop advances `pos` or returns, and every character is decoded once, except
 * an over-closed string that is re-read once by its recovery; the parse is linear.
 */
import { Code, hex4, hexDigitValue, isAsciiDigit, tableByCode } from './codes.js';
import { scanHeredoc, heredocContent } from './heredoc.js';
import { identLength } from './ident.js';
import { setOwn } from './json-object.js';
import { decodedSuffix, ScanMemo, type DecodedRange } from './scan-memo.js';

/** Objects/arrays nested deeper than this fail with `too-deep` (the reference has no bound). */
export const MAX_NESTING = 512;

/** Stable reasons for a failed value parse (messages are free text; match on these). */
export type TsValueErrorCode =
  | 'unexpected-end'
  | 'unexpected-char'
  | 'bad-key'
  | 'missing-colon'
  | 'object-separator'
  | 'array-separator'
  | 'unterminated-string'
  | 'unterminated-escape'
  | 'invalid-unicode-escape'
  | 'unterminated-template'
  | 'unterminated-interpolation'
  | 'concat-non-string'
  | 'bad-keyword'
  | 'invalid-number'
  | 'non-finite-number'
  | 'heredoc-missing-tag'
  | 'heredoc-missing-newline'
  | 'heredoc-invalid-count'
  | 'heredoc-unterminated'
  | 'too-deep';

export type TsValueResult =
  | { ok: true; value: unknown; end: number }
  | { ok: false; code: TsValueErrorCode; error: string; at: number };

const FAIL: unique symbol = Symbol('fail');
type Parsed = unknown;

function isNumberPart(code: number): boolean {
  return (
    isAsciiDigit(code) ||
    code === Code.Dot ||
    code === Code.LowerE ||
    code === Code.UpperE ||
    code === Code.Plus ||
    code === Code.Dash
  );
}

/** Describe one character for a message (a whole surrogate pair, not half of it). */
function charAt(text: string, at: number): string {
  return String.fromCodePoint(text.codePointAt(at) ?? 0xfffd);
}

/**
 * Skip spaces, tabs, LF, CR and comments from `from`; returns the new index. With a `memo`, the
 * search for the end of a block comment is shared by every parse of the text.
 */
export function skipWsAndComments(text: string, from: number, memo?: ScanMemo): number {
  const length = text.length;
  let i = from;
  for (;;) {
    let code = text.charCodeAt(i);
    while (code === Code.Space || code === Code.Tab || code === Code.LineFeed || code === Code.CarriageReturn) {
      code = text.charCodeAt(++i);
    }
    if (code !== Code.Slash) return i;
    const next = text.charCodeAt(i + 1);
    if (next === Code.Slash) {
      const newline = text.indexOf('\n', i + 2);
      i = newline < 0 ? length : newline + 1;
    } else if (next === Code.Asterisk) {
      // An unclosed `/*` runs to the end (the reference stops one character short; see
      // conformance/DIFFERENCES.md).
      const close =
        memo === undefined ? text.indexOf('*/', i + 2) : memo.commentCloses.find(i + 2, (start) => text.indexOf('*/', start));
      i = close < 0 ? length : close + 2;
    } else {
      return i;
    }
  }
}

/** Outcome of decoding one `\u` escape whose `u` sits just before `at`. */
type UnicodeEscape =
  | { kind: 'char'; text: string; end: number }
  | { kind: 'literal' } // not an escape after all: keep `\u` and go on after it
  | { kind: 'invalid' }; // names a surrogate or a value past U+10FFFF

const LITERAL: UnicodeEscape = { kind: 'literal' };
const INVALID: UnicodeEscape = { kind: 'invalid' };

function scalar(value: number, end: number): UnicodeEscape {
  if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return INVALID;
  return { kind: 'char', text: String.fromCodePoint(value), end };
}

/**
 *     "\u{1F600}"   "\uD83D\uDE00"   "\u00e9"   "\users" (kept as written)
 *         ^ at          ^ at             ^ at      ^ at
 */
function decodeUnicodeEscape(text: string, at: number): UnicodeEscape {
  if (text.charCodeAt(at) === Code.LeftBrace) {
    // Only hex digits can precede a `}` that makes this valid, so stop at the first other
    // character: the scan never passes text that is not then read as content.
    let i = at + 1;
    let value = 0;
    let digit = hexDigitValue(text.charCodeAt(i));
    while (digit >= 0) {
      value = value * 16 + digit;
      // Past u32 the reference's hex parse fails and `\u` stays literal.
      if (value > 0xffffffff) return LITERAL;
      digit = hexDigitValue(text.charCodeAt(++i));
    }
    if (i === at + 1 || text.charCodeAt(i) !== Code.RightBrace) return LITERAL;
    return scalar(value, i + 1);
  }
  const unit = hex4(text, at);
  if (unit < 0) return LITERAL;
  if (unit >= 0xd800 && unit <= 0xdbff) {
    if (text.charCodeAt(at + 4) === Code.Backslash && text.charCodeAt(at + 5) === Code.LowerU) {
      const low = hex4(text, at + 6);
      if (low >= 0xdc00 && low <= 0xdfff) {
        return { kind: 'char', text: String.fromCharCode(unit, low), end: at + 10 };
      }
    }
    return INVALID;
  }
  return scalar(unit, at + 4);
}

/** Outcome of one backslash escape inside a quoted string. */
type Escape =
  | { kind: 'decoded'; text: string; end: number }
  | { kind: 'kept'; end: number } // keep the source characters up to `end` as written
  | { kind: 'invalid' }
  | { kind: 'eof' };

/** Single-character escapes of `"`/`'` strings by the escaped code unit (LF: a continuation). */
const SIMPLE_ESCAPES = tableByCode([
  [Code.LowerN, '\n'],
  [Code.LowerT, '\t'],
  [Code.LowerR, '\r'],
  [Code.Digit0, '\0'],
  [Code.Backslash, '\\'],
  [Code.Apostrophe, "'"],
  [Code.Quote, '"'],
  [Code.Backtick, '`'],
  [Code.LineFeed, ''],
]);

/** Template-literal escapes; everything else keeps its backslash. */
const TEMPLATE_ESCAPES = tableByCode([
  [Code.LowerN, '\n'],
  [Code.LowerT, '\t'],
  [Code.LowerR, '\r'],
  [Code.Backslash, '\\'],
  [Code.Backtick, '`'],
  [Code.Dollar, '$'],
  [Code.LineFeed, ''],
]);

/** The decoded text of a single-character escape whose backslash is at `at`, if it is one. */
function simpleEscapeAt(text: string, at: number): string | undefined {
  const code = text.charCodeAt(at + 1);
  return code < 0x80 ? SIMPLE_ESCAPES[code] : undefined;
}

/**
 * Decode the escape whose backslash is at `at` in a `"`/`'` string (or its recovery scan).
 * Unknown escapes keep the backslash and the character, so regexes and Windows paths survive.
 */
function decodeQuotedEscape(text: string, at: number): Escape {
  const i = at + 1;
  if (i >= text.length) return { kind: 'eof' };
  const code = text.charCodeAt(i);
  const simple = simpleEscapeAt(text, at);
  if (simple !== undefined) return { kind: 'decoded', text: simple, end: i + 1 };
  switch (code) {
    case Code.LowerU: {
      const escape = decodeUnicodeEscape(text, i + 1);
      if (escape.kind === 'char') return { kind: 'decoded', text: escape.text, end: escape.end };
      return escape.kind === 'invalid' ? { kind: 'invalid' } : { kind: 'kept', end: i + 1 };
    }
    case Code.LowerX: {
      const high = hexDigitValue(text.charCodeAt(i + 1));
      const low = hexDigitValue(text.charCodeAt(i + 2));
      if (high < 0 || low < 0) return { kind: 'kept', end: i + 1 };
      return { kind: 'decoded', text: String.fromCharCode(high * 16 + low), end: i + 3 };
    }
    default:
      // A following high surrogate is kept as one unit; its low half is then plain content.
      return { kind: 'kept', end: i + 1 };
  }
}

/**
 * Where a recovery scan from `start` stops: at a `quote` followed (after whitespace) by `,` or
 * `}` (the real close), or at a backslash that starts a broken escape; -1 when it runs to the
 * end. Other same-kind quotes are content.
 *
 *     { code: "r#"x"# done" }
 *              ^ start    ^ stop
 */
function recoveryStop(text: string, start: number, quote: number): number {
  const length = text.length;
  let i = start;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code === Code.Backslash) {
      const escape = decodeQuotedEscape(text, i);
      if (escape.kind === 'eof' || escape.kind === 'invalid') return i;
      i = escape.end;
    } else if (code === quote) {
      let look = i + 1;
      let next = text.charCodeAt(look);
      while (next === Code.Space || next === Code.Tab || next === Code.LineFeed || next === Code.CarriageReturn) {
        next = text.charCodeAt(++look);
      }
      if (next === Code.Comma || next === Code.RightBrace) return i;
      i++;
    } else {
      i++;
    }
  }
  return -1;
}

/** The recovered string `[start, stop)`, escapes decoded (the range holds no broken escape). */
function decodeRecovered(text: string, start: number, stop: number): DecodedRange {
  const decoded: DecodedRange = { start, stop, out: '', sourceMarks: [], outMarks: [] };
  let out = '';
  let chunkStart = start;
  let i = start;
  while (i < stop) {
    if (text.charCodeAt(i) !== Code.Backslash) {
      i++;
      continue;
    }
    const escape = decodeQuotedEscape(text, i);
    if (escape.kind === 'eof' || escape.kind === 'invalid') break;
    if (escape.kind === 'decoded') {
      out += text.slice(chunkStart, i) + escape.text;
      chunkStart = escape.end;
      decoded.sourceMarks.push(escape.end);
      decoded.outMarks.push(out.length);
    }
    i = escape.end;
  }
  decoded.out = out + text.slice(chunkStart, stop);
  return decoded;
}

class TsValueParser {
  pos: number;
  code: TsValueErrorCode = 'unexpected-end';
  error = '';
  at = 0;
  private depth = 0;

  constructor(
    private readonly text: string,
    from: number,
    private readonly memo: ScanMemo | undefined,
  ) {
    this.pos = from;
  }

  fail(code: TsValueErrorCode, error: string, at = this.pos): typeof FAIL {
    this.code = code;
    this.error = error;
    this.at = at;
    return FAIL;
  }

  skipWs(): void {
    this.pos = skipWsAndComments(this.text, this.pos, this.memo);
  }

  /** primary, then `+ "more"` folding when the primary is a string. */
  value(): Parsed | typeof FAIL {
    const first = this.primary();
    if (typeof first !== 'string') return first;
    let joined: string = first;
    for (;;) {
      const saved = this.pos;
      this.skipWs();
      if (this.text.charCodeAt(this.pos) !== Code.Plus) {
        // Trailing whitespace after a value belongs to the caller.
        this.pos = saved;
        return joined;
      }
      this.pos++;
      const operandAt = this.pos;
      const next = this.primary();
      if (next === FAIL) return FAIL;
      if (typeof next !== 'string') {
        return this.fail(
          'concat-non-string',
          `\`+\` can only join strings, but the next operand is \`${JSON.stringify(next)}\``,
          operandAt,
        );
      }
      joined += next;
    }
  }

  primary(): Parsed | typeof FAIL {
    this.skipWs();
    const { text } = this;
    if (this.pos >= text.length) return this.fail('unexpected-end', 'the input ended where a value should start');
    const code = text.charCodeAt(this.pos);
    switch (code) {
      case Code.LeftBrace:
        return this.object();
      case Code.LeftBracket:
        return this.array();
      case Code.Quote:
      case Code.Apostrophe:
        return this.quoted(code);
      case Code.Backtick:
        return this.template();
      case Code.LowerT:
      case Code.LowerF:
        if (text.startsWith('true', this.pos)) return this.keyword(4, true);
        if (text.startsWith('false', this.pos)) return this.keyword(5, false);
        return this.fail('bad-keyword', 'expected the keyword `true` or `false`');
      case Code.LowerN:
        if (text.startsWith('null', this.pos)) return this.keyword(4, null);
        return this.fail('bad-keyword', 'expected the keyword `null`');
      case Code.LowerU:
        if (text.startsWith('undefined', this.pos)) return this.keyword(9, null);
        return this.fail('bad-keyword', 'expected the keyword `undefined`');
      case Code.LessThan:
        if (text.charCodeAt(this.pos + 1) === Code.LessThan) return this.heredoc();
        break;
      case Code.Dash:
        return this.number();
      case Code.Dot:
        if (isAsciiDigit(text.charCodeAt(this.pos + 1))) return this.number();
        break;
      default:
        if (isAsciiDigit(code)) return this.number();
    }
    return this.fail('unexpected-char', `\`${charAt(text, this.pos)}\` cannot start a value`);
  }

  keyword(length: number, value: boolean | null): Parsed {
    this.pos += length;
    return value;
  }

  enter(): boolean {
    if (this.depth >= MAX_NESTING) {
      this.fail('too-deep', `literals are nested more than ${MAX_NESTING} levels deep`);
      return false;
    }
    this.depth++;
    return true;
  }

  /**
   *     { key: value, 'k': v, k = v, }
   *     ^ pos
   */
  object(): Parsed | typeof FAIL {
    if (!this.enter()) return FAIL;
    const { text } = this;
    const result: Record<string, unknown> = {};
    this.pos++;
    for (;;) {
      this.skipWs();
      if (this.pos >= text.length) return this.fail('unexpected-end', 'the input ended inside an object literal');
      let code = text.charCodeAt(this.pos);
      if (code === Code.RightBrace) break;
      let key: string;
      if (code === Code.Quote || code === Code.Apostrophe) {
        const quotedKey = this.quoted(code);
        if (quotedKey === FAIL) return FAIL;
        key = quotedKey as string;
      } else {
        const length = identLength(text, this.pos);
        if (length === 0) {
          return this.fail('bad-key', 'an object key must be an identifier or a quoted string');
        }
        key = text.slice(this.pos, this.pos + length);
        this.pos += length;
      }
      this.skipWs();
      code = text.charCodeAt(this.pos);
      // repair: `key= value` is read as `key: value`.
      if (code !== Code.Colon && code !== Code.Equals) {
        return this.fail('missing-colon', `the key \`${key}\` must be followed by \`:\``);
      }
      this.pos++;
      this.skipWs();
      const valueStart = this.pos;
      const valueFirst = text.charCodeAt(valueStart);
      let value = this.value();
      if (value === FAIL) return FAIL;
      this.skipWs();
      code = text.charCodeAt(this.pos);
      if (
        typeof value === 'string' &&
        (valueFirst === Code.Quote || valueFirst === Code.Apostrophe) &&
        code !== Code.Comma &&
        code !== Code.RightBrace
      ) {
        const recovered = this.recoverOverclosedString(valueStart, valueFirst);
        if (recovered !== undefined) {
          value = recovered;
          this.skipWs();
          code = text.charCodeAt(this.pos);
        }
      }
      setOwn(result, key, value);
      if (code === Code.Comma) {
        this.pos++;
        continue;
      }
      if (code === Code.RightBrace) break;
      if (this.pos >= text.length) return this.fail('unexpected-end', 'the input ended inside an object literal');
      return this.fail(
        'object-separator',
        `expected \`,\` or \`}\` after the value of \`${key}\`, found \`${charAt(text, this.pos)}\``,
      );
    }
    this.pos++;
    this.depth--;
    return result;
  }

  /**
   * repair: a string value closed early on an unescaped inner quote (a Rust `r#"..."#` in a
   * `content` string). Re-read it from its opening quote, treating each same-kind quote as
   * content unless `,` or `}` follows it (after whitespace). On success `pos` moves past the
   * real closing quote; on failure nothing changes and the caller reports the original error.
   *
   *     { code: "r#"x"# done" }
   *             ^ valueStart  ^ real end
   */
  recoverOverclosedString(valueStart: number, quote: number): string | undefined {
    const { text, memo } = this;
    const start = valueStart + 1;
    // Every start is just after an opening quote, which an earlier recovery scan that passed it
    // read as content, so it shares that scan's stop (see ScanMemo).
    const stop =
      memo === undefined
        ? recoveryStop(text, start, quote)
        : ScanMemo.searchOf(memo.recoveries, quote).find(start, (from) => recoveryStop(text, from, quote));
    if (stop < 0 || text.charCodeAt(stop) !== quote) return undefined;
    this.pos = stop + 1;
    if (memo === undefined) return decodeRecovered(text, start, stop).out;
    // A later start inside the last recovery to the same close reads its decoding as a slice.
    const last = memo.recovered.get(quote);
    if (last !== undefined && last.stop === stop && last.start <= start) return decodedSuffix(last, start);
    const decoded = decodeRecovered(text, start, stop);
    memo.recovered.set(quote, decoded);
    return decoded.out;
  }

  /**
   *     [1, "two", { three: 3 },]
   *     ^ pos
   */
  array(): Parsed | typeof FAIL {
    if (!this.enter()) return FAIL;
    const { text } = this;
    const items: unknown[] = [];
    this.pos++;
    for (;;) {
      this.skipWs();
      if (text.charCodeAt(this.pos) === Code.RightBracket) break;
      const item = this.value();
      if (item === FAIL) return FAIL;
      items.push(item);
      this.skipWs();
      const code = text.charCodeAt(this.pos);
      if (code === Code.Comma) {
        this.pos++;
        continue;
      }
      if (code === Code.RightBracket) break;
      if (this.pos >= text.length) return this.fail('unexpected-end', 'the input ended inside an array literal');
      return this.fail('array-separator', `expected \`,\` or \`]\` between array items, found \`${charAt(text, this.pos)}\``);
    }
    this.pos++;
    this.depth--;
    return items;
  }

  /**
   *     "a\tb"   'it\'s'   "<<EOF\nbody\nEOF"   (the last is a heredoc a model quoted)
   *     ^ pos
   */
  quoted(quote: number): Parsed | typeof FAIL {
    const { text } = this;
    const length = text.length;
    const open = this.pos;
    this.pos++;
    if (text.charCodeAt(this.pos) === Code.LessThan && text.charCodeAt(this.pos + 1) === Code.LessThan) {
      // repair: `"content": "<<EOF\n...\nEOF"`, with or without the closing quote.
      const body = this.heredoc();
      if (body !== FAIL && text.charCodeAt(this.pos) === quote) this.pos++;
      return body;
    }
    let out = '';
    let chunkStart = this.pos;
    let i = this.pos;
    while (i < length) {
      const code = text.charCodeAt(i);
      if (code === quote) {
        this.pos = i + 1;
        return out + text.slice(chunkStart, i);
      }
      if (code !== Code.Backslash) {
        i++;
        continue;
      }
      // perf: JSON-escaped bodies are mostly `\n` and `\"`; decode those without allocating.
      const simple = simpleEscapeAt(text, i);
      if (simple !== undefined) {
        out += text.slice(chunkStart, i) + simple;
        i += 2;
        chunkStart = i;
        continue;
      }
      const escape = decodeQuotedEscape(text, i);
      if (escape.kind === 'eof') {
        return this.fail('unterminated-escape', 'a string literal ends in a lone backslash', i);
      }
      if (escape.kind === 'invalid') {
        return this.fail(
          'invalid-unicode-escape',
          'a `\\u` escape in a string literal names no Unicode character (lone surrogate or past U+10FFFF)',
          i,
        );
      }
      if (escape.kind === 'decoded') {
        out += text.slice(chunkStart, i) + escape.text;
        chunkStart = escape.end;
      }
      i = escape.end;
    }
    return this.fail('unterminated-string', 'a string literal is never closed', open);
  }

  /**
   *     `line ${not.evaluated} \` done`
   *     ^ pos
   */
  template(): Parsed | typeof FAIL {
    const { text } = this;
    const length = text.length;
    const open = this.pos;
    let out = '';
    let i = this.pos + 1;
    let chunkStart = i;
    while (i < length) {
      const code = text.charCodeAt(i);
      if (code === Code.Backtick) {
        this.pos = i + 1;
        return out + text.slice(chunkStart, i);
      }
      if (code === Code.Backslash) {
        if (i + 1 >= length) {
          return this.fail('unterminated-escape', 'a template literal ends in a lone backslash', i);
        }
        const next = text.charCodeAt(i + 1);
        const decoded = next < 0x80 ? TEMPLATE_ESCAPES[next] : undefined;
        if (decoded !== undefined) {
          out += text.slice(chunkStart, i) + decoded;
          chunkStart = i + 2;
        }
        // Unknown escapes (including a non-ASCII character) keep the backslash and the unit.
        i += 2;
      } else if (code === Code.Dollar && text.charCodeAt(i + 1) === Code.LeftBrace) {
        // `${...}` is copied verbatim through its matching `}` (brace depth, no strings).
        let depth = 1;
        let j = i + 2;
        while (depth > 0 && j < length) {
          const inner = text.charCodeAt(j);
          if (inner === Code.LeftBrace) depth++;
          else if (inner === Code.RightBrace) depth--;
          j++;
        }
        if (this.memo !== undefined) this.memo.unsharedReads += j - i;
        if (depth > 0) {
          return this.fail('unterminated-interpolation', 'a `${` in a template literal is never closed', i);
        }
        i = j;
      } else {
        i++;
      }
    }
    return this.fail('unterminated-template', 'a template literal is never closed', open);
  }

  /**
   *     <<EOF\nbody\nEOF })
   *     ^ pos          ^ pos afterwards (the rest of the close line is parsed next)
   */
  heredoc(): Parsed | typeof FAIL {
    const scan = scanHeredoc(this.text, this.pos, this.memo);
    if (scan === null) return this.fail('heredoc-missing-tag', '`<<` must be followed by a tag, as in `<<EOF`');
    if (!scan.ok) {
      switch (scan.reason) {
        case 'MissingNewline':
          return this.fail('heredoc-missing-newline', `the heredoc tag <<${scan.tag} must end its line`);
        case 'InvalidCount':
          return this.fail('heredoc-invalid-count', `the line count declared by <<${scan.tag} is too large to use`);
        default:
          return this.fail(
            'heredoc-unterminated',
            `the heredoc <<${scan.tag} is never closed by a line starting with ${scan.tag}`,
          );
      }
    }
    this.pos = scan.end;
    return heredocContent(this.text, scan, this.memo);
  }

  /**
   *     -1.5e3   .5   -.25   42   99999999999999999999 (a float, as in the reference)
   *     ^ pos
   */
  number(): Parsed | typeof FAIL {
    const { text } = this;
    const start = this.pos;
    let i = start;
    if (text.charCodeAt(i) === Code.Dash) i++;
    while (isNumberPart(text.charCodeAt(i))) i++;
    this.pos = i;
    const literal = text.slice(start, i);
    const numeric = validNumber(literal);
    if (numeric === undefined) return this.fail('invalid-number', `\`${literal}\` is not a number`, start);
    if (!Number.isFinite(numeric)) {
      return this.fail('non-finite-number', `the number \`${literal}\` is too large to represent`, start);
    }
    // `-0` parses as the integer 0 in the reference; only floats keep a negative zero.
    return numeric === 0 && isIntegerLiteral(literal) ? 0 : numeric;
  }
}

function isIntegerLiteral(literal: string): boolean {
  for (let i = literal.charCodeAt(0) === Code.Dash ? 1 : 0; i < literal.length; i++) {
    if (!isAsciiDigit(literal.charCodeAt(i))) return false;
  }
  return true;
}

/**
 * The value of a Rust-style float literal (`1`, `1.`, `.5`, `1.e5`, `-0.25E-3`), else
 * undefined. `literal` only holds `-`, digits, `.`, `e`, `E`, `+`.
 */
function validNumber(literal: string): number | undefined {
  let i = literal.charCodeAt(0) === Code.Dash ? 1 : 0;
  const length = literal.length;
  const intStart = i;
  while (i < length && isAsciiDigit(literal.charCodeAt(i))) i++;
  let digits = i - intStart;
  if (literal.charCodeAt(i) === Code.Dot) {
    const fractionStart = ++i;
    while (i < length && isAsciiDigit(literal.charCodeAt(i))) i++;
    digits += i - fractionStart;
  }
  if (digits === 0) return undefined;
  const exponent = literal.charCodeAt(i);
  if (exponent === Code.LowerE || exponent === Code.UpperE) {
    i++;
    const sign = literal.charCodeAt(i);
    if (sign === Code.Plus || sign === Code.Dash) i++;
    const exponentStart = i;
    while (i < length && isAsciiDigit(literal.charCodeAt(i))) i++;
    if (i === exponentStart) return undefined;
  }
  return i === length ? Number(literal) : undefined;
}

/**
 * Parse one value starting at `from` (leading whitespace and comments are skipped; trailing
 * ones are not consumed). `end` is the index just past the value.
 */
export function parseTsValue(text: string, from = 0, memo?: ScanMemo): TsValueResult {
  if (memo !== undefined && memo.text !== text) throw new TypeError('parseTsValue: memo belongs to another text');
  const parser = new TsValueParser(text, from, memo);
  const value = parser.value();
  if (value === FAIL) return { ok: false, code: parser.code, error: parser.error, at: parser.at };
  return { ok: true, value, end: parser.pos };
}
