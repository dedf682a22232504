/**
 * A Markdown code fence around a call region: a line that opens a backtick fence (an info word
 * or none) right before the region, and a closing fence line right after it, with only blanks
 * between. The fence's lines are markers of the call: dropped (`fenced_narration`) with it, so
 * the answer keeps no empty fence (`Here it is:⏎```⏎<tool_call>…</tool_call>⏎```` reads as
 * `Here it is:` and the call). Both look only at the lines next to the region.
 *
 * A stream may release such a region only once the line after it is settled (`frameUnsettled`):
 * the closing line may still come, or turn out to open another block.
 */
import type { CodeFence } from '../../dialects/field/index.js';
import { Code } from '../../lex/codes.js';
import { fenceCloseAfter, fenceCloseCut } from './fence.js';
import { skipSpace } from './cursor.js';
import type { FieldRegion } from './region.js';

const TICKS = '```';
/** A backtick fence, for its closing line (fence.ts). */
const BACKTICK_FENCE: CodeFence = { open: [TICKS], close: TICKS };

function isBlank(code: number): boolean {
  return code === Code.Space || code === Code.Tab || code === Code.CarriageReturn;
}

function isInfoCode(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x2d || code === 0x5f;
}

/** A character a fence-open line may hold: blanks, backticks, an info word, a label's letters and colon. */
function isFenceLineCode(code: number): boolean {
  return isBlank(code) || isInfoCode(code) || code === Code.Backtick || code === Code.Colon;
}

/**
 * Where the fence-open line before `start` begins, or -1: `start` begins its line (after
 * blanks), and the last line before it that is not blank, at or after `floor`, is blanks, three
 * or more backticks, an info word or none, blanks (blank lines may stand between, as in
 * `` ```json⏎⏎    <function_call> {…} ``).
 */
export function fenceOpenBefore(text: string, start: number, floor: number): number {
  let i = start - 1;
  while (i >= floor && isBlank(text.charCodeAt(i))) i--;
  if (i < floor || text.charCodeAt(i) !== Code.LineFeed) return -1;
  // Blank lines between the fence line and the region's line.
  for (;;) {
    let j = i - 1;
    while (j >= floor && isBlank(text.charCodeAt(j))) j--;
    if (j < floor || text.charCodeAt(j) !== Code.LineFeed) break;
    i = j;
  }
  const lineEnd = i;
  let lineStart = lineEnd;
  // perf: a character no fence line holds (a sentence's `.`) ends the look back at once, so a
  // long line of prose before the region costs nothing.
  for (let code = text.charCodeAt(lineStart - 1); lineStart > 0 && code !== Code.LineFeed; code = text.charCodeAt(--lineStart - 1)) {
    if (!isFenceLineCode(code)) return -1;
  }
  if (lineStart < floor) return -1;
  let at = lineStart;
  while (at < lineEnd && isBlank(text.charCodeAt(at))) at++;
  // A one-word label before the ticks, as Command R+ writes `Action: ```json`: part of the line.
  at = afterLabel(text, at, lineEnd);
  if (!text.startsWith(TICKS, at)) return -1;
  at += TICKS.length;
  while (text.charCodeAt(at) === Code.Backtick) at++;
  while (at < lineEnd && isInfoCode(text.charCodeAt(at))) at++;
  while (at < lineEnd && isBlank(text.charCodeAt(at))) at++;
  if (at !== lineEnd) return -1;
  // A fence line that closes a block opened after `floor` (Markdown pairs fence lines in order:
  // `⏎```⏎```⏎` is an empty block) opens none.
  return closesBlock(text, floor, lineStart) ? -1 : lineStart;
}

/**
 * Whether the backtick fence lines from `floor` up to `lineStart` (a line's start) are odd in
 * number, so that the line at `lineStart` would close the last of them. Looks at each line of
 * the stretch once.
 */
function closesBlock(text: string, floor: number, lineStart: number): boolean {
  let open = false;
  for (let at = floor; at < lineStart; ) {
    let first = at;
    while (first < lineStart && isBlank(text.charCodeAt(first))) first++;
    if (text.startsWith(TICKS, first)) open = !open;
    const newline = text.indexOf('\n', first);
    if (newline < 0 || newline >= lineStart) break;
    at = newline + 1;
  }
  return open;
}

/** Past a label of one word of letters and a colon, and the blanks after it, at `at`; else `at`. */
function afterLabel(text: string, at: number, lineEnd: number): number {
  let i = at;
  while (i < lineEnd && i - at < LABEL_MAX) {
    const code = text.charCodeAt(i);
    if (!((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a))) break;
    i++;
  }
  if (i === at || text.charCodeAt(i) !== Code.Colon || !isBlank(text.charCodeAt(i + 1))) return at;
  i++;
  while (i < lineEnd && isBlank(text.charCodeAt(i))) i++;
  return i;
}

/** How long a fence line's label may be. */
const LABEL_MAX = 24;

/** The first character after `end` that is neither blank nor a line break. */
function nextVisible(text: string, end: number): number {
  let i = end;
  while (i < text.length && (isBlank(text.charCodeAt(i)) || text.charCodeAt(i) === Code.LineFeed)) i++;
  return i;
}

/** `region` with the fence around it taken in (its two lines dropped), or itself when no fence frames it. */
export function withFenceFrame(text: string, region: FieldRegion, floor: number): FieldRegion {
  if (region.calls.length === 0) return region;
  const open = fenceOpenBefore(text, region.start, floor);
  if (open < 0) return region;
  // A closing line the end of the text cut (Gemma writes two backticks more often than three):
  // the frame's all the same.
  const close = fenceCloseAfter(text, region.end, BACKTICK_FENCE) ?? (fenceCloseCut(text, region.end, BACKTICK_FENCE) ? { at: skipSpace(text, region.end), end: text.length } : null);
  if (close === null) return region;
  const dropped = [
    { text: text.slice(open, region.start).trim(), reason: 'fenced_narration' as const },
    ...region.dropped,
    { text: text.slice(close.at, close.end).trim(), reason: 'fenced_narration' as const },
  ];
  return { ...region, start: open, end: close.end, dropped, framed: true };
}

/**
 * Whether a stream must wait before releasing `region` (`floor`: where the text it may look at
 * begins): its frame's closing line has not ended yet, or a fence line stands just before it and
 * what follows it cannot tell yet whether a closing line comes.
 */
export function frameUnsettled(held: string, region: FieldRegion, floor: number): boolean {
  if (region.framed === true) return held.indexOf('\n', region.end) < 0;
  if (region.calls.length === 0 || fenceOpenBefore(held, region.start, floor) < 0) return false;
  const next = nextVisible(held, region.end);
  if (next >= held.length) return true;
  return held.charCodeAt(next) === Code.Backtick && held.indexOf('\n', next) < 0;
}
