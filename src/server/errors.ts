/**
 * The service's error catalogue: every code with its HTTP status and its meaning. Every error
 * answer is `{error: {code, message}}`; the code is the contract (documented in README.md, never
 * renamed or reused), the message is for people and never carries a stack trace or parser
 * internals.
 */
export const ERROR_CATALOGUE = {
  malformed_request: { status: 400, doc: 'the request is not well-formed HTTP (answered before any route runs)' },
  invalid_json: { status: 400, doc: 'the body is not valid UTF-8 JSON' },
  invalid_request: { status: 400, doc: 'a field is missing, has the wrong type, or is not allowed (the message names it)' },
  invalid_stream: { status: 400, doc: 'a line of a streamed body (after its options) is not JSON, not `{"text": string}`, or not UTF-8: an error event, and the stream ends' },
  invalid_tools: { status: 400, doc: '`tools` is not a registry the library accepts (the message names the entry and field)' },
  not_found: { status: 404, doc: 'no such route' },
  request_timeout: { status: 408, doc: 'the body did not arrive within `BODY_TIMEOUT_MS`' },
  stream_idle_timeout: { status: 408, doc: 'a stream sent no chunk for `STREAM_IDLE_TIMEOUT_MS`: an error event and the partial result (a 408 before its options arrived)' },
  body_too_large: { status: 413, doc: 'the body is larger than `BODY_LIMIT`' },
  batch_too_large: { status: 413, doc: 'a batch has more responses than `MAX_BATCH`' },
  unsupported_media_type: { status: 415, doc: 'the content type is not JSON, or its charset is not UTF-8' },
  unsupported_encoding: { status: 415, doc: 'the body has a `Content-Encoding` (compressed bodies are not accepted)' },
  response_too_large: { status: 422, doc: 'the answer would be larger than `MAX_RESPONSE_BYTES`' },
  internal_error: { status: 500, doc: 'anything else, e.g. a worker crash; details are logged, not returned' },
  overloaded: { status: 503, doc: 'the parse queue (`MAX_QUEUE`) or the bytes in flight (`MAX_INFLIGHT_BYTES`) are at their limit; retry after `Retry-After` seconds' },
  too_many_streams: { status: 503, doc: '`MAX_STREAMS` streams are open; answered before the body is read; retry after `Retry-After` seconds' },
  shutting_down: { status: 503, doc: 'the service is shutting down (an open stream ends with it as an error event and its partial result)' },
  parse_timeout: { status: 504, doc: 'the parse ran past `TASK_TIMEOUT_MS`; its worker was replaced' },
  upstream_unreachable: { status: 502, doc: 'sidecar: the upstream (`UPSTREAM_URL`) could not be reached, or dropped the connection before answering' },
  upstream_bad_response: { status: 502, doc: 'sidecar: the upstream answered 2xx with a body that is not a chat completion (or not an event stream when one was asked for), or one larger than `MAX_RESPONSE_BYTES`' },
  upstream_timeout: { status: 504, doc: 'sidecar: the upstream sent no answer, or stalled in its body, for `UPSTREAM_TIMEOUT_MS`' },
} as const satisfies Record<string, { status: number; doc: string }>;

export type ErrorCodeValue = keyof typeof ERROR_CATALOGUE;

export function statusOf(code: ErrorCodeValue): number {
  return ERROR_CATALOGUE[code].status;
}

/** Seconds a shed client should wait before retrying. */
export const RETRY_AFTER_SECONDS = 1;

export interface ErrorBody {
  error: { code: ErrorCodeValue; message: string };
}

export function errorBody(code: ErrorCodeValue, message: string): ErrorBody {
  return { error: { code, message } };
}

/**
 * The catalogue's error body with OpenAI's `type` and `param` beside `code` and `message`, so an
 * OpenAI client reads the sidecar's refusals as it reads the provider's own errors.
 */
export function openaiErrorBody(code: ErrorCodeValue, message: string): { error: ErrorBody['error'] & { type: string; param: null } } {
  return { error: { code, message, type: statusOf(code) < 500 ? 'invalid_request_error' : 'api_error', param: null } };
}

/** Whether a request is the OpenAI-compatible sidecar's (its `/v1/` routes): its errors take OpenAI's shape. */
export function isSidecarPath(url: string): boolean {
  return url.startsWith('/v1/') || url === '/v1';
}

/** The same body as a JSON string, for answers built inside a worker. */
export function errorJson(code: ErrorCodeValue, message: string): string {
  return JSON.stringify(errorBody(code, message));
}
