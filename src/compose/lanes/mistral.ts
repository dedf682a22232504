/**
 * Mistral `[TOOL_CALLS]` (docs/design.md, "Provider dialects"): only the first marker counts.
 *
 *   I'll look.[TOOL_CALLS]edit[ARGS]{"path": "a.rs"}      marker form   -> id tc_mistral_0
 *   I'll look.[TOOL_CALLS] [{"name": "edit", ...}, ...]   JSON payload  -> id tc_json each
 *   \_ prose _/
 *
 * Names must be registered; arguments are strict JSON (string arguments of the JSON form are
 * decoded); nothing is entity-decoded. Any call adds one `provider_dialect` violation.
 */
import { DIALECTS } from '../../dialects/vocabulary.js';
import { readJsonStream } from '../../lex/json-stream.js';
import { isJsonObject } from '../ladders/json.js';
import { strictJson } from './strict-json.js';
import type { ComposeContext } from '../context.js';
import type { DroppedFragment, LaneResult, ToolCall } from '../types.js';
import { jsonCall } from './json-call.js';
import { laneMessages, laneMessagesFor } from './messages.js';
import { providerResult, violation } from './result.js';

/** The Mistral result, or null when the text has no `[TOOL_CALLS]` marker. */
export function mistralResult(text: string, ctx: ComposeContext): LaneResult | null {
  const at = text.indexOf(DIALECTS.MISTRAL_CALL_MARKER);
  if (at < 0) return null;
  const prose = text.slice(0, at).trim();
  const payload = text.slice(at + DIALECTS.MISTRAL_CALL_MARKER.length).trim();
  const calls: ToolCall[] = [];
  const errors: string[] = [];
  const unknown: DroppedFragment[] = [];
  let ignored = '';
  if (payload.startsWith('[') || payload.startsWith('{')) ignored = readJsonPayload(payload, ctx, calls, errors, unknown);
  else readMarkerForm(payload, ctx, calls, errors, unknown);
  const violations = calls.length > 0 ? [violation('provider_dialect', laneMessagesFor(ctx.profile).mistralDialect)] : [];
  const result = providerResult(calls, errors, prose, violations);
  // The reference ignores text after the payload's first JSON value without a record; the port
  // records it, so a second `[TOOL_CALLS]` there reaches the tool-shape detector.
  if (ignored !== '') result.dropped = [{ text: ignored, reason: 'salvaged_as_prose' }];
  // Gateway: a call refused for its name is on the ledger too (the reference kept no record).
  if (ctx.profile === 'gateway' && unknown.length > 0) result.dropped = [...result.dropped, ...unknown];
  return result;
}

/** Reads the first JSON value of the payload; returns the trimmed text after it (not read). */
function readJsonPayload(payload: string, ctx: ComposeContext, calls: ToolCall[], errors: string[], unknown: DroppedFragment[]): string {
  const stream = readJsonStream(payload);
  const first = stream.values[0];
  if (first === undefined) {
    errors.push(laneMessages.mistralPayloadInvalid(stream.error ?? laneMessages.mistralPayloadEmpty));
    return '';
  }
  // Only the first value is the payload.
  const items = Array.isArray(first.value) ? (first.value as unknown[]) : [first.value];
  for (const item of items) {
    const outcome = jsonCall(item, true);
    if (!outcome.ok) errors.push(outcome.error);
    else if (!ctx.known.has(outcome.call.name)) {
      errors.push(laneMessages.mistralUnknownJson(outcome.call.name));
      unknown.push({ text: JSON.stringify(item), reason: 'unknown_tool' });
    }
    else calls.push(outcome.call);
  }
  return payload.slice(first.end).trim();
}

function readMarkerForm(payload: string, ctx: ComposeContext, calls: ToolCall[], errors: string[], unknown: DroppedFragment[]): void {
  //   edit[ARGS]{"path": "a.rs"}
  //       ^ argsAt; without [ARGS] there is no name either
  const argsAt = payload.indexOf(DIALECTS.MISTRAL_ARGS_MARKER);
  const name = argsAt < 0 ? '' : payload.slice(0, argsAt).trim();
  if (name === '') {
    errors.push(laneMessages.mistralMissingName);
    return;
  }
  if (!ctx.known.has(name)) {
    errors.push(laneMessages.mistralUnknownMarker(name));
    unknown.push({ text: payload, reason: 'unknown_tool' });
    return;
  }
  const parsed = strictJson(payload.slice(argsAt + DIALECTS.MISTRAL_ARGS_MARKER.length).trim());
  if (!parsed.ok) errors.push(laneMessages.mistralArgsInvalid(name, parsed.error));
  // The reference drops a parsed non-object silently; the port reports it (nothing consumed unrecorded).
  else if (!isJsonObject(parsed.value)) errors.push(laneMessages.mistralArgsNotObject(name));
  else calls.push({ id: 'tc_mistral_0', name, arguments: parsed.value });
}
