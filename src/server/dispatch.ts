/**
 * The HTTP thread's part of a parse: move the raw body to a worker, and when the worker splits
 * a batch, run its items as separate tasks and join their answers. This thread never parses a
 * body's JSON; it only moves bytes and concatenates strings.
 */
import { errorJson, RETRY_AFTER_SECONDS, statusOf, type ErrorCodeValue } from './errors.js';
import { RunFailure, type ParseRunner } from './runner/types.js';
import type { Answer, RouteName, Split } from './runner/wire.js';

export interface Outcome {
  status: number;
  body: string;
  /** Set for 503: seconds before a retry makes sense. */
  retryAfter?: number;
  /** For the log only. */
  logDetail?: string;
}

function failure(code: ErrorCodeValue, message: string, logDetail?: string): Outcome {
  const outcome: Outcome = { status: statusOf(code), body: errorJson(code, message) };
  if (code === 'overloaded' || code === 'shutting_down') outcome.retryAfter = RETRY_AFTER_SECONDS;
  if (logDetail !== undefined) outcome.logDetail = logDetail;
  return outcome;
}

/**
 * A body buffer the worker may own. Fastify's small bodies can be views into Node's shared
 * allocation pool; moving that pool would detach it under every other request, so such a view
 * is copied (it is small: the pool only serves allocations under 4 KiB).
 */
export function ownedBytes(body: Uint8Array): Uint8Array {
  if (body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer) return body;
  return new Uint8Array(body);
}

/** The 503 a request gets when the queue is at MAX_QUEUE. */
export function overloaded(): Outcome {
  return failure('overloaded', 'the parse queue is full (MAX_QUEUE); retry later');
}

/** The 422 for an answer over MAX_RESPONSE_BYTES (also built in the worker). */
export function responseTooLarge(maxResponseBytes: number): Outcome {
  return failure('response_too_large', `the answer would be larger than the limit of ${maxResponseBytes} bytes (MAX_RESPONSE_BYTES)`);
}

export interface DispatchOptions {
  maxResponseBytes: number;
  /** Fires when the client has gone: the task is stopped and nothing is answered. */
  signal?: AbortSignal;
}

export async function dispatch(runner: ParseRunner, route: RouteName, raw: Uint8Array, options: DispatchOptions): Promise<Outcome> {
  // Checked again here: the queue may have filled while this body was being read.
  if (runner.saturated) return overloaded();
  try {
    const body = ownedBytes(raw);
    const reply = await runner.run({ op: 'request', route, body }, [body.buffer as ArrayBuffer], options.signal);
    return reply.kind === 'answer' ? fromAnswer(reply) : await runSplit(runner, reply, options);
  } catch (error) {
    if (!(error instanceof RunFailure)) throw error;
    const detail = error.cause instanceof Error ? `${error.cause.name}: ${error.cause.message}` : undefined;
    switch (error.reason) {
      case 'timeout':
        return failure('parse_timeout', 'the parse ran past the time limit (TASK_TIMEOUT_MS); its worker was replaced', detail);
      case 'closed':
        return failure('shutting_down', 'the service is shutting down');
      case 'aborted':
        return failure('internal_error', 'the client went away', 'client disconnected');
      case 'crashed':
        return failure('internal_error', 'internal error while parsing', detail);
    }
  }
}

function fromAnswer(answer: Answer): Outcome {
  const outcome: Outcome = { status: answer.status, body: answer.body };
  if (answer.logDetail !== undefined) outcome.logDetail = answer.logDetail;
  return outcome;
}

/**
 * Items run a few at a time (the runner's lanes); answers are joined in request order. The batch
 * counts against MAX_QUEUE as its items: one that does not fit is shed whole. The first failure
 * wins. The joined answer's size is added up before the join, so an answer over
 * MAX_RESPONSE_BYTES is a 422 and never a half-built string.
 */
async function runSplit(runner: ParseRunner, split: Split, options: DispatchOptions): Promise<Outcome> {
  if (!runner.admits(split.items.length)) return overloaded();
  const answers = await runner.runItems(split.items, options.signal);
  const parts: string[] = [];
  let bytes = 2 + '{"results":[]}'.length;
  for (let i = 0; i < answers.length; i++) {
    const answer = answers[i]!;
    if (answer.kind !== 'answer') return failure('internal_error', 'internal error while parsing', 'item task split again');
    if (answer.status !== 200) return fromAnswer(answer);
    const part = `{"id":${split.idsJson[i]},"result":${answer.body}}`;
    bytes += Buffer.byteLength(part, 'utf8') + 1;
    if (bytes > options.maxResponseBytes) return responseTooLarge(options.maxResponseBytes);
    parts.push(part);
  }
  return { status: 200, body: `{"results":[${parts.join(',')}]}` };
}
