/** The result record of `parseToolCalls` (docs/design.md, "Result"). */

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** One of the eleven stable violation kinds (docs/design.md, "Diagnostics"). */
export type ViolationKind =
  | 'ambiguous_recovery'
  | 'bare_json'
  | 'empty_done'
  | 'fence_dialect'
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
  | 'unparsed_markup';

export interface DroppedFragment {
  text: string;
  reason: DropReason;
}

export type ToolFormat = 'text' | 'json' | 'native' | 'adaptive' | '';

export interface ParseResult {
  calls: ToolCall[];
  prose: string;
  user_response: string | null;
  done_marker: string | null;
  canonical_text: string;
  tool_parse_errors: string[];
  protocol_violations: ProtocolViolation[];
  dropped: DroppedFragment[];
  recovered_from_stray_count: number;
}

/**
 * What every lane returns (tagged, JSON, envelope, provider dialects): the result record with
 * provisional ids. `parseToolCalls` restamps ids at the boundary.
 */
export type LaneResult = ParseResult;
