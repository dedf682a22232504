/**
 * The envelope call normaliser (docs/design.md, "Envelopes"): one JSON value of a
 * chat-template envelope to a call. Names are not checked against the registry and arguments
 * are not entity-decoded (the envelope is a JSON grammar; dispatch owns refusal).
 */
import { jsonFields } from '../ladders/json-fields.js';
import { isJsonObject } from '../ladders/json.js';
import { strictJson } from './strict-json.js';
import type { ToolCall } from '../types.js';
import { laneMessages } from './messages.js';

export type EnvelopeCallOutcome = { ok: true; call: ToolCall } | { ok: false; detail: string };

/** @param nameHint the label line before a `<tool_call>`-kind body (`run\n{...}`), or `""`. */
export function envelopeCall(value: unknown, nameHint: string): EnvelopeCallOutcome {
  if (!isJsonObject(value)) return { ok: false, detail: laneMessages.envelopeEntryNotObject };
  const fields = jsonFields(value);
  const name = fields.name !== '' ? fields.name : nameHint.trim();
  if (name === '') return { ok: false, detail: laneMessages.envelopeMissingName };
  let args: unknown = fields.arguments ?? {};
  if (typeof args === 'string') {
    const decoded = strictJson(args);
    if (!decoded.ok) return { ok: false, detail: laneMessages.envelopeArgsString(decoded.error) };
    args = decoded.value;
  }
  if (!isJsonObject(args)) return { ok: false, detail: laneMessages.envelopeArgsNotObject };
  return { ok: true, call: { id: 'tc_envelope', name, arguments: args } };
}
