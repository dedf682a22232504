/**
 * The part of a stream's held text that may be released: everything up to the end of the last
 * field region that no later text can change. The one-shot parse reads the text between two
 * regions on its own (src/compose/field/lane.ts), so a released region and the text before it
 * read exactly as they will in the whole text. A region may be released when:
 *
 * - no opener before it was refused by every reader (more text might let a reader take it,
 *   and its region would then swallow this one);
 * - (a reasoning marker) no reference-grammar block is open before it: once that block's close
 *   comes, the marker is part of the block;
 * - it ends with its grammar's outermost close (`closers`): a region that ends any other way
 *   may still grow with the text;
 * - when it reports a failure or a violation and ends where the held text ends, it still ends
 *   there with a word after it: a region cut off (a parameter never closed) runs to the end of
 *   the text, and only looks closed when the text so far happens to end with the close.
 */
import { assembleRegions, fieldRegions, mayBeMentioned, opensWithReasoning } from '../field/lane.js';
import { frameUnsettled } from '../field/fence-frame.js';
import { isJsonSpace, wordBeforeOnLine } from '../../lex/codes.js';
import type { ReasoningGrammar } from '../../dialects/field/index.js';
import type { FieldRegion, VerbatimBody } from '../field/region.js';
import { finishPiece, type TurnReader } from '../parse.js';
import type { ParseResult, TurnPart } from '../types.js';
import { endsAtMessage, grammarOf, INLINE_PROBE, PROBE, wholeRegion } from './closers.js';
import { atEnd, matchAt } from '../field/cursor.js';
import { blockOpenAt } from '../field/readers/reasoning.js';
import { referenceBlockTags } from '../field/call-markup.js';
import { orderedParts } from './events.js';

export interface Release {
  /** Where the released text ends, in the held text. */
  readonly end: number;
  readonly result: ParseResult;
  readonly parts: readonly TurnPart[];
  /** The characters of the released text read by the rest lane (not inside a region). */
  readonly restLength: number;
  /** The last region released ends where a visible answer's body begins (`FieldRegion.verbatimBody`): the text after it is that body. */
  readonly body: VerbatimBody | null;
}

/**
 * A region at the end of `held` that reads on past its close when more text follows: one that
 * failed or recovered, or one of raw-text parameters (its close may stand inside a value whose
 * own close is still to come; closers.ts, `wholeRegion`).
 */
function mayRunOn(held: string, region: FieldRegion, reader: TurnReader): boolean {
  // Blanks after the close are no word: the region may still run to the end of the text.
  if (!atEnd(held, region.end)) return false;
  if (region.errors.length === 0 && region.violations.length === 0 && grammarOf(region.grammar)?.family !== 'param-markup') return false;
  if (!stopsWith(held, region, reader, PROBE)) return true;
  return region.errors.length > 0 && !stopsWith(held, region, reader, INLINE_PROBE);
}

/** `region`, at the end of `held`, read again with `probe` after it, still ends where it ends. */
function stopsWith(held: string, region: FieldRegion, reader: TurnReader, probe: string): boolean {
  const again = regionAlone(held.slice(region.start) + probe, reader);
  return again !== null && again.end === region.end - region.start;
}

/**
 * A value-grammar region whose grammar steps over markers written right after its calls
 * (FunctionGemma's `<start_function_response>`): while only blanks, or the start of such a
 * marker, follow it, the marker may yet come and belong to the region, which the text after a
 * released region would read as a stray tag instead.
 */
function trailerMayFollow(held: string, region: FieldRegion): boolean {
  const grammar = grammarOf(region.grammar);
  if (grammar?.family !== 'value-grammar' || grammar.trailers.length === 0 || region.calls.length === 0) return false;
  let at = region.end;
  while (at < held.length && isJsonSpace(held.charCodeAt(at))) at++;
  if (at >= held.length) return true;
  const rest = held.slice(at, at + 64);
  return grammar.trailers.some((trailer) => rest.length < trailer.length && trailer.startsWith(rest));
}

/**
 * A Harmony region at the end of `held` that stops where a visible message's body begins
 * (`commentary<|message|>`): the body is the text after it, so the region is whole when, read
 * with a word after it, it still stops there. (A reasoning message's body would run on.)
 */
function stopsAtVisibleBody(held: string, region: FieldRegion, reader: TurnReader): boolean {
  const grammar = grammarOf(region.grammar);
  if (grammar?.family !== 'harmony' || region.end !== held.length || !endsAtMessage(held, region, grammar)) return false;
  // A message before it may have failed only for the probe's break: a quoted header inside its
  // JSON string (`"echo '<|start|>assistant<|channel|>final<|message|>hi'"`) reads as a header.
  return stopsWith(held, region, reader, PROBE) && (region.errors.length === 0 || stopsWith(held, region, reader, INLINE_PROBE));
}

/**
 * A region opened mid-line by a tag pair's open may yet turn out a mention (field/lane.ts,
 * `reasoningMention`), its line prose: a reasoning block written as inline code
 * (`` `<think>…</think>` ``) until another backtick or the line's end comes; an answer
 * wrapper's open until the end (a close may come anywhere after it).
 */
function mayBeMention(held: string, region: FieldRegion, floor: number, lines: LineEnds): boolean {
  const grammar = grammarOf(region.grammar);
  if (grammar === undefined || !mayBeMentioned(grammar) || !wordBeforeOnLine(held, region.start, floor)) return false;
  const open = blockOpenAt(held, region.start, grammar);
  if (open === null) return false;
  if (grammar.role === 'answer') return true;
  return held.charCodeAt(region.start - 1) === 0x60 && lines.nextTickOrBreak(open.bodyAt) < 0;
}

/**
 * A region whose opener a backtick stands right before (`` Put `<tool_call>…</tool_call>` around ``)
 * may yet be inline code, its line prose (field/lane.ts, `inlineCodeMention`): until another
 * backtick or the line's end comes after the opener.
 */
function inlineCodeUndecided(held: string, region: FieldRegion, lines: LineEnds): boolean {
  return opensAfterTick(held, region.start) && lines.nextTickOrBreak(region.start) < 0;
}

/**
 * Reasoning from the response's start that a close ends (`` …a stray `</think>`` ``): a close
 * written after a backtick may yet be inline code, a sentence about it that ends no reasoning
 * (field/lane.ts, `quotedMidLine`), until another backtick or the line's end comes after it.
 */
function closeQuoteUndecided(held: string, region: FieldRegion, lines: LineEnds): boolean {
  if (region.start !== 0 || region.reasoning.length === 0) return false;
  const grammar = grammarOf(region.grammar);
  if (grammar?.family !== 'reasoning') return false;
  const literal = closeEndingRegion(held, region, grammar);
  // A suffixed close (`</think:S>`) is no literal of the record: it begins at its `<`.
  const closeAt = literal >= 0 ? literal : held.charCodeAt(region.end - 1) === 0x3e ? held.lastIndexOf('<', region.end - 1) : -1;
  return closeAt >= 0 && opensAfterTick(held, closeAt) && lines.nextTickOrBreak(region.end) < 0;
}

/** Where the grammar's literal close that ends `region` begins, or -1 when none ends it. */
function closeEndingRegion(held: string, region: FieldRegion, grammar: ReasoningGrammar): number {
  const close = grammar.close.find((c) => region.end - c.length >= region.start && held.startsWith(c, region.end - c.length));
  return close === undefined ? -1 : region.end - close.length;
}

/** One backtick (not two) stands right before `at`: what opens there may be written as inline code. */
export function opensAfterTick(held: string, at: number): boolean {
  return held.charCodeAt(at - 1) === 0x60 && held.charCodeAt(at - 2) !== 0x60;
}


/** The next backtick or line break at or after a position, for positions that increase: the held text is searched once. */
class LineEnds {
  /** No backtick or break stands in [cursor, next); `next` is one, or the text's end. */
  #cursor = 0;
  #next = -1;

  constructor(private readonly held: string) {}

  nextTickOrBreak(from: number): number {
    if (from < this.#cursor || from > this.#next) {
      let at = from;
      while (at < this.held.length && this.held.charCodeAt(at) !== 0x60 && this.held.charCodeAt(at) !== 0x0a) at++;
      this.#cursor = from;
      this.#next = at;
    }
    return this.#next < this.held.length ? this.#next : -1;
  }
}

/**
 * Where the reasoning marker of a reasoning-family region stands (its open or stray close, or,
 * for reasoning read from the start of the response, the close that ends it); -1 for a region
 * of any other family.
 */
function reasoningMarkerAt(held: string, region: FieldRegion): number {
  const grammar = grammarOf(region.grammar);
  if (grammar?.family !== 'reasoning') return -1;
  if (matchAt(held, region.start, grammar.open) !== null || matchAt(held, region.start, grammar.close) !== null) return region.start;
  const close = closeEndingRegion(held, region, grammar);
  return close < 0 ? region.end : close;
}

/**
 * The reference grammar's blocks (`<tool_call>…</tool_call>`) of the held text, for markers
 * at increasing positions. A reasoning marker inside a complete block belongs to that block
 * (field/reference-blocks.ts); while a block is open and its close has not come, a marker in
 * it may still turn out to be the block's, so no region from it on may be released.
 */
class OpenReferenceBlocks {
  readonly #tags = referenceBlockTags();
  #cursor = 0;
  #open = false;
  /** perf: each tag's next occurrence found so far, so the held text is searched once per tag. */
  readonly #next = new Map<string, number>();

  constructor(private readonly held: string) {}

  /** The first of `needles` at or after `from` and before `before`, or -1. */
  #earliest(needles: readonly string[], from: number, before: number): number {
    let best = -1;
    for (const needle of needles) {
      let at = this.#next.get(needle) ?? -1;
      if (at >= 0 && at < from) at = -1;
      if (at < 0 && this.#next.get(needle) !== Infinity) {
        const found = this.held.indexOf(needle, from);
        at = found < 0 ? Infinity : found;
        this.#next.set(needle, at);
      }
      if (at >= 0 && at < before && (best < 0 || at < best)) best = at;
    }
    return best;
  }

  /** True when a block that opened at or after `floor` is still open at `pos` (-1: never). */
  openAt(pos: number, floor: number): boolean {
    if (pos < 0) return false;
    if (floor > this.#cursor) {
      this.#cursor = floor;
      this.#open = false;
    }
    for (;;) {
      const next = this.#earliest(this.#open ? this.#tags.close : this.#tags.open, this.#cursor, pos);
      if (next < 0) return this.#open;
      this.#open = !this.#open;
      this.#cursor = next + 1;
    }
  }
}

/**
 * How many of `regions` (the regions of `held`, in order), from the first, no later text can
 * change, by the rules above; `firstRefused` is where the first opener no reader took stands.
 */
export function certainRegions(held: string, regions: readonly FieldRegion[], reader: TurnReader, afterRegion: boolean, firstRefused: number): number {
  const blocks = new OpenReferenceBlocks(held);
  const lines = new LineEnds(held);
  const started = !afterRegion && reader.ctx.reasoningStarted === true && !opensWithReasoning(held);
  const setting = { registered: reader.ctx.registry !== null, startsResponse: !afterRegion };
  let end = 0;
  let count = 0;
  for (const region of regions) {
    // A refused opener inside a region too (the orphan close's reasoning runs from the start):
    // were a reader to take it, the close would no longer be the first region's.
    if (firstRefused < region.end) break;
    // A value left open before a call: a close may yet come that makes that call its text.
    if (region.runsOn === true) break;
    if (!(wholeRegion(held, region, setting) || stopsAtVisibleBody(held, region, reader)) || mayRunOn(held, region, reader)) break;
    if (region.answerBody !== true) {
      if (!(started && count === 0) && blocks.openAt(reasoningMarkerAt(held, region), end)) break;
      if (mayBeMention(held, region, end, lines) || inlineCodeUndecided(held, region, lines) || closeQuoteUndecided(held, region, lines)) break;
      // A line named as inline code runs to its line's end: a token closing the held text
      // (`` `<|tool_calls_section_end|>` ``) does not end it while the line may go on.
      if (region.mention === true && region.end >= held.length) break;
    }
    // A code block taken as prose runs on until its closing fence line has ended; a call in a
    // block not closed yet becomes the block's text if a closing line comes.
    if ((region.sample === true && region.end >= held.length) || region.inOpenBlock === true) break;
    // A fence around the call may still close after it (field/fence-frame.ts).
    if (frameUnsettled(held, region, end)) break;
    if (trailerMayFollow(held, region)) break;
    end = region.end;
    count++;
  }
  return count;
}

/**
 * What of `held` may be released, read as the one-shot parse reads it, or null. `inBody`: the
 * held text begins inside a visible answer's body whose header was released.
 */
export function releasable(held: string, reader: TurnReader, afterRegion: boolean, idStart: number, inBody: VerbatimBody | null = null): Release | null {
  const lane = reader.lane;
  if (lane === null) return null;
  const rejected: number[] = [];
  const regions = fieldRegions(held, reader.ctx, { afterRegion, rejected, ...(inBody === null ? {} : { inBody }) });
  const count = certainRegions(held, regions, reader, afterRegion, rejected.length === 0 ? Infinity : rejected[0]!);
  if (count === 0) return null;
  const end = regions[count - 1]!.end;
  return releaseThrough(held, regions.slice(0, count), reader, end, idStart);
}

/** The release of `held` up to `end`, which `regions` (those before it) and the pieces between them fill. */
export function releaseThrough(held: string, regions: readonly FieldRegion[], reader: TurnReader, end: number, idStart: number): Release {
  const parsed = assembleRegions(held, regions, reader.lane!, end);
  const { result, parts } = finishPiece(parsed, reader, idStart);
  let inRegions = 0;
  for (const region of regions) inRegions += region.end - region.start;
  const last = regions[regions.length - 1];
  const body = last !== undefined && last.end === end ? (last.verbatimBody ?? null) : null;
  return { end, result, parts: orderedParts(result, parts), restLength: end - inRegions, body };
}

/** The first region of `text` read on its own after a released region, when it begins the text. */
export function regionAlone(text: string, reader: TurnReader): FieldRegion | null {
  const region = fieldRegions(text, reader.ctx, { afterRegion: true })[0];
  return region !== undefined && region.start === 0 ? region : null;
}
