/**
 * What the sidecar reads of a chat-completion request before forwarding it as it is: whether it
 * streams, its `tools` as its `tool_choice` narrows them (the registry every answer is parsed
 * with), and where call ids start so the ids it makes do not repeat the ones earlier turns of
 * the conversation already carry.
 */

export interface CompletionRequest {
  stream: boolean;
  /** The request's `tools` its `tool_choice` allows; null when none (the answer then passes untouched). */
  tools: unknown[] | null;
  /** `tools` as JSON text: the registry cache key, here and in the workers. */
  toolsJson: string | null;
  /** Tool calls already in the conversation: the first `tc_<n>` this answer may use. */
  callIdStart: number;
}

export type RequestReading = { ok: true; request: CompletionRequest } | { ok: false; code: 'invalid_json' | 'invalid_request'; message: string };

function priorCalls(messages: unknown): number {
  if (!Array.isArray(messages)) return 0;
  let count = 0;
  for (const message of messages) {
    const calls = (message as { tool_calls?: unknown } | null)?.tool_calls;
    if (Array.isArray(calls)) count += calls.length;
  }
  return count;
}

/**
 * The tools an answer may call, by the request's `tool_choice`: `"none"` calls none (the answer
 * passes untouched, as without tools), a named function only that one (a call to any other is
 * refused as an unknown tool), anything else (`"auto"`, `"required"`, absent) every tool. A
 * message string for a `tool_choice` that is not one of OpenAI's forms or names no listed tool.
 */
function toolsChosen(tools: unknown[], choice: unknown): unknown[] | string {
  if (choice === undefined || choice === null || choice === 'auto' || choice === 'required') return tools;
  if (choice === 'none') return [];
  const named = (choice as { type?: unknown; function?: { name?: unknown } } | null)?.function?.name;
  if (typeof choice !== 'object' || (choice as { type?: unknown }).type !== 'function' || typeof named !== 'string') {
    return 'body.tool_choice must be "none", "auto", "required" or {"type": "function", "function": {"name": …}}';
  }
  const kept = tools.filter((tool) => nameOf(tool) === named);
  return kept.length > 0 ? kept : `body.tool_choice names the function ${JSON.stringify(named)}, which body.tools does not list`;
}

/** A listed tool's name, in OpenAI's form or the bare `{name}` one. */
function nameOf(tool: unknown): unknown {
  if (tool === null || typeof tool !== 'object') return undefined;
  const entry = tool as { name?: unknown; function?: { name?: unknown } };
  return entry.function?.name ?? entry.name;
}

/** Reads the body the client sent (raw bytes, forwarded unchanged either way). */
export function readCompletionRequest(raw: Uint8Array): RequestReading {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    return { ok: false, code: 'invalid_json', message: 'the body is not valid UTF-8 JSON' };
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { ok: false, code: 'invalid_request', message: 'body must be a JSON object' };
  const { stream, tools, messages, tool_choice: choice } = body as { stream?: unknown; tools?: unknown; messages?: unknown; tool_choice?: unknown };
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') return { ok: false, code: 'invalid_request', message: 'body.stream must be a boolean' };
  if (tools !== undefined && tools !== null && !Array.isArray(tools)) return { ok: false, code: 'invalid_request', message: 'body.tools must be an array' };
  const chosen = toolsChosen(Array.isArray(tools) ? tools : [], choice);
  if (typeof chosen === 'string') return { ok: false, code: 'invalid_request', message: chosen };
  const listed = chosen.length > 0 ? chosen : null;
  return {
    ok: true,
    request: { stream: stream === true, tools: listed, toolsJson: listed === null ? null : JSON.stringify(listed), callIdStart: priorCalls(messages) },
  };
}
