/**
 * `json_call`: one JSON value of a tool fence (or a Mistral payload) to a call
 * (docs/design.md, "JSON calls"). No registry check and no entity decoding: the JSON lane
 * dispatches what it reads and leaves refusal to dispatch.
 */
import { DIALECTS } from '../../dialects/vocabulary.js';
import { jsonFields } from '../ladders/json-fields.js';
import { isJsonObject } from '../ladders/json.js';
import { strictJson } from './strict-json.js';
import type { ToolCall } from '../types.js';
import { laneMessages } from './messages.js';
import { stripChannelMarkers } from '../ladders/names.js';

export type JsonCallOutcome = { ok: true; call: ToolCall } | { ok: false; error: string };

function isGenericWrapper(name: string): boolean {
  return (DIALECTS.GENERIC_WRAPPER_NAMES as readonly string[]).includes(name);
}

/**
 * @param allowFlatArgumentString decode a JSON string `arguments` (Mistral payloads); otherwise
 *   only an OpenAI-style value carrying a `function` object gets that decoding.
 */
export function jsonCall(value: unknown, allowFlatArgumentString: boolean): JsonCallOutcome {
  if (!isJsonObject(value)) return { ok: false, error: laneMessages.fenceEntryNotObject };
  const fields = jsonFields(value);
  let name = stripChannelMarkers(fields.name);
  let args: unknown = fields.arguments ?? {};
  // repair: one level of generic wrapper, `{"name":"tool","args":{"name":"look","args":{...}}}`
  // (seen in: gpt-oss style wrappers; case: tool_parse_fenced_grammar::generic_tool_wrapper_unwraps)
  if (isGenericWrapper(name) && isJsonObject(args)) {
    const inner = jsonFields(args);
    const innerName = stripChannelMarkers(inner.name);
    if (innerName !== '') {
      name = innerName;
      args = inner.arguments ?? {};
    }
  }
  if (name === '') return { ok: false, error: laneMessages.fenceMissingName };
  if (typeof args === 'string' && (allowFlatArgumentString || isJsonObject(value.function))) {
    const decoded = strictJson(args);
    if (!decoded.ok) return { ok: false, error: laneMessages.argumentsStringInvalid(name, decoded.error) };
    args = decoded.value;
  }
  if (!isJsonObject(args)) return { ok: false, error: laneMessages.fenceArgsNotObject };
  return { ok: true, call: { id: 'tc_json', name, arguments: args } };
}
