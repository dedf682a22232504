/** Character codes compared on the hot path (UTF-16 code units). */
export const Code = {
  Tab: 0x09, // '\t'
  LineFeed: 0x0a, // '\n'
  VerticalTab: 0x0b,
  FormFeed: 0x0c, // '\f'
  CarriageReturn: 0x0d, // '\r'
  Space: 0x20, // ' '
  Bang: 0x21, // '!'
  Quote: 0x22, // '"'
  Hash: 0x23, // '#'
  Dollar: 0x24, // '$'
  Ampersand: 0x26, // '&'
  Apostrophe: 0x27, // "'"
  LeftParen: 0x28, // '('
  RightParen: 0x29, // ')'
  Asterisk: 0x2a, // '*'
  Plus: 0x2b, // '+'
  Comma: 0x2c, // ','
  Dash: 0x2d, // '-'
  Dot: 0x2e, // '.'
  Slash: 0x2f, // '/'
  Digit0: 0x30, // '0'
  Digit9: 0x39, // '9'
  Colon: 0x3a, // ':'
  Semicolon: 0x3b, // ';'
  LessThan: 0x3c, // '<'
  Equals: 0x3d, // '='
  GreaterThan: 0x3e, // '>'
  UpperA: 0x41, // 'A'
  UpperE: 0x45, // 'E'
  UpperF: 0x46, // 'F'
  UpperZ: 0x5a, // 'Z'
  LeftBracket: 0x5b, // '['
  Backslash: 0x5c, // '\\'
  RightBracket: 0x5d, // ']'
  Underscore: 0x5f, // '_'
  Backtick: 0x60, // '`'
  LowerA: 0x61, // 'a'
  LowerB: 0x62, // 'b'
  LowerE: 0x65, // 'e'
  LowerF: 0x66, // 'f'
  LowerN: 0x6e, // 'n'
  LowerR: 0x72, // 'r'
  LowerT: 0x74, // 't'
  LowerU: 0x75, // 'u'
  LowerX: 0x78, // 'x'
  LowerZ: 0x7a, // 'z'
  LeftBrace: 0x7b, // '{'
  Pipe: 0x7c, // '|'
  RightBrace: 0x7d, // '}'
  Tilde: 0x7e, // '~'
  ByteOrderMark: 0xfeff,
} as const;

/**
 * Rust's `char::is_whitespace` (the Unicode White_Space property), used wherever the reference
 * trims with `trim`/`trim_start`. Unlike JS `\s` it excludes U+FEFF and includes U+0085.
 * All members are BMP code units, so testing one UTF-16 unit at a time is exact.
 */
export function isUnicodeWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/**
 * JavaScript's `\s`: the characters `String.prototype.trim` removes (unlike
 * `isUnicodeWhitespace`, U+FEFF is one and U+0085 is not).
 */
export function isJsSpace(code: number): boolean {
  if (code <= 0x7f) return code === Code.Space || (code >= Code.Tab && code <= Code.CarriageReturn);
  return JS_SPACE.test(String.fromCharCode(code));
}

const JS_SPACE = /\s/;

/**
 * A lookup array indexed by char code, `undefined` where no entry exists: dispatch tables such
 * as escape decoders read `table[code]` instead of walking a switch.
 */
export function tableByCode<T>(entries: readonly (readonly [code: number, value: T])[]): readonly (T | undefined)[] {
  const table: (T | undefined)[] = [];
  for (const [code, value] of entries) table[code] = value;
  return table;
}

/** `A`-`Z`, `a`-`z`. */
export function isAsciiLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** `0`-`9`. */
export function isAsciiDigit(code: number): boolean {
  return code >= Code.Digit0 && code <= Code.Digit9;
}

/** The value of a hex digit (`0-9a-fA-F`), or -1. */
export function hexDigitValue(code: number): number {
  if (code >= Code.Digit0 && code <= Code.Digit9) return code - Code.Digit0;
  if (code >= Code.LowerA && code <= Code.LowerF) return code - Code.LowerA + 10;
  if (code >= Code.UpperA && code <= Code.UpperF) return code - Code.UpperA + 10;
  return -1;
}

/** Value of the four hex digits at `at` (a `\uXXXX` escape), or -1 when one is missing or not hex. */
export function hex4(text: string, at: number): number {
  let value = 0;
  for (let k = 0; k < 4; k++) {
    const digit = hexDigitValue(text.charCodeAt(at + k));
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** Space, tab, LF, VT, FF or CR: the ASCII whitespace of JavaScript's `trim` and Python's `isspace`. */
export function isAsciiSpace(code: number): boolean {
  return code === Code.Space || (code >= Code.Tab && code <= Code.CarriageReturn);
}

/** Space, tab, LF or CR: JSON's whitespace, the set the JSON-family readers skip between tokens. */
export function isJsonSpace(code: number): boolean {
  return code === Code.Space || code === Code.Tab || code === Code.LineFeed || code === Code.CarriageReturn;
}

/** `at` moved past spaces and tabs: the blanks within a line. */
export function skipBlanks(text: string, at: number): number {
  let i = at;
  while (i < text.length && (text.charCodeAt(i) === Code.Space || text.charCodeAt(i) === Code.Tab)) i++;
  return i;
}

/** Where the first character at or after `at` that is not a space, tab or carriage return stands (its line's break, or the text's length, when only those follow). */
export function skipLineBlanks(text: string, at: number): number {
  let i = at;
  for (let code = text.charCodeAt(i); code === Code.Space || code === Code.Tab || code === Code.CarriageReturn; code = text.charCodeAt(++i));
  return i;
}

/** Whether only spaces, tabs and carriage returns stand between `at` and its line's break (or the text's end). */
export function endsLineAt(text: string, at: number): boolean {
  const end = skipLineBlanks(text, at);
  return end >= text.length || text.charCodeAt(end) === Code.LineFeed;
}

/** The characters `String.prototype.trim` removes (ECMAScript WhiteSpace and LineTerminator). */
export function isTrimmedByJs(code: number): boolean {
  if (code <= 0x7f) return code === Code.Space || (code >= Code.Tab && code <= Code.CarriageReturn);
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/**
 * Whether only characters `String.prototype.trim` removes stand between `at` and its line's
 * break (or the text's end): what ends a line to a reader that trims the text it is given.
 */
export function endsTrimmedLineAt(text: string, at: number): boolean {
  for (; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === Code.LineFeed) return true;
    if (!isTrimmedByJs(code)) return false;
  }
  return true;
}

/** `at` moved back past the spaces and tabs before it. */
export function skipBlanksBack(text: string, at: number): number {
  let i = at;
  while (i > 0 && (text.charCodeAt(i - 1) === Code.Space || text.charCodeAt(i - 1) === Code.Tab)) i--;
  return i;
}

/** `at` moved past any JSON whitespace. */
export function skipJsonSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && isJsonSpace(text.charCodeAt(i))) i++;
  return i;
}

/** Whether one of `literals` starts at `at`. Indexed: the lists are often frozen vocabulary, which V8 iterates slowly with for-of. */
export function startsWithAny(text: string, at: number, literals: readonly string[]): boolean {
  for (let i = 0; i < literals.length; i++) if (text.startsWith(literals[i]!, at)) return true;
  return false;
}

/** Whether something other than JSON blanks stands before `at` on its line, at or after `floor`. */
export function wordBeforeOnLine(text: string, at: number, floor = 0): boolean {
  for (let i = at - 1; i >= floor; i--) {
    const code = text.charCodeAt(i);
    if (code === Code.LineFeed) return false;
    if (!isJsonSpace(code)) return true;
  }
  return false;
}
