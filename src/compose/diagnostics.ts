/**
 * The catalogue of every stable code the composer emits. Each line carries its one-line doc;
 * `docs/diagnostics.md` documents the same codes and a test keeps both in step.
 *
 * Codes are contract: never renamed, never reused. Messages are ours to write.
 */
import { LOST_CALL_VIOLATION_KINDS } from '../dialects/vocabulary.js';
import type { DropReason, ViolationKind } from './types.js';

/** The violation kinds: the reference's eleven, plus the gateway's `call_in_reasoning`, `foreign_turn` and `invalid_arguments` (docs/design.md, "Diagnostics"). */
export const VIOLATION_KINDS: Readonly<Record<ViolationKind, string>> = Object.freeze({
  ambiguous_recovery: 'Declared for a recovery that had several readings; never raised today.',
  bare_json: 'JSON lane: a call arrived as a bare JSON object outside a tool fence.',
  call_in_reasoning: 'Gateway: tool-call markup inside a reasoning block; kept as reasoning, not run.',
  empty_done: 'A <done> block had an empty body.',
  fence_dialect: 'JSON lane: a tool fence opened with a non-canonical info string.',
  foreign_turn: "Gateway: the response ran on into another role's turn (a tool result or user message the model wrote); the rest of the text was dropped and no call in it read.",
  invalid_arguments: "A call's arguments do not match its tool's JSON Schema (option validate); names the call id and a JSON Pointer per failure.",
  provider_dialect: 'Calls arrived in a provider dialect (Mistral [TOOL_CALLS]).',
  recovered_dialect: 'A call was recovered from a non-canonical form (unclosed block, markup, angle call, fence, envelope).',
  stray_text: 'Text outside the response tags that carries a protocol fragment.',
  unclosed_response: 'A response tag was opened and interrupted by another unit before it closed.',
  unknown_tag: 'A top-level tag that is not part of the response protocol.',
  unparsed_tool_syntax: 'Dropped text is shaped like a tool call that did not run.',
  wrong_tool_format: 'A call used a grammar other than the taught tool_format.',
});

/** Kinds that report a call which did not run (the others report the form of the prose); the list is dialect data. */
export { LOST_CALL_VIOLATION_KINDS };

export function isLostCallViolation(kind: string): boolean {
  return (LOST_CALL_VIOLATION_KINDS as readonly string[]).includes(kind);
}

/** Reason codes of a dropped fragment. */
export const DROP_REASONS: Readonly<Record<DropReason, string>> = Object.freeze({
  salvaged_as_prose: 'Stray top-level text consumed without a call (kept as prose or reported).',
  fenced_narration: 'A fenced or mid-line fragment consumed without a call, a tool fence that was not dispatched, or the fence lines around a fenced field-grammar call.',
  unparsed_fenced_turn: 'JSON lane: the whole visible text of a turn that produced no call and no error.',
  unparsed_call_block: 'A <tool_call> block (closed or unclosed) whose body produced no call, its error being in tool_parse_errors; or a lone <tool_call> opener with nothing in it.',
  unparsed_markup: 'Top-level chat-template markup that was recognised but did not parse; its error is in tool_parse_errors.',
  unknown_tool: 'A call read in full whose tool name the registry does not hold; its error is in tool_parse_errors.',
  invalid_arguments: "validate: 'reject': a call whose arguments do not match its tool's schema; its error is in tool_parse_errors.",
  end_of_turn_token: 'Gateway: a special token that ends a turn or the sequence (<|eot_id|>, <|im_end|>, </s>, ...), written out because special tokens were not skipped; it carries no content.',
  foreign_turn: "Gateway: the text from another role's turn header (<|im_start|>user, a tool result's token) to the end: the response ended before it; its foreign_turn violation names the header.",
  stray_close_tag: "Gateway: a call tag's close (</tool_call>) with no open before it; it carries no content.",
  turn_header_token: "Gateway: the assistant turn's header (<|im_start|>assistant, <|start_header_id|>assistant<|end_header_id|>, ...) as the response's first text, echoed from the prompt or written out because special tokens were not skipped; it carries no content.",
});

/**
 * Drop reasons whose fragment already has an entry in `tool_parse_errors`, or a violation of
 * its own (`foreign_turn`). The tool-shape detector skips them: it exists to surface silent
 * losses, and these are not silent.
 */
export const DIAGNOSED_DROP_REASONS: readonly DropReason[] = Object.freeze(['unparsed_call_block', 'unparsed_markup', 'unknown_tool', 'invalid_arguments', 'foreign_turn'] as const);

/** Drop reasons whose fragment carries no content at all (a turn's end token or header): never a lost call either. */
export const CONTENTLESS_DROP_REASONS: readonly DropReason[] = Object.freeze(['end_of_turn_token', 'turn_header_token', 'stray_close_tag'] as const);


/**
 * The closed list of structural outcomes: ways a unit is accounted for without crediting a call
 * or recording a drop. The funnel refuses any other name.
 */
export const STRUCTURAL_OUTCOMES = Object.freeze({
  harmony_skip: 'A harmony frame marker or corrupted wrapper; carries no content.',
  wrapper: 'A contentless wrapper tag such as <function_calls>.',
  stray_close: 'An orphan </tool_call> close; carries no content.',
  prose_block: 'A closed <assistant_prose> block; its body became prose.',
  answer_block: 'A closed <user_response> block; its body became the answer.',
  done_block: 'A closed <done> block; its body became the done marker (empty: empty_done violation).',
  narration_block: 'A <tool_call> block wrapping only narration; the narration became prose.',
  pending_open: 'An unclosed response tag; the following text becomes its body.',
  pending_prose: 'Text kept as the body of a pending response tag.',
  fence_held: 'Text holding a canonical tool fence, decided after the walk (recovered call or fenced_narration drop).',
  empty_text: 'A text unit that is only whitespace.',
} as const);

export type StructuralOutcome = keyof typeof STRUCTURAL_OUTCOMES;

/** Message prefixes other code matches on. */
export const MACHINE_PREFIXES = Object.freeze({
  truncated: 'TOOL CALL TRUNCATED:',
  parse_error: 'TOOL CALL PARSE ERROR',
  protocol_violation: 'protocol_violation:',
  unparsed_tool_syntax: 'unparsed_tool_syntax:',
} as const);
