/**
 * The sniffer's prose: the text with every parsed call cut out, together with the fence lines
 * that only wrapped calls.
 *
 *     Here it is:\n```python\nrun({ command: "ls" })\n```\nDone.
 *                  ^^^^^^^^^^ ^^^^^^^^^^^^^^^^^^^^^^  ^^^^ cut      -> "Here it is:\nDone."
 *
 * Between two consecutive fence lines: if calls were found, both fence lines go; if none were,
 * everything from the first fence line through the second goes (the reference treats such a
 * pair as a failed call attempt; the gateway, `keepCodeBlocks`, keeps such a block: it is code
 * the model showed, and a gateway loses no prose). An odd last fence line goes when calls follow
 * it. Where two cuts start at the same offset the earlier-recorded one (a fence line) wins.
 */
import type { FenceLine, LineScan } from './line-scan.js';
import type { WorkMeter } from './meter.js';
import { trimUnicode } from '../../lex/render.js';
import { collapseBlankLines, stripEmptyFences } from './text-edits.js';

export function assembleProse(text: string, scan: LineScan, meter: WorkMeter, keepCodeBlocks = false): string {
  // perf: with no call and no fence pair there is nothing to cut (the common prose line).
  const cuts = scan.callRanges.length === 0 && scan.fences.length < 2 ? [] : proseCuts(scan, keepCodeBlocks);
  if (cuts.length === 0) return stripEmptyFences(text, meter);
  let kept = '';
  let cursor = 0;
  for (const [start, end] of cuts) {
    if (start > cursor) kept += text.slice(cursor, start);
    if (end > cursor) cursor = end;
  }
  if (cursor < text.length) kept += text.slice(cursor);
  meter.steps += text.length + cuts.length;
  return trimUnicode(collapseBlankLines(stripEmptyFences(kept, meter), meter));
}

function proseCuts(scan: LineScan, keepCodeBlocks: boolean): [number, number][] {
  const { fences, calls } = scan;
  const wrappers: [number, number][] = [];
  const emptyPairs: [number, number][] = [];
  for (let i = 0; i + 1 < fences.length; i++) {
    const open = fences[i] as FenceLine;
    const close = fences[i + 1] as FenceLine;
    if (close.callsBefore > open.callsBefore) wrappers.push([open.start, open.end], [close.start, close.end]);
    else if (!keepCodeBlocks) emptyPairs.push([open.start, close.end]);
  }
  const last = fences[fences.length - 1];
  if (fences.length % 2 === 1 && last !== undefined && calls.length > last.callsBefore) wrappers.push([last.start, last.end]);
  // Stable sorts keep call ranges and wrapper fences ahead of an empty pair at the same start.
  const cuts = [...scan.callRanges, ...wrappers].sort((a, b) => a[0] - b[0]);
  cuts.push(...emptyPairs);
  cuts.sort((a, b) => a[0] - b[0]);
  const unique: [number, number][] = [];
  for (const cut of cuts) {
    const previous = unique[unique.length - 1];
    if (previous === undefined || previous[0] !== cut[0]) unique.push(cut);
  }
  return unique;
}
