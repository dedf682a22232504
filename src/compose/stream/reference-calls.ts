/**
 * Calls of the reference grammar (`<tool_call>look({…})</tool_call>`) announced before the end
 * of the text. Under `gateway` no field reader takes such a block: the rest lane reads it, with
 * the whole piece of text between two regions, and a piece's prose may still change with what
 * follows (a later `<user_response>` replaces it). Its calls do not: the walk reads each block
 * on its own, in document order. So once a block's close has come, the calls the rest lane
 * reads up to that close are announced, ahead of the prose before them, when readings of the
 * piece cut there agree: as it stands, with a word after it, and with another block opened after
 * it. The prose waits for its piece, as before (`text` events still concatenate to `prose`, and
 * calls still come in order). Only a close that ends its line counts, once that line has ended:
 * the rest of a line may make the block on it a mention.
 */
import { fieldRegions } from '../field/lane.js';
import { referenceBlockTags } from '../field/call-markup.js';
import { fenceLineAt } from '../field/answer-fences.js';
import { finishPiece, type TurnReader } from '../parse.js';
import type { ToolCall } from '../types.js';
import { PROBE } from './closers.js';
import { skipLineBlanks } from '../../lex/codes.js';

export interface ReferenceCalls {
  /** The piece's calls up to the last block's close, all certain, from its first (null: the close's line has not ended yet). */
  readonly calls: readonly ToolCall[] | null;
  /** The characters read to decide (the stream's work). */
  readonly read: number;
}

let tags: { readonly open: readonly string[]; readonly close: readonly string[] } | null = null;

function blockTags(): { readonly open: readonly string[]; readonly close: readonly string[] } {
  return (tags ??= referenceBlockTags());
}

/** True when a reference block's close ends in `window` at or after `from` (where the new chunk begins). */
export function completesReferenceClose(window: string, from: number): boolean {
  for (const close of blockTags().close) {
    const at = window.indexOf(close, Math.max(0, from - close.length + 1));
    if (at >= 0) return true;
  }
  return false;
}

/** Where the last reference block's close ends in `held`, or -1. */
function lastCloseEnd(held: string): number {
  let end = -1;
  for (const close of blockTags().close) {
    const at = held.lastIndexOf(close);
    if (at >= 0) end = Math.max(end, at + close.length);
  }
  return end;
}

/**
 * Whether a Markdown code block opened in `piece` is still open at its end: a reasoning marker
 * that comes later inside that block makes the block a sample, blocks and all (field/lane.ts,
 * `fencedSample`), so calls in it are certain only once it closes. Each line start is looked at once.
 */
function fenceOpenAtEnd(piece: string): boolean {
  let open = 0;
  for (let at = 0; at < piece.length; ) {
    const kind = fenceLineAt(piece, at);
    if (kind !== 0 && (open === 0 || open === kind)) open = open === 0 ? kind : 0;
    const newline = piece.indexOf('\n', at);
    if (newline < 0) break;
    at = newline + 1;
  }
  return open !== 0;
}

/** The calls the rest lane reads in `piece`, with ids from `idStart`. */
function callsOf(piece: string, reader: TurnReader, idStart: number): readonly ToolCall[] {
  return finishPiece(reader.lane!(piece), reader, idStart).result.calls;
}

/** How many reference blocks close in `piece`. */
function closesIn(piece: string): number {
  let count = 0;
  for (const close of blockTags().close) for (let at = piece.indexOf(close); at >= 0; at = piece.indexOf(close, at + close.length)) count++;
  return count;
}

/**
 * The calls of `piece` when it reads cleanly, one call per closed block and nothing but prose
 * besides; else null. Only then is each block read on its own: a piece whose reading took a
 * recovery rung (an error, a violation, a call from a fenced block, an unclosed string read on to
 * a later quote) may read its earlier text again once a later block comes (the fenced ladder
 * gives way to tagged calls, a recovery finds another end).
 */
function cleanCalls(piece: string, reader: TurnReader, idStart: number): readonly ToolCall[] | null {
  const { result } = finishPiece(reader.lane!(piece), reader, idStart);
  if (result.tool_parse_errors.length > 0 || result.protocol_violations.length > 0) return null;
  if (result.dropped.some((d) => d.reason !== 'salvaged_as_prose')) return null;
  return result.calls.length === closesIn(piece) ? result.calls : null;
}

/**
 * The calls of the rest piece that `held` begins, up to its last reference block's close, or
 * null when they are not certain. `held` must begin a rest piece: after a released region, or
 * at the response's start when no orphan reasoning close can make it reasoning.
 */
export function referenceCalls(held: string, reader: TurnReader, afterRegion: boolean, idStart: number): ReferenceCalls | null {
  if (reader.lane === null) return null;
  const end = lastCloseEnd(held);
  if (end < 0) return null;
  // The rest of the close's line may make the block a mention (`<tool_call>…</tool_call> or a
  // lone <tool_call> like this`): only a close that ends its line is read, once the line has ended.
  const after = skipLineBlanks(held, end);
  if (after >= held.length) return { calls: null, read: after - end };
  if (held.charCodeAt(after) !== 0x0a) return null;
  const piece = held.slice(0, end);
  let read = 2 * piece.length;
  if (fenceOpenAtEnd(piece)) return null;
  // A field region before the close cuts the piece: the region's own path releases it.
  if (fieldRegions(piece, reader.ctx, { afterRegion }).length > 0) return null;
  const now = cleanCalls(piece, reader, idStart);
  if (now === null || now.length === 0) return null;
  const worded = piece + PROBE;
  const opened = piece + '\n' + blockTags().open[0]!;
  read += worded.length + opened.length + piece.length;
  const same = JSON.stringify(now);
  if (JSON.stringify(callsOf(worded, reader, idStart).slice(0, now.length)) !== same) return null;
  if (JSON.stringify(callsOf(opened, reader, idStart).slice(0, now.length)) !== same) return null;
  return { calls: now, read };
}
