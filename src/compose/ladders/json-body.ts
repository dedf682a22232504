import type { ComposeContext } from '../context.js';
import type { ToolCall } from '../types.js';
import { decodeArgumentEntities } from './entities.js';
import { isJsonObject, parseJson } from './json.js';
import { jsonFields } from './json-fields.js';
import { jsonBodyMessages as msg, jsonBodyMessagesFor } from './messages.js';

export type JsonBodyOutcome = { ok: true; call: ToolCall } | { ok: false; error: string };

/** Provisional id of a JSON-body call without its own `id` (the boundary restamps ids). */
const JSON_CALL_ID = 'tc_json';

/**
 * A JSON tool object inside a `<tool_call>` block (docs/design.md, "JSON bodies"):
 *
 *   <tool_call>{"name": "edit", "arguments": {...}}</tool_call>
 *              ^ source: the whole trimmed body (two concatenated objects do not parse)
 *
 * The name comes from the object, else from the label hint; it must be registered. String
 * arguments are decoded; every argument string is entity-decoded once.
 */
export function jsonCallFromBody(source: string, ctx: ComposeContext, nameHint = ''): JsonBodyOutcome {
  const parsed = parseJson(source);
  if (!parsed.ok) return { ok: false, error: jsonBodyMessagesFor(ctx.profile).invalid(parsed.error) };
  let item = parsed.value;
  if (Array.isArray(item)) {
    if (item.length !== 1) return { ok: false, error: msg.severalCalls(item.length) };
    item = item[0] as unknown;
  }
  if (!isJsonObject(item)) return { ok: false, error: msg.notObject(item) };

  const fields = jsonFields(item);
  const name = fields.name !== '' ? fields.name : nameHint.trim();
  if (name === '') return { ok: false, error: msg.missingName };
  if (!ctx.known.has(name)) return { ok: false, error: msg.unknownTool(name, ctx.knownList) };

  let args = fields.arguments;
  if (typeof args === 'string') {
    const decoded = parseJson(args);
    if (!decoded.ok) return { ok: false, error: msg.argumentsStringInvalid(name, decoded.error) };
    args = decoded.value;
  }
  if (!isJsonObject(args)) return { ok: false, error: msg.argumentsNotObject(name, args) };

  return { ok: true, call: { id: callId(item.id), name, arguments: decodeArgumentEntities(args) } };
}

/** The object's own `id` as a string when it has one. */
function callId(id: unknown): string {
  if (id === undefined || id === null) return JSON_CALL_ID;
  return typeof id === 'string' ? id : JSON.stringify(id);
}
