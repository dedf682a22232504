/**
 * The service's error codes. Every error answer is `{error: {code, message}}`; the code is the
 * contract (documented in README.md, never renamed or reused), the message is for people
 * and never carries a stack trace or parser internals.
 */
export const ErrorCode = {
  /** 400: the body is not valid UTF-8 JSON. */
  InvalidJson: 'invalid_json',
  /** 400: a field is missing, has the wrong type, or is not allowed (the message names it). */
  InvalidRequest: 'invalid_request',
  /** 400: `tools` is not a registry the library accepts (the message names the entry and field). */
  InvalidTools: 'invalid_tools',
  /** 413: the body is larger than `BODY_LIMIT`. */
  BodyTooLarge: 'body_too_large',
  /** 413: a batch has more responses than `MAX_BATCH`. */
  BatchTooLarge: 'batch_too_large',
  /** 415: the content type is not JSON. */
  UnsupportedMediaType: 'unsupported_media_type',
  /** 404: no such route. */
  NotFound: 'not_found',
  /** 503: the parse queue is full (`MAX_QUEUE`); retry after `Retry-After` seconds. */
  Overloaded: 'overloaded',
  /** 503: the service is shutting down. */
  ShuttingDown: 'shutting_down',
  /** 504: the parse ran past `TASK_TIMEOUT_MS`; its worker was replaced. */
  ParseTimeout: 'parse_timeout',
  /** 500: anything else, e.g. a worker crash; details are logged, not returned. */
  Internal: 'internal_error',
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

export const STATUS_OF: Readonly<Record<ErrorCodeValue, number>> = {
  invalid_json: 400,
  invalid_request: 400,
  invalid_tools: 400,
  body_too_large: 413,
  batch_too_large: 413,
  unsupported_media_type: 415,
  not_found: 404,
  overloaded: 503,
  shutting_down: 503,
  parse_timeout: 504,
  internal_error: 500,
};

/** Seconds a shed client should wait before retrying. */
export const RETRY_AFTER_SECONDS = 1;

export interface ErrorBody {
  error: { code: ErrorCodeValue; message: string };
}

export function errorBody(code: ErrorCodeValue, message: string): ErrorBody {
  return { error: { code, message } };
}

/** The same body as a JSON string, for answers built inside a worker. */
export function errorJson(code: ErrorCodeValue, message: string): string {
  return JSON.stringify(errorBody(code, message));
}
