/**
 * The part of a stream's held text that may be released: everything up to the end of the last
 * field region that no later text can change. The one-shot parse reads the text between two
 * regions on its own (src/compose/field/lane.ts), so a released region and the text before it
 * read exactly as they will in the whole text. A region may be released when:
 *
 * - no opener before it was refused by every reader (more text might let a reader take it,
 *   and its region would then swallow this one);
 * - it ends with its grammar's outermost close (`closers`): a region that ends any other way
 *   may still grow with the text;
 * - when it reports a failure or a violation and ends where the held text ends, it still ends
 *   there with a word after it: a region cut off (a parameter never closed) runs to the end of
 *   the text, and only looks closed when the text so far happens to end with the close.
 */
import { assembleRegions, fieldRegions } from '../field/lane.js';
import type { FieldRegion } from '../field/region.js';
import { finishPiece, type TurnReader } from '../parse.js';
import type { ParseResult, TurnPart } from '../types.js';
import { PROBE, wholeRegion } from './closers.js';
import { orderedParts } from './events.js';

export interface Release {
  /** Where the released text ends, in the held text. */
  readonly end: number;
  readonly result: ParseResult;
  readonly parts: readonly TurnPart[];
  /** The characters of the released text read by the rest lane (not inside a region). */
  readonly restLength: number;
}

/** A region at the end of `held` that failed or recovered, and reads on past its close when more text follows. */
function mayRunOn(held: string, region: FieldRegion, reader: TurnReader): boolean {
  if (region.end !== held.length || (region.errors.length === 0 && region.violations.length === 0)) return false;
  const again = regionAlone(held.slice(region.start) + PROBE, reader);
  return again === null || again.end !== region.end - region.start;
}

/** What of `held` may be released, read as the one-shot parse reads it, or null. */
export function releasable(held: string, reader: TurnReader, afterRegion: boolean, idStart: number): Release | null {
  const lane = reader.lane;
  if (lane === null) return null;
  const rejected: number[] = [];
  const regions = fieldRegions(held, reader.ctx, { afterRegion, rejected });
  const firstRefused = rejected.length === 0 ? Infinity : rejected[0]!;
  let end = 0;
  for (const region of regions) {
    if (region.start > firstRefused) break;
    if (wholeRegion(held, region) && !mayRunOn(held, region, reader)) end = region.end;
    else break;
  }
  if (end <= 0) return null;
  return releaseThrough(held, regions.filter((r) => r.end <= end), reader, end, idStart);
}

/** The release of `held` up to `end`, which `regions` (those before it) and the pieces between them fill. */
export function releaseThrough(held: string, regions: readonly FieldRegion[], reader: TurnReader, end: number, idStart: number): Release {
  const parsed = assembleRegions(held, regions, reader.lane!, end);
  const { result, parts } = finishPiece(parsed, reader, idStart);
  let inRegions = 0;
  for (const region of regions) inRegions += region.end - region.start;
  return { end, result, parts: orderedParts(result, parts), restLength: end - inRegions };
}

/** The first region of `text` read on its own after a released region, when it begins the text. */
export function regionAlone(text: string, reader: TurnReader): FieldRegion | null {
  const region = fieldRegions(text, reader.ctx, { afterRegion: true })[0];
  return region !== undefined && region.start === 0 ? region : null;
}
