/**
 * Small constructors shared by the lanes of this directory: the empty projection
 * (docs/design.md, "Result"), `provider_result`, violations and call blocks.
 */
import { renderCanonicalCall } from '../../lex/render.js';
import { emptyResult } from '../project.js';
import type { LaneResult, ProtocolViolation, ToolCall, ViolationKind } from '../types.js';

/** `empty_parse()`: every field present, nothing found (the one empty projection, from project.ts). */
export function emptyLane(): LaneResult {
  return emptyResult();
}

export function violation(kind: ViolationKind, message: string, excerpt: string | null = null): ProtocolViolation {
  return { kind, message, excerpt, dropped_reason: null };
}

/** One canonical `<tool_call>` block (docs/design.md, "Canonical text"). */
export function callBlock(call: ToolCall): string {
  return `<tool_call>\n${renderCanonicalCall(call.name, call.arguments)}\n</tool_call>`;
}

/** The canonical text of the JSON lane, merges and joins: call blocks only, one newline apart. */
export function callBlocks(calls: readonly ToolCall[]): string {
  return calls.map(callBlock).join('\n');
}

/** Non-empty parts joined by `sep` (the merges' prose rule). */
export function joinNonEmpty(parts: readonly string[], sep = '\n'): string {
  return parts.filter((p) => p !== '').join(sep);
}

/**
 * `provider_result`: the empty projection holding the calls, with a canonical text of an
 * optional prose block followed by one block per call, separated by blank lines.
 */
export function providerResult(
  calls: ToolCall[],
  errors: string[],
  prose: string,
  violations: ProtocolViolation[],
): LaneResult {
  const parts: string[] = [];
  if (prose.trim() !== '') parts.push(`<assistant_prose>\n${prose.trim()}\n</assistant_prose>`);
  for (const call of calls) parts.push(callBlock(call));
  return {
    ...emptyLane(),
    calls,
    tool_parse_errors: errors,
    protocol_violations: violations,
    prose,
    canonical_text: parts.join('\n\n'),
  };
}

/** `target.push(...items)` without the argument-count limit a spread call has on huge lists. */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}
