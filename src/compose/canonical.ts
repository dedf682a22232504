/**
 * Canonical parts (docs/design.md, "Canonical text"): the turn re-rendered in the taught tagged
 * grammar, one part per accounted unit, joined with blank lines.
 *
 * The walk records parts as data and renders them once, at projection, with the lexer's
 * renderer (`src/lex/render.ts`: keys sorted by code point, a leading `<<` escaped so the call
 * round-trips, empty-part separators kept). This file only adapts the walk's parts to it.
 */
import { renderCanonicalCall, renderParts as renderLexParts } from '../lex/render.js';
import type { ToolCall } from './types.js';

export type CanonicalPart =
  | string
  | { readonly kind: 'call'; readonly name: string; readonly arguments: unknown }
  | { readonly kind: 'bare'; readonly calls: readonly ToolCall[]; readonly prose: string }
  | { readonly kind: 'prose' | 'answer'; readonly text: string }
  | { readonly kind: 'done'; readonly text: string };

/** One `<tool_call>` block; absent or null arguments render as `{}`. */
export function renderCall(name: string, args: unknown): string {
  return `<tool_call>\n${renderCanonicalCall(name, args ?? {})}\n</tool_call>`;
}

export function renderProse(text: string): string {
  return renderLexParts([{ kind: 'prose', text }]);
}

/** The walk's parts joined with blank lines (the walk never records a part that renders empty). */
export function renderParts(parts: readonly CanonicalPart[]): string {
  // The lexer's part types are the mutable spelling of the same shapes.
  return renderLexParts(parts as Parameters<typeof renderLexParts>[0]);
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
