/**
 * The HTTP thread's part of a parse: move the raw body to a worker, and when the worker splits
 * a batch, run its items as separate tasks and join their answers. This thread never parses a
 * body's JSON; it only moves bytes and concatenates strings.
 */
import { ErrorCode, errorJson, RETRY_AFTER_SECONDS, STATUS_OF, type ErrorCodeValue } from './errors.js';
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
  const outcome: Outcome = { status: STATUS_OF[code], body: errorJson(code, message) };
  if (code === ErrorCode.Overloaded || code === ErrorCode.ShuttingDown) outcome.retryAfter = RETRY_AFTER_SECONDS;
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
  return failure(ErrorCode.Overloaded, 'the parse queue is full (MAX_QUEUE); retry later');
}

export async function dispatch(runner: ParseRunner, route: RouteName, raw: Uint8Array): Promise<Outcome> {
  // Checked again here: the queue may have filled while this body was being read.
  if (runner.saturated) return overloaded();
  try {
    const body = ownedBytes(raw);
    const reply = await runner.run({ op: 'request', route, body }, [body.buffer as ArrayBuffer]);
    return reply.kind === 'answer' ? fromAnswer(reply) : await runSplit(runner, reply);
  } catch (error) {
    if (!(error instanceof RunFailure)) throw error;
    const detail = error.cause instanceof Error ? `${error.cause.name}: ${error.cause.message}` : undefined;
    switch (error.reason) {
      case 'timeout':
        return failure(ErrorCode.ParseTimeout, 'the parse ran past the time limit (TASK_TIMEOUT_MS); its worker was replaced', detail);
      case 'closed':
        return failure(ErrorCode.ShuttingDown, 'the service is shutting down');
      case 'crashed':
        return failure(ErrorCode.Internal, 'internal error while parsing', detail);
    }
  }
}

function fromAnswer(answer: Answer): Outcome {
  const outcome: Outcome = { status: answer.status, body: answer.body };
  if (answer.logDetail !== undefined) outcome.logDetail = answer.logDetail;
  return outcome;
}

/** Items run in parallel; answers are joined in request order. The first failure wins. */
async function runSplit(runner: ParseRunner, split: Split): Promise<Outcome> {
  const answers = await Promise.all(split.items.map((item) => runner.run(item)));
  const parts: string[] = [];
  for (let i = 0; i < answers.length; i++) {
    const answer = answers[i]!;
    if (answer.kind !== 'answer') return failure(ErrorCode.Internal, 'internal error while parsing', 'item task split again');
    if (answer.status !== 200) return fromAnswer(answer);
    parts.push(`{"id":${split.idsJson[i]},"result":${answer.body}}`);
  }
  return { status: 200, body: `{"results":[${parts.join(',')}]}` };
}
