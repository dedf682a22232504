/**
 * The response is the library's result projected onto the documented schema: exactly the
 * fields `parseResultSchema` lists, in its order, so nothing internal leaks into an answer
 * (what fast-json-stringify would do on the main thread, done here where the result lives).
 * A stream's `call_end` and `violation` events are projected the same way, one at a time.
 */
import type { ParseResult, ProtocolViolation, ToolCall } from '../../compose/types.js';

export function projectCall(call: ToolCall): ToolCall {
  return { id: call.id, name: call.name, arguments: call.arguments };
}

export function projectViolation(v: ProtocolViolation): ProtocolViolation {
  const out: ProtocolViolation = { kind: v.kind, message: v.message, excerpt: v.excerpt, dropped_reason: v.dropped_reason };
  if (v.count !== undefined) out.count = v.count;
  // `invalid_arguments` names the call and each failure's JSON Pointer.
  if (v.call_id !== undefined) out.call_id = v.call_id;
  if (v.failures !== undefined) out.failures = v.failures.map((f) => ({ pointer: f.pointer, message: f.message }));
  return out;
}

export function projectResult(result: ParseResult): ParseResult {
  return {
    calls: result.calls.map(projectCall),
    prose: result.prose,
    ...(result.reasoning === undefined ? {} : { reasoning: result.reasoning }),
    user_response: result.user_response,
    done_marker: result.done_marker,
    canonical_text: result.canonical_text,
    tool_parse_errors: result.tool_parse_errors,
    protocol_violations: result.protocol_violations.map(projectViolation),
    dropped: result.dropped.map((d) => (d.count === undefined ? { text: d.text, reason: d.reason } : { text: d.text, reason: d.reason, count: d.count })),
    recovered_from_stray_count: result.recovered_from_stray_count,
  };
}
