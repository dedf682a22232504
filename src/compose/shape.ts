/**
 * Output shapes a gateway can forward as they are (`openai`, `anthropic`), and `include`, the
 * subset of result fields a caller asked for. Both are projections of the one `ParseResult`,
 * made at the boundary; the diagnostics travel beside the message, never inside it.
 */
import type { DroppedFragment, ParseResult, ProtocolViolation, TurnPart } from './types.js';

export const SHAPES = ['tool-parse', 'openai', 'anthropic'] as const;
export type Shape = (typeof SHAPES)[number];

/** Every field of the `tool-parse` result, in its order; `include` names a subset. */
export const RESULT_FIELDS = [
  'calls',
  'prose',
  'reasoning',
  'user_response',
  'done_marker',
  'canonical_text',
  'tool_parse_errors',
  'protocol_violations',
  'dropped',
  'recovered_from_stray_count',
] as const satisfies readonly (keyof ParseResult)[];
export type ResultField = (typeof RESULT_FIELDS)[number];

/** The fields that travel as `diagnostics` beside an `openai` or `anthropic` message. */
export const DIAGNOSTIC_FIELDS = ['tool_parse_errors', 'protocol_violations', 'dropped', 'recovered_from_stray_count'] as const satisfies readonly ResultField[];

export interface Diagnostics {
  tool_parse_errors?: string[];
  protocol_violations?: ProtocolViolation[];
  dropped?: DroppedFragment[];
  recovered_from_stray_count?: number;
}

export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface OpenAIShaped {
  message: { role: 'assistant'; content: string | null; reasoning_content?: string; tool_calls?: OpenAIToolCall[] };
  finish_reason: 'tool_calls' | 'stop';
  diagnostics: Diagnostics;
}

/**
 * A content block. An open model's reasoning carries no signature (Anthropic signs its own
 * thinking so it can be sent back verified); `signature` is the empty string here.
 */
export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export interface AnthropicShaped {
  message: { role: 'assistant'; content: AnthropicBlock[] };
  stop_reason: 'tool_use' | 'end_turn';
  diagnostics: Diagnostics;
}

export type ShapedResult = Partial<ParseResult> | OpenAIShaped | AnthropicShaped;

function diagnosticsOf(result: ParseResult, include: ReadonlySet<string> | null): Diagnostics {
  const out: Record<string, unknown> = {};
  for (const field of DIAGNOSTIC_FIELDS) if (include === null || include.has(field)) out[field] = result[field];
  return out as Diagnostics;
}

function openai(result: ParseResult, include: ReadonlySet<string> | null): OpenAIShaped {
  const hasCalls = result.calls.length > 0;
  const message: OpenAIShaped['message'] = { role: 'assistant', content: result.prose === '' && hasCalls ? null : result.prose };
  if (result.reasoning !== undefined && result.reasoning !== null) message.reasoning_content = result.reasoning;
  if (hasCalls) {
    message.tool_calls = result.calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }));
  }
  return { message, finish_reason: hasCalls ? 'tool_calls' : 'stop', diagnostics: diagnosticsOf(result, include) };
}

function toolUse(result: ParseResult, index: number): AnthropicBlock | null {
  const call = result.calls[index];
  return call === undefined ? null : { type: 'tool_use', id: call.id, name: call.name, input: call.arguments };
}

/**
 * Blocks in document order when the turn held reasoning (thinking blocks stand where the model
 * thought, between its text and its calls); otherwise the text, then the calls.
 */
function anthropic(result: ParseResult, include: ReadonlySet<string> | null, parts: readonly TurnPart[]): AnthropicShaped {
  const content: AnthropicBlock[] = [];
  if (parts.some((part) => part.kind === 'reasoning')) {
    for (const part of parts) {
      if (part.kind === 'reasoning') content.push({ type: 'thinking', thinking: part.text, signature: '' });
      else if (part.kind === 'text') content.push({ type: 'text', text: part.text });
      else {
        const block = toolUse(result, part.index);
        if (block !== null) content.push(block);
      }
    }
  } else {
    if (result.prose !== '') content.push({ type: 'text', text: result.prose });
    for (let i = 0; i < result.calls.length; i++) content.push(toolUse(result, i)!);
  }
  return { message: { role: 'assistant', content }, stop_reason: result.calls.length > 0 ? 'tool_use' : 'end_turn', diagnostics: diagnosticsOf(result, include) };
}

/** `result` in `shape`, keeping only the `include`d fields (null: all of them). */
export function shapeResult(result: ParseResult, shape: Shape, include: ReadonlySet<string> | null, parts: readonly TurnPart[] = []): ShapedResult {
  if (shape === 'openai') return openai(result, include);
  if (shape === 'anthropic') return anthropic(result, include, parts);
  if (include === null) return result;
  const out: Record<string, unknown> = {};
  for (const field of RESULT_FIELDS) if (include.has(field) && field in result) out[field] = result[field];
  return out as Partial<ParseResult>;
}
