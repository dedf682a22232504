/** The result record of `parseToolCalls` (docs/design.md, "Result"). */
import type { TOOL_FORMATS } from './context.js';

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** One of the stable violation kinds: the reference's eleven, plus the gateway's `call_in_reasoning` and `invalid_arguments` (docs/design.md, "Diagnostics"). */
export type ViolationKind =
  | 'ambiguous_recovery'
  | 'bare_json'
  | 'call_in_reasoning'
  | 'empty_done'
  | 'fence_dialect'
  | 'foreign_turn'
  | 'invalid_arguments'
  | 'provider_dialect'
  | 'recovered_dialect'
  | 'stray_text'
  | 'unclosed_response'
  | 'unknown_tag'
  | 'unparsed_tool_syntax'
  | 'wrong_tool_format';

export interface ProtocolViolation {
  kind: ViolationKind;
  message: string;
  excerpt: string | null;
  dropped_reason: string | null;
  /**
   * Present only on a coalesced entry: how many violations of this kind it stands for (itself
   * and every later one). See docs/diagnostics.md, "Coalescing".
   */
  count?: number;
  /** `invalid_arguments` only: the id of the call whose arguments failed. */
  call_id?: string;
  /** `invalid_arguments` only: each failure, with the JSON Pointer into the arguments. */
  failures?: { pointer: string; message: string }[];
}

/**
 * Reason codes of a dropped fragment (docs/design.md, "Consume funnel and drop ledger"), plus two the port adds
 * for failures the reference consumed without a record (see docs/diagnostics.md).
 */
export type DropReason =
  | 'salvaged_as_prose'
  | 'fenced_narration'
  | 'unparsed_fenced_turn'
  | 'unparsed_call_block'
  | 'unparsed_markup'
  | 'end_of_turn_token'
  | 'turn_header_token'
  | 'stray_close_tag'
  | 'foreign_turn'
  | 'unknown_tool'
  | 'invalid_arguments';

export interface DroppedFragment {
  text: string;
  reason: DropReason;
  /** Present only on a coalesced entry: how many drops of this reason it stands for (`text` is the first's). */
  count?: number;
}

export type ToolFormat = (typeof TOOL_FORMATS)[number];

export interface ParseResult {
  calls: ToolCall[];
  prose: string;
  /**
   * The gateway profile only (absent under `harn`): the reasoning blocks' text in order, each
   * trimmed, joined by a blank line; null when there is none.
   */
  reasoning?: string | null;
  user_response: string | null;
  done_marker: string | null;
  canonical_text: string;
  tool_parse_errors: string[];
  protocol_violations: ProtocolViolation[];
  dropped: DroppedFragment[];
  recovered_from_stray_count: number;
}

/**
 * One piece of a turn in document order (internal: the anthropic output shape places thinking
 * blocks from it). `call` is an index into the result's `calls`.
 */
export type TurnPart =
  | { readonly kind: 'reasoning'; readonly text: string }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'call'; readonly index: number };

/**
 * What every lane returns (tagged, JSON, envelope, provider dialects): the result record with
 * provisional ids. `parseToolCalls` restamps ids at the boundary. The field lane adds `parts`.
 */
export type LaneResult = ParseResult & { readonly parts?: readonly TurnPart[] };
