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
import { fenceCloseAfter } from './fence.js';
import { fenceOpenAt } from './answer-fences.js';
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

/**
 * Where the fence-open line just before `start` begins, or -1: `start` begins its line (after
 * blanks), and the line before, at or after `floor`, is blanks, three or more backticks, an info
 * word or none, blanks, and closes no block opened after `floor` (the closing line of a Python
 * block right before a call ends that block; it frames nothing).
 */
export function fenceOpenBefore(text: string, start: number, floor: number): number {
  let i = start - 1;
  while (i >= floor && isBlank(text.charCodeAt(i))) i--;
  if (i < floor || text.charCodeAt(i) !== Code.LineFeed) return -1;
  const lineEnd = i;
  let lineStart = lineEnd;
  while (lineStart > 0 && text.charCodeAt(lineStart - 1) !== Code.LineFeed) lineStart--;
  if (lineStart < floor) return -1;
  let at = lineStart;
  while (at < lineEnd && isBlank(text.charCodeAt(at))) at++;
  if (!text.startsWith(TICKS, at)) return -1;
  at += TICKS.length;
  while (text.charCodeAt(at) === Code.Backtick) at++;
  while (at < lineEnd && isInfoCode(text.charCodeAt(at))) at++;
  while (at < lineEnd && isBlank(text.charCodeAt(at))) at++;
  if (at !== lineEnd) return -1;
  // A fence line that closes a block opened before it (after `floor`) opens nothing.
  return fenceOpenAt(text, lineStart, floor) ? -1 : lineStart;
}

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
  const close = fenceCloseAfter(text, region.end, BACKTICK_FENCE);
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
