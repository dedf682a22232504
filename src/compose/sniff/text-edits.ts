/**
 * Whole-text edits of the bare-call sniffer: the exact code wrapper, the `<tool_call>` wrapper
 * tags, empty fence pairs and blank-line runs. Each is one left-to-right pass over char codes.
 */
import { TAG_LITERALS } from '../../dialects/vocabulary.js';
import { Code, isUnicodeWhitespace } from '../../lex/codes.js';
import { scanHeredoc } from '../../lex/heredoc.js';
import { trimBounds } from '../../lex/render.js';
import { skipStringSpan } from '../../lex/string-span.js';
import type { WorkMeter } from './meter.js';

function startsWithFence(text: string, at: number): boolean {
  return (
    text.charCodeAt(at) === Code.Backtick &&
    text.charCodeAt(at + 1) === Code.Backtick &&
    text.charCodeAt(at + 2) === Code.Backtick
  );
}

/**
 * The inside of a response that is exactly one code wrapper, trimmed, or null.
 *
 *     ```typescript\nedit({ ... })\n```      `edit({ ... })`
 *     ^ opener line   ^ inner      ^ last    ^ inner has no backtick
 */
export function unwrapExactCodeWrapper(text: string): string | null {
  const [start, end] = trimBounds(text);
  if (startsWithFence(text, start)) {
    const newline = text.indexOf('\n', start + 3);
    if (newline < 0 || newline >= end) return null;
    const innerStart = newline + 1;
    // The closing fence must be the last three characters and must not overlap the opener line.
    if (end - innerStart < 3 || !startsWithFence(text, end - 3)) return null;
    const [a, b] = trimBounds(text, innerStart, end - 3);
    return text.slice(a, b);
  }
  if (end - start < 2 || text.charCodeAt(start) !== Code.Backtick || text.charCodeAt(end - 1) !== Code.Backtick) {
    return null;
  }
  const inner = text.indexOf('`', start + 1);
  if (inner !== end - 1) return null;
  const [a, b] = trimBounds(text, start + 1, end - 1);
  return text.slice(a, b);
}

const WRAPPER_TAGS = TAG_LITERALS.tool_call_wrappers;

function wrapperTagAt(text: string, at: number): number {
  if (text.charCodeAt(at) !== Code.LessThan) return 0;
  for (const tag of WRAPPER_TAGS) if (text.startsWith(tag, at)) return tag.length;
  return 0;
}

/**
 * Replace each `<tool_call>` / `</tool_call>` / `<toolcall>` / `</toolcall>` outside quoted spans
 * and heredoc bodies with a newline, so `<tool_call>run({...})</tool_call>` puts the call at a
 * line start and no wrapper fragment reaches the prose.
 *
 * Linear: a quote kind (or a heredoc tag) that once ran unterminated to the end stays
 * unterminated from every later start, so it is remembered instead of rescanned.
 */
export function stripToolCallWrappers(text: string, meter: WorkMeter): string {
  if (!WRAPPER_TAGS.some((tag) => text.includes(tag))) return text;
  const unterminatedQuotes = new Set<number>();
  const unterminatedTags = new Set<string>();
  let out = '';
  let copiedTo = 0;
  let i = 0;
  const length = text.length;
  while (i < length) {
    meter.steps++;
    const code = text.charCodeAt(i);
    if ((code === Code.Quote || code === Code.Apostrophe || code === Code.Backtick) && !unterminatedQuotes.has(code)) {
      const after = skipStringSpan(text, i);
      if (after > 0) {
        meter.steps += after - i;
        i = after;
        continue;
      }
      meter.steps += length - i;
      unterminatedQuotes.add(code);
    }
    if (code === Code.LessThan && text.charCodeAt(i + 1) === Code.LessThan) {
      const after = skipHeredoc(text, i, unterminatedTags, meter);
      if (after > 0) {
        i = after;
        continue;
      }
    }
    const tagLength = wrapperTagAt(text, i);
    if (tagLength > 0) {
      out += text.slice(copiedTo, i) + '\n';
      i += tagLength;
      copiedTo = i;
      continue;
    }
    i++;
  }
  return copiedTo === 0 ? text : out + text.slice(copiedTo);
}

/** End of the complete heredoc at `at`, or -1 (not a heredoc, or never closed). */
function skipHeredoc(text: string, at: number, unterminatedTags: Set<string>, meter: WorkMeter): number {
  let tagEnd = at + 2;
  while (isTagLike(text.charCodeAt(tagEnd))) tagEnd++;
  meter.steps += tagEnd - at;
  // Only a plain body (`<<TAG` then a newline) fails the same way from every later start: a
  // counted or escaped body depends on where it starts.
  const plain = text.charCodeAt(tagEnd) === Code.LineFeed || (text.charCodeAt(tagEnd) === Code.CarriageReturn && text.charCodeAt(tagEnd + 1) === Code.LineFeed);
  const opener = plain ? text.slice(at + 2, tagEnd) : '';
  if (plain && !opener.includes(':') && unterminatedTags.has(opener)) return -1;
  const scan = scanHeredoc(text, at);
  if (scan === null) return -1;
  if (scan.ok) {
    meter.steps += scan.end - at;
    return scan.end;
  }
  meter.steps += text.length - at;
  if (plain && !opener.includes(':') && scan.reason === 'Unterminated') unterminatedTags.add(opener);
  return -1;
}

function isTagLike(code: number): boolean {
  return (
    (code >= Code.LowerA && code <= Code.LowerZ) ||
    (code >= Code.UpperA && code <= Code.UpperZ) ||
    (code >= Code.Digit0 && code <= Code.Digit9) ||
    code === Code.Underscore ||
    code === Code.Quote ||
    code === Code.Apostrophe ||
    code === Code.Colon
  );
}

/**
 * Remove empty fence pairs: a line ```` ```lang ```` whose next non-whitespace text is another
 * ```` ``` ```` (same pattern as `^[ \t]*```[^\n]*\n\s*```[ \t]*\n?` in multi-line mode).
 */
export function stripEmptyFences(text: string, meter: WorkMeter): string {
  if (!text.includes('```')) return text;
  let out = '';
  let copiedTo = 0;
  let lineStart = 0;
  const length = text.length;
  while (lineStart < length) {
    const matchEnd = emptyFencePairAt(text, lineStart, meter);
    if (matchEnd > lineStart) {
      out += text.slice(copiedTo, lineStart);
      copiedTo = matchEnd;
      // After a match that did not swallow a newline the next `^` is the next line start.
      if (text.charCodeAt(matchEnd - 1) === Code.LineFeed) {
        lineStart = matchEnd;
        continue;
      }
      lineStart = matchEnd;
    }
    const newline = text.indexOf('\n', lineStart);
    meter.steps += (newline < 0 ? length : newline) - lineStart + 1;
    if (newline < 0) break;
    lineStart = newline + 1;
  }
  return copiedTo === 0 ? text : out + text.slice(copiedTo);
}

/** End of an empty fence pair starting at line start `at`, or -1. */
function emptyFencePairAt(text: string, at: number, meter: WorkMeter): number {
  let i = at;
  while (text.charCodeAt(i) === Code.Space || text.charCodeAt(i) === Code.Tab) i++;
  if (!startsWithFence(text, i)) return -1;
  const newline = text.indexOf('\n', i + 3);
  if (newline < 0) return -1;
  i = newline + 1;
  while (i < text.length && isUnicodeWhitespace(text.charCodeAt(i))) i++;
  meter.steps += i - at;
  if (!startsWithFence(text, i)) return -1;
  i += 3;
  while (text.charCodeAt(i) === Code.Space || text.charCodeAt(i) === Code.Tab) i++;
  if (text.charCodeAt(i) === Code.LineFeed) i++;
  return i;
}

/** Runs of three or more `\n` become two (one blank line). */
export function collapseBlankLines(text: string, meter: WorkMeter): string {
  let out = '';
  let copiedTo = 0;
  let i = text.indexOf('\n\n\n');
  while (i >= 0) {
    let runEnd = i + 3;
    while (text.charCodeAt(runEnd) === Code.LineFeed) runEnd++;
    meter.steps += runEnd - i;
    out += text.slice(copiedTo, i + 2);
    copiedTo = runEnd;
    i = text.indexOf('\n\n\n', runEnd);
  }
  meter.steps += text.length;
  return copiedTo === 0 ? text : out + text.slice(copiedTo);
}
