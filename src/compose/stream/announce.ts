/**
 * A call announced before its region's close arrives. A region's calls are certain once its
 * reader gives them the same whether the text ends now or the region's close comes next: a
 * reader that has read a call's whole body (its JSON closed, its own close marker written)
 * keeps it through anything more inside the region, and the text before the region reads on
 * its own (src/compose/field/lane.ts), so both may be released at once. A stream announces
 * only where the held text ends at a call's body end (body-end.ts), and only calls that
 * the readings agree on, ids and arguments included: as it stands, with its close next, and
 * with a word and then its close.
 */
import { assembleRegions, fieldRegions, type RestLane } from '../field/lane.js';
import type { FieldRegion, VerbatimBody } from '../field/region.js';
import { finishPiece, type TurnReader } from '../parse.js';
import { emptyResult } from '../project.js';
import type { ToolCall } from '../types.js';
import { bodyEndsAtEnd, partialMarkerAtEnd } from './body-end.js';
import { CLOSE_TRIED, closeIsOptional, closers, grammarOf, opensEnvelope, PROBE, wholeRegion } from './closers.js';
import { orderedParts } from './events.js';
import { certainRegions, opensAfterTick, regionAlone, releaseThrough, type Release } from './segment.js';
import { fenceOpenBefore } from '../field/fence-frame.js';

export interface Announcement {
  /** Where the announced region begins in the held text: everything before it is released. */
  readonly at: number;
  /** The text and whole regions before the region, or null when it begins the held text. */
  readonly before: Release | null;
  /** The region's calls so far, all certain, from its first. */
  readonly calls: readonly ToolCall[];
  /** The characters read to decide (the stream's work). */
  readonly read: number;
}

/** Reads no text between regions: a region's own calls, alone. */
const noRest: RestLane = () => emptyResult();

/** The calls `region` gives on its own, finished as the one-shot parse finishes them; null when it gives anything else. */
function callsOf(text: string, region: FieldRegion, reader: TurnReader, idStart: number): readonly ToolCall[] | null {
  const { result, parts } = finishPiece(assembleRegions(text, [region], noRest, text.length), reader, idStart);
  if (result.calls.length === 0 || (result.reasoning ?? '') !== '') return null;
  if (orderedParts(result, parts).some((p) => p.kind !== 'call')) return null;
  return result.calls;
}

/** The literal that would close `region` now. */
function closeOf(text: string, region: FieldRegion): string | null {
  const grammar = grammarOf(region.grammar);
  if (grammar === undefined) return null;
  if (grammar.family === 'param-markup' && grammar.envelope !== null && opensEnvelope(text, region.start, grammar.envelope)) return grammar.envelope.close[0] ?? null;
  return closers(grammar)[0] ?? null;
}

/**
 * The announcement `held` allows, or null: its last region is open, ends where a call's body
 * ends, and reads the same calls with and without its close.
 */
export function announceable(held: string, reader: TurnReader, afterRegion: boolean, idStart: number, inBody: VerbatimBody | null = null): Announcement | null {
  const lane = reader.lane;
  if (lane === null) return null;
  const rejected: number[] = [];
  const regions = fieldRegions(held, reader.ctx, { afterRegion, rejected, ...(inBody === null ? {} : { inBody }) });
  let read = held.length;
  const open = regions.length - 1;
  const region = regions[open];
  // A value left open before a call (`FieldRegion.runsOn`): that call may yet be its text. An
  // answer's body holds no call.
  // A call in a code block not closed yet becomes the block's text if a closing line comes.
  if (region === undefined || region.runsOn === true || region.answerBody === true || region.inOpenBlock === true || wholeRegion(held, region)) return null;
  if (rejected.length > 0 && rejected[0]! < region.start) return null;
  // A backtick right before it: with another after its close on the line, it is inline code, prose.
  if (opensAfterTick(held, region.start)) return null;
  // The regions before it are released with it: each must be certain as a release's are.
  if (certainRegions(held, regions.slice(0, open), reader, afterRegion, Infinity) !== open) return null;
  // A fence line just before it may be the region's once the call is read (field/fence-frame.ts):
  // the text before it is not settled, so the call waits to be released whole.
  if (fenceOpenBefore(held, region.start, open === 0 ? 0 : regions[open - 1]!.end) >= 0) return null;
  const grammar = grammarOf(region.grammar);
  if (grammar === undefined) return null;
  if (grammar.family === 'harmony') return framedCalls(held, regions, open, reader, idStart, read);
  if (!bodyEndsAtEnd(held, region, grammar)) return null;
  const close = closeOf(held, region);
  if (close === null) return null;
  // The close as it would come next: the rest of it, when the held text ends with its beginning.
  const closed = held.slice(region.start) + close.slice(partialMarkerAtEnd(held, region.start, [close]));
  // Text may also come between the body and the close: a grammar whose body must be all the
  // region holds (Harmony's message) then has no call, so a probe with a word there must agree too.
  const probe = held.slice(region.start) + PROBE + close;
  read += closed.length + probe.length;
  const whole = regionAlone(closed, reader);
  if (whole === null || whole.end !== closed.length || whole.grammar !== region.grammar || !wholeRegion(closed, whole, CLOSE_TRIED)) return null;
  const probed = regionAlone(probe, reader);
  // A body whose close is optional (Llama 3's `<|python_tag|>{…}`) ends where a word follows it:
  // the word is no part of it, whatever comes after.
  const endsAtBody = probed !== null && closeIsOptional(grammar) && probed.end === held.length - region.start;
  if (probed === null || (probed.end !== probe.length && !endsAtBody)) return null;
  // The readings are compared with the ids they would have were the region first; the text
  // before it is read (the rest lane's work) only once they agree.
  const then = callsOf(closed, whole, reader, idStart);
  const now = callsOf(held, region, reader, idStart);
  const after = callsOf(probe, probed, reader, idStart);
  if (then === null || now === null || after === null || JSON.stringify(now) !== JSON.stringify(then) || JSON.stringify(after) !== JSON.stringify(then)) return null;
  return withTextBefore(held, regions, open, reader, idStart, read, then, (start) => callsOf(closed, whole, reader, start)!);
}

/**
 * The announcement of `calls` (read with ids from `idStart`) of the region `regions[open]`,
 * with the text and regions before it released; the calls are read again (`recount`) with the
 * ids that follow the released calls.
 */
function withTextBefore(held: string, regions: readonly FieldRegion[], open: number, reader: TurnReader, idStart: number, read: number, calls: readonly ToolCall[], recount: (idStart: number) => readonly ToolCall[]): Announcement {
  const region = regions[open]!;
  if (region.start === 0) return { at: 0, before: null, calls, read };
  const before = releaseThrough(held, regions.slice(0, open), reader, region.start, idStart);
  const released = before.result.calls.length;
  return { at: region.start, before, calls: released === 0 ? calls : recount(idStart + released), read: read + before.restLength };
}

/**
 * Harmony's calls at a frame's end. Its frames chain into one region, so a region that ends
 * with a frame's end (`<|call|>`) is not whole until other text follows (closers.ts); but the
 * frames already read cannot change: its calls are certain when the region, read with a word
 * after it, still ends there (the blank before the word aside) with the same calls.
 */
function framedCalls(held: string, regions: readonly FieldRegion[], open: number, reader: TurnReader, idStart: number, read: number): Announcement | null {
  const region = regions[open]!;
  const grammar = grammarOf(region.grammar)!;
  if (region.end !== held.length || !closers(grammar).some((close) => held.length - close.length > region.start && held.endsWith(close))) return null;
  const own = held.slice(region.start);
  const probe = own + PROBE;
  read += own.length + probe.length;
  const alone = regionAlone(own, reader);
  const probed = regionAlone(probe, reader);
  if (alone === null || alone.end !== own.length || alone.grammar !== region.grammar || probed === null || probed.end < own.length || probed.end >= probe.length || probe.slice(own.length, probed.end).trim() !== '') return null;
  const now = callsOf(own, alone, reader, idStart);
  const after = callsOf(probe, probed, reader, idStart);
  if (now === null || after === null || JSON.stringify(now) !== JSON.stringify(after)) return null;
  return withTextBefore(held, regions, open, reader, idStart, read, now, (start) => callsOf(own, alone, reader, start)!);
}
