/**
 * What the sidecar reads of a chat-completion request before forwarding it as it is: whether it
 * streams, its `tools` (the registry every answer is parsed with), and where call ids start so
 * the ids it makes do not repeat the ones earlier turns of the conversation already carry.
 */

export interface CompletionRequest {
  stream: boolean;
  /** The request's `tools` as sent; null when it has none (the answer then passes untouched). */
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

/** Reads the body the client sent (raw bytes, forwarded unchanged either way). */
export function readCompletionRequest(raw: Uint8Array): RequestReading {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    return { ok: false, code: 'invalid_json', message: 'the body is not valid UTF-8 JSON' };
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { ok: false, code: 'invalid_request', message: 'body must be a JSON object' };
  const { stream, tools, messages } = body as { stream?: unknown; tools?: unknown; messages?: unknown };
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') return { ok: false, code: 'invalid_request', message: 'body.stream must be a boolean' };
  if (tools !== undefined && tools !== null && !Array.isArray(tools)) return { ok: false, code: 'invalid_request', message: 'body.tools must be an array' };
  const listed = Array.isArray(tools) && tools.length > 0 ? tools : null;
  return {
    ok: true,
    request: { stream: stream === true, tools: listed, toolsJson: listed === null ? null : JSON.stringify(listed), callIdStart: priorCalls(messages) },
  };
}
