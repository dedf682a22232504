/**
 * The part of a stream's held text that may be released: everything up to the end of the last
 * field region that no later text can change. The one-shot parse reads the text between two
 * regions on its own (src/compose/field/lane.ts), so a released region and the text before it
 * read exactly as they will in the whole text. A region may be released when:
 *
 * - no opener before it was refused by every reader (more text might let a reader take it,
 *   and its region would then swallow this one);
 * - it ends with its grammar's outermost close (`closers`): a region that ends any other way
 *   may still grow with the text.
 */
import { assembleRegions, fieldRegions } from '../field/lane.js';
import { finishPiece, type TurnReader } from '../parse.js';
import type { ParseResult, TurnPart } from '../types.js';
import { jsonOpenAt, wholeRegion } from './closers.js';
import { orderedParts } from './events.js';
import { referenceBlockTags } from '../field/call-markup.js';
import type { FieldRegion } from '../field/region.js';

export interface Release {
  /** Where the released text ends, in the held text. */
  readonly end: number;
  readonly result: ParseResult;
  readonly parts: readonly TurnPart[];
  /** The characters of the released text read by the rest lane (not inside a region). */
  readonly restLength: number;
}

/**
 * Where complete blocks of the reference grammar (`<tool_call>look({…})</tool_call>`), which
 * no field reader takes, let the text from `from` be cut: after the last such block that comes
 * before any field region and any other refused opener, whose close does not stand inside an
 * open string. The rest lane reads a piece's blocks one by one, so the text up to a block's end
 * reads the same whatever follows it.
 */
function referenceCut(held: string, from: number, regions: readonly FieldRegion[], rejected: readonly number[]): number {
  const { open, close } = referenceTags();
  const nextRegion = regions.find((r) => r.start >= from)?.start ?? Infinity;
  let cut = from;
  let pos = from;
  for (;;) {
    const o = earliestOf(held, open, pos);
    if (o === null || o.at >= nextRegion || rejected.some((r) => r >= pos && r < o.at)) break;
    const c = earliestOf(held, close, o.at + o.length);
    if (c === null) break;
    const end = c.at + c.length;
    if (end > nextRegion || jsonOpenAt(held, o.at + o.length, c.at)) break;
    cut = pos = end;
  }
  return cut;
}

let tags: { readonly open: readonly string[]; readonly close: readonly string[] } | null = null;

function referenceTags() {
  return (tags ??= referenceBlockTags());
}

function earliestOf(text: string, needles: readonly string[], from: number): { at: number; length: number } | null {
  let best: { at: number; length: number } | null = null;
  for (const needle of needles) {
    const at = text.indexOf(needle, from);
    if (at >= 0 && (best === null || at < best.at)) best = { at, length: needle.length };
  }
  return best;
}

/**
 * What of `held` may be released, read as the one-shot parse reads it, or null. After a
 * released region (or with `reasoning_started: false`), complete reference blocks may be
 * released too; before, a close with no open could still make all of it reasoning.
 */
export function releasable(held: string, reader: TurnReader, afterRegion: boolean, idStart: number): Release | null {
  const lane = reader.lane;
  if (lane === null) return null;
  const rejected: number[] = [];
  const regions = fieldRegions(held, reader.ctx, { afterRegion, rejected });
  const firstRefused = rejected.length === 0 ? Infinity : rejected[0]!;
  let end = 0;
  for (const region of regions) {
    if (region.start > firstRefused) break;
    if (wholeRegion(held, region)) end = region.end;
    else break;
  }
  const orphansSpent = afterRegion || end > 0 || reader.ctx.reasoningStarted === false;
  const cut = orphansSpent ? referenceCut(held, end, regions, rejected) : end;
  if (cut <= 0) return null;
  const released = regions.filter((r) => r.end <= end);
  const parsed = assembleRegions(held, released, lane, cut);
  const { result, parts } = finishPiece(parsed, reader, idStart);
  let inRegions = 0;
  for (const region of released) inRegions += region.end - region.start;
  return { end: cut, result, parts: orderedParts(result, parts), restLength: cut - inRegions };
}
