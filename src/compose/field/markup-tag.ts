/**
 * Open tags of the parameter-markup grammars, read forward from a cursor with bounded work:
 *
 *     <invoke name="get_weather" id=2>       attributes: double, single or no quotes
 *     <function=get_weather>                 the name runs to the tag's end literal
 *     <|open|>argument key="q&amp;a" type="string"<|sep|>   the end literal may be a token
 *
 * Attribute values are entity-decoded (`&quot;`, `&amp;`, `&#39;`, `&#x27;`): chat templates escape them.
 */
import type { MarkupTag } from '../../dialects/field/index.js';
import { FIELD_NAME_MAX } from '../../dialects/field/names.js';
import { DIALECTS } from '../../dialects/vocabulary.js';
import { decodeCharacterReferences } from '../../lex/entities.js';
import { Code, isJsonSpace, isJsSpace } from '../../lex/codes.js';
import { isIdentPart } from '../../lex/ident.js';
import { indexWithin, matchListAt, type SearchList } from './cursor.js';

/** The longest open tag read; a longer header is not a tag. */
export const TAG_HEADER_MAX = 2048;

export type OpenTag =
  /** `unterminated`: the header's end literal was missing and the name was read up to its line break. */
  | { readonly ok: true; readonly name: string; readonly attributes: ReadonlyMap<string, string>; readonly end: number; readonly unterminated: boolean }
  /** `eof`: the text ended inside the tag; otherwise the header is not a tag of this form. */
  | { readonly ok: false; readonly eof: boolean };

const NOT_A_TAG: OpenTag = { ok: false, eof: false };
// perf: a tag whose name is its header (`<function=look>`) has no attributes; one shared empty
// map serves them all (a fresh one per tag was 6 % of the bytes a Qwen3-Coder parse allocates).
const NO_ATTRIBUTES: ReadonlyMap<string, string> = new Map();
const CUT_OFF: OpenTag = { ok: false, eof: true };

function isAttributeNameCode(code: number): boolean {
  return (
    (code >= Code.LowerA && code <= Code.LowerZ) ||
    (code >= Code.UpperA && code <= Code.UpperZ) ||
    (code >= Code.Digit0 && code <= Code.Digit9) ||
    code === Code.Underscore ||
    code === Code.Dash ||
    code === 0x3a // ':'
  );
}

export function decodeAttribute(value: string): string {
  return decodeCharacterReferences(value, DIALECTS.HTML_ENTITIES);
}

/** A tag record whose `open` list is compiled for `matchListAt` (a reader's own copy). */
export type ListedTag = Omit<MarkupTag, 'open'> & { readonly open: SearchList };

/** The tag at `at`, or null when none of `tag.open` stands there. */
export function readOpenTag(text: string, at: number, tag: ListedTag): OpenTag | null {
  const open = matchListAt(text, at, tag.open);
  if (open === null) return null;
  const from = at + open.length;
  if (tag.nameAttribute === null) {
    const end = indexWithin(text, tag.end, from, FIELD_NAME_MAX);
    if (end < 0 && from + FIELD_NAME_MAX + tag.end.length >= text.length) return CUT_OFF;
    const name = end < 0 ? null : headerName(text, from, end);
    if (name !== null) return { ok: true, name, attributes: NO_ATTRIBUTES, end: end + tag.end.length, unterminated: false };
    return unterminatedHeader(text, from, end) ?? NOT_A_TAG;
  }
  if (from >= text.length) return CUT_OFF;
  if (!isJsonSpace(text.charCodeAt(from))) return NOT_A_TAG;
  return readAttributes(text, from, tag);
}

/**
 * The name a header spells between `from` and `end`, its blanks trimmed, or null when it is
 * empty or holds a `<` or a line break. perf: one look at each character and one slice, where
 * `trim` made a copy that two searches then read again (twice per Qwen3-Coder call).
 */
function headerName(text: string, from: number, end: number): string | null {
  let start = from;
  let stop = end;
  while (start < stop && isJsSpace(text.charCodeAt(start))) start++;
  while (stop > start && isJsSpace(text.charCodeAt(stop - 1))) stop--;
  if (start === stop) return null;
  for (let i = start; i < stop; i++) {
    const code = text.charCodeAt(i);
    if (code === Code.LessThan || code === Code.LineFeed) return null;
  }
  return text.slice(start, stop);
}

/**
 * A header whose end literal the model left out (`<function=read_file⏎<parameter=path>`,
 * `<parameter=path⏎/etc/hosts⏎</parameter>`: quantised Qwen3-Coder models write both): a name
 * alone on the opener's line, and the next markup (a `<`) on a later line before any end
 * literal. The tag ends at the line break, so a value keeps the line after it. A header whose
 * line break runs on to an end literal with no `<` (`<function=lo⏎ok>`) stays no tag.
 */
function unterminatedHeader(text: string, from: number, end: number): OpenTag | null {
  let pos = from;
  while (isLineBlank(text.charCodeAt(pos))) pos++;
  const start = pos;
  while (isHeaderNameCode(text.charCodeAt(pos))) pos++;
  if (pos === start) return null;
  const stop = pos;
  while (isLineBlank(text.charCodeAt(pos))) pos++;
  if (text.charCodeAt(pos) === Code.CarriageReturn) pos++;
  if (text.charCodeAt(pos) !== Code.LineFeed) return null;
  const markup = text.indexOf('<', pos);
  if (markup < 0 || (end >= 0 && markup > end)) return null;
  return { ok: true, name: text.slice(start, stop), attributes: NO_ATTRIBUTES, end: pos, unterminated: true };
}

function isLineBlank(code: number): boolean {
  return code === Code.Space || code === Code.Tab;
}

function isHeaderNameCode(code: number): boolean {
  return isIdentPart(code) || code === Code.Dash || code === Code.Dot || code === 0x3a; // ':'
}

function readAttributes(text: string, from: number, tag: ListedTag): OpenTag {
  const attributes = new Map<string, string>();
  const limit = from + TAG_HEADER_MAX;
  const endCode = tag.end.charCodeAt(0);
  let pos = from;
  for (;;) {
    while (pos < text.length && isJsonSpace(text.charCodeAt(pos))) pos++;
    if (pos >= text.length) return CUT_OFF;
    if (pos > limit) return NOT_A_TAG;
    if (text.startsWith(tag.end, pos)) {
      pos += tag.end.length;
      break;
    }
    const nameStart = pos;
    while (pos < text.length && isAttributeNameCode(text.charCodeAt(pos))) pos++;
    if (pos === nameStart) return pos >= text.length ? CUT_OFF : NOT_A_TAG;
    const name = text.slice(nameStart, pos);
    while (pos < text.length && isJsonSpace(text.charCodeAt(pos))) pos++;
    if (pos >= text.length) return CUT_OFF;
    if (text.charCodeAt(pos) !== Code.Equals) return NOT_A_TAG;
    pos++;
    while (pos < text.length && isJsonSpace(text.charCodeAt(pos))) pos++;
    if (pos >= text.length) return CUT_OFF;
    const quote = text.charCodeAt(pos);
    let value: string;
    if (quote === Code.Quote || quote === 0x27) {
      const stop = Math.min(text.length, limit);
      let close = pos + 1;
      while (close < stop && text.charCodeAt(close) !== quote) close++;
      if (close >= stop) return stop >= text.length ? CUT_OFF : NOT_A_TAG;
      value = text.slice(pos + 1, close);
      pos = close + 1;
    } else {
      const valueStart = pos;
      while (pos < text.length && pos <= limit && !isJsonSpace(text.charCodeAt(pos)) && !(text.charCodeAt(pos) === endCode && text.startsWith(tag.end, pos))) pos++;
      if (pos >= text.length) return CUT_OFF;
      value = text.slice(valueStart, pos);
    }
    if (!attributes.has(name)) attributes.set(name, decodeAttribute(value));
  }
  const name = attributes.get(tag.nameAttribute!);
  if (name === undefined || name.trim() === '') return NOT_A_TAG;
  return { ok: true, name: name.trim(), attributes, end: pos, unterminated: false };
}
