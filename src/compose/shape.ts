/**
 * Output shapes a gateway can forward as they are (`openai`, `anthropic`), and `include`, the
 * subset of result fields a caller asked for. Both are projections of the one `ParseResult`,
 * made at the boundary; the diagnostics travel beside the message, never inside it.
 */
import type { DroppedFragment, ParseResult, ProtocolViolation } from './types.js';

export const SHAPES = ['tool-parse', 'openai', 'anthropic'] as const;
export type Shape = (typeof SHAPES)[number];

/** Every field of the `tool-parse` result, in its order; `include` names a subset. */
export const RESULT_FIELDS = [
  'calls',
  'prose',
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
  message: { role: 'assistant'; content: string | null; tool_calls?: OpenAIToolCall[] };
  finish_reason: 'tool_calls' | 'stop';
  diagnostics: Diagnostics;
}

export type AnthropicBlock = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

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
  if (hasCalls) {
    message.tool_calls = result.calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }));
  }
  return { message, finish_reason: hasCalls ? 'tool_calls' : 'stop', diagnostics: diagnosticsOf(result, include) };
}

function anthropic(result: ParseResult, include: ReadonlySet<string> | null): AnthropicShaped {
  const content: AnthropicBlock[] = [];
  if (result.prose !== '') content.push({ type: 'text', text: result.prose });
  for (const call of result.calls) content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
  return { message: { role: 'assistant', content }, stop_reason: result.calls.length > 0 ? 'tool_use' : 'end_turn', diagnostics: diagnosticsOf(result, include) };
}

/** `result` in `shape`, keeping only the `include`d fields (null: all of them). */
export function shapeResult(result: ParseResult, shape: Shape, include: ReadonlySet<string> | null): ShapedResult {
  if (shape === 'openai') return openai(result, include);
  if (shape === 'anthropic') return anthropic(result, include);
  if (include === null) return result;
  const out: Record<string, unknown> = {};
  for (const field of RESULT_FIELDS) if (include.has(field)) out[field] = result[field];
  return out as Partial<ParseResult>;
}
