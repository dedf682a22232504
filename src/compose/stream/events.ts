/**
 * The events a stream parser emits (docs/design.md, "Streaming"), and how a finished turn is
 * laid out as events. An event is never taken back: a stream only emits what the one-shot parse
 * of the whole text will also say, so the events of a stream concatenate to its final result.
 */
import type { ParseResult, ProtocolViolation, ToolCall, TurnPart } from '../types.js';
import type { ParsedTurn } from '../parse.js';

export type StreamEvent =
  /** Visible prose; the `text` events of a stream concatenate to the result's `prose`. */
  | { readonly type: 'text'; readonly text: string }
  /** Reasoning; the `reasoning` events concatenate to the result's `reasoning`. */
  | { readonly type: 'reasoning'; readonly text: string }
  | { readonly type: 'call_start'; readonly index: number; readonly id: string; readonly name: string }
  /** A fragment of the call's arguments as JSON text; a call's fragments concatenate to `JSON.stringify(call.arguments)`. */
  | { readonly type: 'call_arguments_delta'; readonly index: number; readonly delta: string }
  | { readonly type: 'call_end'; readonly index: number; readonly call: ToolCall }
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'violation'; readonly violation: ProtocolViolation };

export type StreamEventType = StreamEvent['type'];

/** What a stream has already said: the length of its text and reasoning, and its calls. */
export interface Emitted {
  text: number;
  reasoning: number;
  calls: number;
}

export function nothingEmitted(): Emitted {
  return { text: 0, reasoning: 0, calls: 0 };
}

/** The events of one call, all at once. */
export function callEvents(call: ToolCall, index: number, out: StreamEvent[]): void {
  out.push({ type: 'call_start', index, id: call.id, name: call.name });
  out.push({ type: 'call_arguments_delta', index, delta: JSON.stringify(call.arguments) });
  out.push({ type: 'call_end', index, call });
}

/**
 * The turn's reasoning, text and calls in document order. A lane without field regions keeps
 * no order between its prose and its calls; there the prose comes first, as it does in every
 * output shape.
 */
export function orderedParts(result: ParseResult, parts: readonly TurnPart[]): readonly TurnPart[] {
  if (parts.length > 0) return parts;
  const out: TurnPart[] = [];
  if (result.prose !== '') out.push({ kind: 'text', text: result.prose });
  result.calls.forEach((_, index) => out.push({ kind: 'call', index }));
  return out;
}

/**
 * The events of `turn` that `emitted` has not said yet, diagnostics last, and `emitted`
 * advanced past them. Pieces of text (and of reasoning) are joined by a blank line, as the
 * result joins them, so the events concatenate to `prose` and `reasoning` exactly.
 */
export function remainingEvents(turn: ParsedTurn, emitted: Emitted, out: StreamEvent[]): void {
  const { result } = turn;
  let text = 0;
  let reasoning = 0;
  for (const part of orderedParts(result, turn.parts)) {
    if (part.kind === 'call') {
      if (part.index < emitted.calls) continue;
      const call = result.calls[part.index];
      if (call === undefined) continue;
      callEvents(call, part.index, out);
      emitted.calls = part.index + 1;
      continue;
    }
    const isText = part.kind === 'text';
    const at = isText ? text : reasoning;
    const piece = at === 0 ? part.text : '\n\n' + part.text;
    const end = at + piece.length;
    const said = isText ? emitted.text : emitted.reasoning;
    if (end > said) {
      const fresh = piece.slice(Math.max(0, said - at));
      out.push({ type: isText ? 'text' : 'reasoning', text: fresh });
      if (isText) emitted.text = end;
      else emitted.reasoning = end;
    }
    if (isText) text = end;
    else reasoning = end;
  }
  for (const message of result.tool_parse_errors) out.push({ type: 'error', message });
  for (const violation of result.protocol_violations) out.push({ type: 'violation', violation });
}
