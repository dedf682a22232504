/**
 * Heredoc grammar (`<<TAG ... TAG`), the single authority shared by the scanner's text runs,
 * thinking-tag stripping, the call-block span walk and the TS value parser.
 *
 *     content: <<'EOF':2\r\n  line one\n  line two\n  EOF })
 *              ^ start   ^ optional quote, count and CR; then LF or a literal `\n`
 *
 * Three body forms: plain (ends at the first line whose trimmed start is the tag), counted
 * (`<<TAG:N`, exactly N lines, then the tag line) and escaped (the model JSON-escaped the
 * heredoc, writing a literal backslash-n instead of newlines). A plain body that never closes
 * may still end at a trailing call-tail line such as `})` (implicit close).
 *
 * Every scan runs to the end of `src` at most once, so one call is linear in the input. Callers
 * that scan many openers of one text pass a {@link ScanMemo}: plain-body close searches and the
 * implicit-close facts are then shared, so the scans of all openers together stay linear.
 */
import { Code, isAsciiDigit, isUnicodeWhitespace, tableByCode } from './codes.js';
import { decodedSuffix, ScanMemo, type DecodedRange } from './scan-memo.js';

/** Why a `<<TAG` opener did not yield a body. A missing tag is `null`, not a failure. */
export type HeredocFailure = 'MissingNewline' | 'InvalidCount' | 'Unterminated';

/**
 * Result of {@link scanHeredoc}. Offsets are UTF-16 indexes into the scanned source.
 * - `ok: true`: the raw body is `src.slice(contentStart, contentEnd)`; `end` is just past the
 *   closing tag (for an implicit close: the start of the call-tail line); whatever follows on
 *   that line is left to the caller. `escaped` means the body uses literal `\n` separators and
 *   must be decoded with {@link unescapeHeredocBody} (see {@link heredocContent}).
 * - `ok: false`: the opener had a tag but no usable body; `reason` says why.
 */
export type HeredocScan =
  | { ok: true; tag: string; contentStart: number; contentEnd: number; end: number; escaped: boolean }
  | { ok: false; tag: string; reason: HeredocFailure };

/** `u64::MAX`, the largest line count the reference accepts. */
const MAX_COUNT = 18446744073709551615n;

function isTagChar(code: number): boolean {
  return (
    (code >= Code.LowerA && code <= Code.LowerZ) ||
    (code >= Code.UpperA && code <= Code.UpperZ) ||
    (code >= Code.Digit0 && code <= Code.Digit9) ||
    code === Code.Underscore
  );
}

function isLiteralNewline(src: string, at: number): boolean {
  return src.charCodeAt(at) === Code.Backslash && src.charCodeAt(at + 1) === Code.LowerN;
}

/**
 * Scan a heredoc whose `<<` starts at `start`. Returns `null` when this is not a heredoc at
 * all (no `<<`, or no tag right after it: `<< EOF`, `<<-EOF`, `1 << 2`), which callers treat
 * as ordinary content.
 */
export function scanHeredoc(src: string, start: number, memo?: ScanMemo): HeredocScan | null {
  if (src.charCodeAt(start) !== Code.LessThan || src.charCodeAt(start + 1) !== Code.LessThan) {
    return null;
  }
  let i = start + 2;
  const quote = src.charCodeAt(i);
  const quoted = quote === Code.Quote || quote === Code.Apostrophe;
  if (quoted) i++;
  const tagStart = i;
  while (isTagChar(src.charCodeAt(i))) i++;
  if (i === tagStart) return null;
  const tag = src.slice(tagStart, i);
  // A missing or different closing quote is tolerated here; a wrong one fails at the newline.
  if (quoted && src.charCodeAt(i) === quote) i++;

  let count: number | undefined;
  if (src.charCodeAt(i) === Code.Colon && isAsciiDigit(src.charCodeAt(i + 1))) {
    const digitsStart = i + 1;
    i = digitsStart;
    while (isAsciiDigit(src.charCodeAt(i))) i++;
    const parsed = parseCount(src, digitsStart, i);
    if (parsed === undefined) return { ok: false, tag, reason: 'InvalidCount' };
    count = parsed;
  }
  if (src.charCodeAt(i) === Code.CarriageReturn) i++;
  if (src.charCodeAt(i) === Code.LineFeed) {
    const contentStart = i + 1;
    return count === undefined
      ? scanPlainBody(src, tag, contentStart, memo)
      : scanCountedBody(src, tag, contentStart, count, memo);
  }
  // `<<EOF\nbody\nEOF` written with literal backslash-n: a declared count is ignored.
  if (isLiteralNewline(src, i)) return scanEscapedBody(src, tag, i + 2, memo);
  return { ok: false, tag, reason: 'MissingNewline' };
}

/**
 * The declared count as a number, or undefined when it exceeds `u64::MAX`. Counts past
 * 2^53 lose precision, which is harmless: no source has that many lines, so they fail as
 * Unterminated either way.
 */
function parseCount(src: string, from: number, to: number): number | undefined {
  let i = from;
  while (i < to - 1 && src.charCodeAt(i) === Code.Digit0) i++;
  // perf: at most 20 significant digits reach BigInt, so a megabyte of digits stays linear.
  if (to - i > 20) return undefined;
  const digits = src.slice(i, to);
  if (BigInt(digits) > MAX_COUNT) return undefined;
  return Number(digits);
}

/** Index just past `tag` when the text at `lineStart` (after leading whitespace) is a close. */
function closeTagEnd(src: string, tag: string, lineStart: number, crossNewlines: boolean): number {
  let i = lineStart;
  for (;;) {
    const code = src.charCodeAt(i);
    if (!isUnicodeWhitespace(code) || (!crossNewlines && code === Code.LineFeed)) break;
    i++;
  }
  if (!src.startsWith(tag, i)) return -1;
  const after = i + tag.length;
  return isTagChar(src.charCodeAt(after)) ? -1 : after;
}

/** `content` minus one trailing LF, then minus one trailing CR. */
function trimOneLineEnd(src: string, contentStart: number, to: number): number {
  let end = to;
  if (end > contentStart && src.charCodeAt(end - 1) === Code.LineFeed) end--;
  if (end > contentStart && src.charCodeAt(end - 1) === Code.CarriageReturn) end--;
  return end;
}

/**
 *     <<EOF\n  body\n  EOF })
 *            ^ contentStart; the first line whose trimmed start is `EOF` + word boundary closes
 */
function scanPlainBody(src: string, tag: string, contentStart: number, memo: ScanMemo | undefined): HeredocScan {
  const closeLine =
    memo === undefined
      ? firstCloseLine(src, tag, contentStart)
      : ScanMemo.searchOf(memo.plainCloses, tag).find(contentStart, (from) => firstCloseLine(src, tag, from));
  if (closeLine < 0) return implicitClose(src, tag, contentStart, memo);
  return {
    ok: true,
    tag,
    contentStart,
    contentEnd: trimOneLineEnd(src, contentStart, closeLine),
    end: closeTagEnd(src, tag, closeLine, false),
    escaped: false,
  };
}

/**
 * Start of the first line at or after the line start `from` that closes a plain `tag` body, or
 * -1. The answer for `from` is also the answer for every line start up to it.
 */
function firstCloseLine(src: string, tag: string, from: number): number {
  const length = src.length;
  let lineStart = from;
  while (lineStart <= length) {
    if (closeTagEnd(src, tag, lineStart, false) >= 0) return lineStart;
    const newline = src.indexOf('\n', lineStart);
    if (newline < 0) break;
    lineStart = newline + 1;
  }
  return -1;
}

/**
 * repair: a plain body that never closes still ends at a final call-tail line such as `})`
 * or `}) ,` (seen when models forget the terminator). A lone `}` is not enough: ordinary code
 * ends that way. Any later non-tail text defeats this, since the body runs to the end.
 *
 *     <<EOF\nbody\n  })\n\n
 *                  ^ end (the tail line's start; the caller parses `})` itself)
 */
function implicitClose(src: string, tag: string, contentStart: number, memo: ScanMemo | undefined): HeredocScan {
  const tail = memo === undefined ? tailFacts(src) : (memo.tail ??= tailFacts(src));
  // `contentStart` follows a LF, so a last line that has text after it starts at or after it.
  if (tail.last < contentStart || !tail.isCallTail) return { ok: false, tag, reason: 'Unterminated' };
  return {
    ok: true,
    tag,
    contentStart,
    contentEnd: trimOneLineEnd(src, contentStart, tail.lineStart),
    end: tail.lineStart,
    escaped: false,
  };
}

/**
 * The facts of the text's end an implicit close depends on, whatever the body's start: the last
 * non-whitespace character, the start of its line, and whether that line is a call tail (only
 * `)`, `}`, `]`, `,`, spaces and tabs, with at least one `)`).
 */
function tailFacts(src: string): NonNullable<ScanMemo['tail']> {
  let last = src.length - 1;
  while (last >= 0 && isUnicodeWhitespace(src.charCodeAt(last))) last--;
  const lineStart = last < 0 ? 0 : src.lastIndexOf('\n', last) + 1;
  let first = lineStart;
  while (isUnicodeWhitespace(src.charCodeAt(first))) first++;
  let sawParen = false;
  for (let i = first; i <= last; i++) {
    const code = src.charCodeAt(i);
    if (code === Code.RightParen) sawParen = true;
    else if (
      code !== Code.RightBrace &&
      code !== Code.RightBracket &&
      code !== Code.Comma &&
      code !== Code.Space &&
      code !== Code.Tab
    ) {
      return { last, lineStart, isCallTail: false };
    }
  }
  return { last, lineStart, isCallTail: sawParen };
}

/**
 *     <<E:2\na\nE\nE trailing
 *           ^ contentStart: exactly two lines (a tag line among them is content), then the
 *             third line must be the tag alone (leading whitespace and one CR allowed)
 */
function scanCountedBody(src: string, tag: string, contentStart: number, count: number, memo: ScanMemo | undefined): HeredocScan {
  const lineStart = lineStartAfter(src, contentStart, count, memo);
  if (lineStart < 0) return { ok: false, tag, reason: 'Unterminated' };
  let i = lineStart;
  while (i < src.length && src.charCodeAt(i) !== Code.LineFeed && isUnicodeWhitespace(src.charCodeAt(i))) i++;
  if (!src.startsWith(tag, i)) return { ok: false, tag, reason: 'Unterminated' };
  const end = i + tag.length;
  let rest = end;
  if (src.charCodeAt(rest) === Code.CarriageReturn) rest++;
  if (rest < src.length && src.charCodeAt(rest) !== Code.LineFeed) {
    return { ok: false, tag, reason: 'Unterminated' };
  }
  return { ok: true, tag, contentStart, contentEnd: lineStart, end, escaped: false };
}

/** Start of the line `lines` lines after the line start `from`, or -1 when the text ends first. */
function lineStartAfter(src: string, from: number, lines: number, memo: ScanMemo | undefined): number {
  if (lines === 0) return from;
  // perf: with a memo, its LF index answers without walking the lines (many openers, one text).
  if (memo !== undefined) {
    const newline = memo.nthLineFeed(from, lines - 1);
    return newline < 0 ? -1 : newline + 1;
  }
  let lineStart = from;
  for (let seen = 0; seen < lines; seen++) {
    const newline = src.indexOf('\n', lineStart);
    if (newline < 0) return -1;
    lineStart = newline + 1;
  }
  return lineStart;
}

/**
 *     <<EOF\nline1\n  EOF\n})      (every `\n` here is a literal backslash + n)
 *            ^ contentStart; `\\` is skipped as a pair so `\\n` is not a separator
 */
function scanEscapedBody(src: string, tag: string, contentStart: number, memo: ScanMemo | undefined): HeredocScan {
  // Shared between openers: a body starts right after `<<TAG\n` (no backslash before that
  // `\n`), so an earlier scan that passed it split a line there and read on exactly as a scan
  // from it would.
  const closeLine =
    memo === undefined
      ? firstEscapedCloseLine(src, tag, contentStart)
      : ScanMemo.searchOf(memo.escapedCloses, tag).find(contentStart, (from) => firstEscapedCloseLine(src, tag, from));
  if (closeLine < 0) return { ok: false, tag, reason: 'Unterminated' };
  const tagEnd = closeTagEnd(src, tag, closeLine, true);
  return {
    ok: true,
    tag,
    contentStart,
    contentEnd: Math.max(closeLine - 2, contentStart),
    end: isLiteralNewline(src, tagEnd) ? tagEnd + 2 : tagEnd,
    escaped: true,
  };
}

/** Start of the first escaped line at or after `from` that closes a `tag` body, or -1. */
function firstEscapedCloseLine(src: string, tag: string, from: number): number {
  const length = src.length;
  let lineStart = from;
  let i = from;
  for (;;) {
    const atEnd = i >= length;
    if (atEnd || isLiteralNewline(src, i)) {
      if (closeTagEnd(src, tag, lineStart, true) >= 0) return lineStart;
      if (atEnd) return -1;
      i += 2;
      lineStart = i;
    } else if (src.charCodeAt(i) === Code.Backslash && src.charCodeAt(i + 1) === Code.Backslash) {
      i += 2;
    } else {
      i++;
    }
  }
}

/** Index just past a successful heredoc at `start`, or -1 on any failure (or no heredoc). */
export function skipHeredocBody(src: string, start: number): number {
  const scan = scanHeredoc(src, start);
  return scan !== null && scan.ok ? scan.end : -1;
}

/** The body of a successful scan, decoded when the model used the escaped form. */
export function heredocContent(src: string, scan: HeredocScan & { ok: true }, memo?: ScanMemo): string {
  const { contentStart: start, contentEnd: stop } = scan;
  if (!scan.escaped) return src.slice(start, stop);
  if (memo === undefined) return decodeEscapedRange(src, start, stop).out;
  // An escaped body starts where an earlier decoding of a body with the same end split a line,
  // so its decoding is a suffix of that one.
  const last = memo.escapedBodies.get(scan.tag);
  if (last !== undefined && last.stop === stop && last.start <= start) return decodedSuffix(last, start);
  const decoded = decodeEscapedRange(src, start, stop);
  memo.escapedBodies.set(scan.tag, decoded);
  return decoded.out;
}

/**
 * Decode an escaped-form body: `\n` LF, `\t` TAB, `\r` CR, `\"` quote, `\\` backslash. Any
 * other backslash pair is kept as written, as is a lone trailing backslash.
 */
export function unescapeHeredocBody(raw: string): string {
  return decodeEscapedRange(raw, 0, raw.length).out;
}

/** {@link unescapeHeredocBody} of `src[start, stop)`, with where each decoded escape ends. */
function decodeEscapedRange(src: string, start: number, stop: number): DecodedRange {
  const decoded: DecodedRange = { start, stop, out: '', sourceMarks: [], outMarks: [] };
  let out = '';
  let chunkStart = start;
  let i = start;
  while (i < stop) {
    if (src.charCodeAt(i) !== Code.Backslash || i + 1 >= stop) {
      i++;
      continue;
    }
    const escape = decodeHeredocEscape(src.charCodeAt(i + 1));
    if (escape === undefined) {
      i += 2;
      continue;
    }
    out += src.slice(chunkStart, i) + escape;
    i += 2;
    chunkStart = i;
    decoded.sourceMarks.push(i);
    decoded.outMarks.push(out.length);
  }
  decoded.out = out + src.slice(chunkStart, stop);
  return decoded;
}

/** The escapes of the escaped form; any other backslash pair stays as written. */
const HEREDOC_ESCAPES = tableByCode([
  [Code.LowerN, '\n'],
  [Code.LowerT, '\t'],
  [Code.LowerR, '\r'],
  [Code.Quote, '"'],
  [Code.Backslash, '\\'],
]);

function decodeHeredocEscape(code: number): string | undefined {
  return code < 0x80 ? HEREDOC_ESCAPES[code] : undefined;
}

/**
 * The decoded body when `value` (after leading whitespace) is exactly one heredoc followed
 * only by whitespace; otherwise `null`.
 */
export function unwrapFullyWrappingHeredoc(value: string): string | null {
  let start = 0;
  while (isUnicodeWhitespace(value.charCodeAt(start))) start++;
  const scan = scanHeredoc(value, start);
  if (scan === null || !scan.ok) return null;
  for (let i = scan.end; i < value.length; i++) {
    if (!isUnicodeWhitespace(value.charCodeAt(i))) return null;
  }
  return heredocContent(value, scan);
}
