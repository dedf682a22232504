import { TAG_LITERALS } from '../../dialects/vocabulary.js';
import { Code, isAsciiSpace } from '../../lex/codes.js';

export interface MarkupParameter {
  key: string;
  /** The raw text between the open tag and `</parameter>`. */
  raw: string;
}

/** Counts characters examined, so tests can check the scan stays linear without a clock. */
export interface ScanMeter {
  steps: number;
}

export interface ParameterScan {
  params: MarkupParameter[];
  /** `inner` with every recognised parameter block removed. */
  leftover: string;
}

const PARAMETER_OPEN = TAG_LITERALS.parameter_open;
const PARAMETER_CLOSE = TAG_LITERALS.parameter_close;
const NAME_ATTRIBUTE = 'name="';

const isAlpha = (c: number): boolean => (c >= Code.LowerA && c <= Code.LowerZ) || (c >= Code.UpperA && c <= Code.UpperZ);
const isDigit = (c: number): boolean => c >= Code.Digit0 && c <= Code.Digit9;
/** `[A-Za-z0-9_]` */
const isKeyStart = (c: number): boolean => isAlpha(c) || isDigit(c) || c === Code.Underscore;
/** `[A-Za-z_]` */
const isAttrStart = (c: number): boolean => isAlpha(c) || c === Code.Underscore;
/** `[A-Za-z0-9_.-]` */
const isNamePart = (c: number): boolean => isKeyStart(c) || c === Code.Dot || c === Code.Dash;
/** `\s` as the reference regex reads it, for the ASCII whitespace a tag can hold. */
function skipSpaces(text: string, pos: number): number {
  while (pos < text.length && isAsciiSpace(text.charCodeAt(pos))) pos++;
  return pos;
}

/**
 * Reads a parameter open tag's header after `<parameter`, returning the key and the offset
 * just past `>`, or how far it looked when the header is not one of the two accepted forms:
 *
 *   <parameter=command>            <parameter name="file" string="true">
 *             ^ pos                          ^ pos
 */
type HeaderRead = { key: string; end: number } | { failedAt: number };

function readHeader(text: string, pos: number): HeaderRead {
  const c = text.charCodeAt(pos);
  let key: string;
  if (c === Code.Equals) {
    const start = pos + 1;
    if (!isKeyStart(text.charCodeAt(start))) return { failedAt: start };
    let end = start + 1;
    while (end < text.length && isNamePart(text.charCodeAt(end))) end++;
    key = text.slice(start, end);
    pos = end;
  } else {
    const afterSpace = skipSpaces(text, pos);
    if (afterSpace === pos || !text.startsWith(NAME_ATTRIBUTE, afterSpace)) return { failedAt: afterSpace + NAME_ATTRIBUTE.length };
    const start = afterSpace + NAME_ATTRIBUTE.length;
    const quote = text.indexOf('"', start);
    if (quote <= start) return { failedAt: quote < 0 ? text.length : quote }; // no closing quote, or an empty name
    key = text.slice(start, quote);
    pos = quote + 1;
    // Extra attributes: ( \s+ name="value" )*
    for (;;) {
      const attrAt = skipSpaces(text, pos);
      if (attrAt === pos || !isAttrStart(text.charCodeAt(attrAt))) break;
      let nameEnd = attrAt + 1;
      while (nameEnd < text.length && isNamePart(text.charCodeAt(nameEnd))) nameEnd++;
      if (text.charCodeAt(nameEnd) !== Code.Equals || text.charCodeAt(nameEnd + 1) !== Code.Quote) break;
      const valueEnd = text.indexOf('"', nameEnd + 2);
      if (valueEnd < 0) return { failedAt: text.length };
      pos = valueEnd + 1;
    }
  }
  pos = skipSpaces(text, pos);
  if (text.charCodeAt(pos) !== Code.GreaterThan) return { failedAt: pos };
  return { key, end: pos + 1 };
}

/**
 * Every `<parameter…>value</parameter>` block in `inner`, in order, the way the reference's
 * `markup_parameter` pattern matches them (each value runs to the first close tag after its
 * header). Hand-written so that unclosed or malformed headers cost one pass, not a rescan per
 * header. Each search starts past the previous one, so the scan is linear.
 */
export function scanParameters(inner: string, meter?: ScanMeter): ParameterScan {
  const params: MarkupParameter[] = [];
  const kept: string[] = [];
  let copiedTo = 0;
  let searchFrom = 0;
  for (;;) {
    const open = inner.indexOf(PARAMETER_OPEN, searchFrom);
    if (meter) meter.steps += (open < 0 ? inner.length : open) - searchFrom + 1;
    if (open < 0) break;
    const header = readHeader(inner, open + PARAMETER_OPEN.length);
    if ('failedAt' in header) {
      if (meter) meter.steps += header.failedAt - open;
      searchFrom = open + 1;
      continue;
    }
    const close = inner.indexOf(PARAMETER_CLOSE, header.end);
    if (meter) meter.steps += (close < 0 ? inner.length : close) - open;
    // No close after this header means no later header can close either.
    if (close < 0) break;
    params.push({ key: header.key, raw: inner.slice(header.end, close) });
    kept.push(inner.slice(copiedTo, open));
    copiedTo = close + PARAMETER_CLOSE.length;
    searchFrom = copiedTo;
  }
  kept.push(inner.slice(copiedTo));
  return { params, leftover: kept.join('') };
}

/** Removes exactly one framing line break at each end: `\n` or `\r\n`. */
export function unframe(value: string): string {
  let start = 0;
  let end = value.length;
  if (value.charCodeAt(0) === Code.CarriageReturn && value.charCodeAt(1) === Code.LineFeed) start = 2;
  else if (value.charCodeAt(0) === Code.LineFeed) start = 1;
  if (end - start >= 2 && value.charCodeAt(end - 2) === Code.CarriageReturn && value.charCodeAt(end - 1) === Code.LineFeed) end -= 2;
  else if (end - start >= 1 && value.charCodeAt(end - 1) === Code.LineFeed) end -= 1;
  return value.slice(start, end);
}
