/**
 * Request intake limits, applied before a body is parsed: what may arrive (no content encoding,
 * UTF-8 only), how long a body may take to arrive (`BODY_TIMEOUT_MS`), and how many body bytes
 * the service holds at once (`MAX_INFLIGHT_BYTES`: bodies being read, queued or parsing, until
 * their answer is written). Stalled or oversized uploads are answered and their bytes released
 * instead of being held until a socket timeout.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { IncomingHttpHeaders } from 'node:http';
import type { ErrorCodeValue } from './errors.js';

/** An intake refusal: the error handler answers it in the catalogue's shape. */
export class IntakeError extends Error {
  readonly code: ErrorCodeValue;
  readonly statusCode: number;
  constructor(code: ErrorCodeValue, statusCode: number, message: string) {
    super(message);
    this.name = 'IntakeError';
    this.code = code;
    this.statusCode = statusCode;
  }
}

/** Charsets that mean UTF-8 (JSON is UTF-8; RFC 8259 section 8.1). */
const UTF8_CHARSETS: ReadonlySet<string> = new Set(['utf-8', 'utf8']);

/** Why these headers cannot be taken, or null. Run before the body is read. */
export function refusedHeaders(headers: IncomingHttpHeaders): IntakeError | null {
  const encoding = headers['content-encoding']?.trim().toLowerCase();
  if (encoding !== undefined && encoding !== '' && encoding !== 'identity') {
    return new IntakeError('unsupported_encoding', 415, `content encoding ${JSON.stringify(encoding)} is not supported; send the body uncompressed`);
  }
  const type = headers['content-type'];
  if (type !== undefined) {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(type)?.[1]?.toLowerCase();
    if (charset !== undefined && !UTF8_CHARSETS.has(charset)) {
      return new IntakeError('unsupported_media_type', 415, `charset ${JSON.stringify(charset)} is not supported; send UTF-8`);
    }
  }
  return null;
}

/** Body bytes held by the service, against `MAX_INFLIGHT_BYTES`. */
export class InflightBytes {
  readonly limit: number;
  #held = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  get held(): number {
    return this.#held;
  }

  /** Takes `bytes` when they fit (a first body is always let in, so one larger than the limit is not refused forever). */
  tryTake(bytes: number): boolean {
    if (this.#held > 0 && this.#held + bytes > this.limit) return false;
    this.#held += bytes;
    return true;
  }

  release(bytes: number): void {
    this.#held -= bytes;
  }
}

export function overloadedByBytes(limit: number): IntakeError {
  return new IntakeError('overloaded', 503, `request bodies in flight are at the limit of ${limit} bytes (MAX_INFLIGHT_BYTES); retry later`);
}

/**
 * Passes the body through, counting bytes the declared length did not cover against `inflight`
 * (chunked bodies), and fails with a 408 when the body is not complete within `timeoutMs`.
 * `onTaken` reports each count taken so the caller releases it with the answer.
 */
export function guardedBody(source: NodeJS.ReadableStream, inflight: InflightBytes, declared: number, timeoutMs: number, onTaken: (bytes: number) => void): Transform {
  let received = 0;
  const guard = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      received += chunk.length;
      const extra = received - declared;
      if (extra > 0) {
        const take = Math.min(extra, chunk.length);
        if (!inflight.tryTake(take)) {
          done(overloadedByBytes(inflight.limit));
          return;
        }
        onTaken(take);
        declared += take;
      }
      done(null, chunk);
    },
    flush(done: TransformCallback) {
      clearTimeout(timer);
      done();
    },
  });
  const timer = setTimeout(() => {
    guard.destroy(new IntakeError('request_timeout', 408, `the request body did not arrive within ${timeoutMs} ms (BODY_TIMEOUT_MS)`));
  }, timeoutMs);
  timer.unref();
  guard.on('close', () => clearTimeout(timer));
  // Fastify reads `receivedEncodedLength` from the payload to check the declared length.
  source.on('error', (error) => guard.destroy(error));
  source.pipe(guard);
  return guard;
}
