/**
 * Canonical parts (docs/design.md, "Canonical text"): the turn re-rendered in the taught tagged
 * grammar, one part per accounted unit, joined with blank lines.
 *
 * The walk records parts as data and renders them once, at projection, with the lexer's
 * renderer (`src/lex/render.ts`: keys sorted by code point, a leading `<<` escaped so the call
 * round-trips, empty-part separators kept). This file adds the call and prose helpers the walk uses.
 */
import { callBlock, proseBlock } from '../lex/render.js';
import type { ToolCall } from './types.js';

// The walk's parts are the lexer's, rendered by its `renderParts` (the walk never records a part
// that renders empty).
export { callBlock, proseBlock, renderParts, type CanonicalPart } from '../lex/render.js';

/** One `<tool_call>` block; absent or null arguments render as `{}`. */
export function renderCall(name: string, args: unknown): string {
  return callBlock(name, args ?? {});
}

export function renderProse(text: string): string {
  return proseBlock(text);
}


/** Call blocks only, joined with one newline (JSON lane, remainder merges, joins). */
export function renderCallBlocks(calls: readonly ToolCall[]): string {
  let out = '';
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    out += (i === 0 ? '' : '\n') + renderCall(call.name, call.arguments);
  }
  return out;
}
