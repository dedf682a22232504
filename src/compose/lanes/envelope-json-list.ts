/**
 * The JSON list reader of `<tool_code>` and `<tool_call>`-kind envelopes
 * (docs/design.md, "Envelopes"): consecutive JSON objects, then the envelope's close tag.
 *
 *   <tool_code>
 *   {"name": "a", "args": {"k": 1}}     <- one call per JSON value
 *   {"name": "b", "args": {"v": 2}}
 *   </tool_code> and what follows     <- close stripped; the rest is `trailing` for the caller's lane
 */
import { readJsonStream } from '../../lex/json-stream.js';
import type { CallMarks } from '../call-provenance.js';
import type { ToolCall } from '../types.js';
import { envelopeCall } from './envelope-call.js';
import { headOf } from './excerpt.js';
import { laneMessages } from './messages.js';

export type EnvelopeRead = { ok: true; calls: ToolCall[]; trailing: string } | { ok: false; detail: string };

export function readJsonListEnvelope(body: string, nameHint: string, close: string, marks: CallMarks): EnvelopeRead {
  const source = body.trim();
  const stream = readJsonStream(source);
  if (stream.values.length === 0) {
    return {
      ok: false,
      detail: stream.eof ? laneMessages.envelopeObjectUnclosed : laneMessages.envelopeExpectedObject(headOf(source, 80)),
    };
  }
  const calls: ToolCall[] = [];
  for (const { value, start, end } of stream.values) {
    const outcome = envelopeCall(value, nameHint);
    if (!outcome.ok) return { ok: false, detail: outcome.detail };
    calls.push(marks.writtenAs(outcome.call, source.slice(start, end)));
  }
  let rest = source.slice(stream.end).trim();
  if (rest.startsWith(close)) rest = rest.slice(close.length).trim();
  return { ok: true, calls, trailing: rest };
}
