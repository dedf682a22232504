/**
 * Request intake limits, applied before a body is parsed: what may arrive (no content encoding,
 * UTF-8 only), how long a body may take to arrive (`BODY_TIMEOUT_MS`), and how many body bytes
 * the service holds at once (`MAX_INFLIGHT_BYTES`: bodies being read, queued or parsing, until
 * their answer is written). Stalled or oversized uploads are answered and their bytes released
 * instead of being held until a socket timeout.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
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
 * `onTaken` reports each count taken so the caller releases it with the answer; the caller
 * destroys the guard once the answer is sent, which stops the timeout for a body nobody read.
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
  // A body refused before it is read (413 by declared length, 415) has no reader listening for
  // the guard's errors; its timeout must not become an uncaught exception that takes the service
  // down. A reader attaches its own listener and still sees them.
  guard.on('error', () => undefined);
  // Fastify reads `receivedEncodedLength` from the payload to check the declared length.
  source.on('error', (error) => guard.destroy(error));
  source.pipe(guard);
  return guard;
}

/** A refused body is read and thrown away up to this many times BODY_LIMIT, and at least DISCARD_FLOOR_BYTES (see `discardRest`). */
export const DISCARD_BODY_LIMITS = 4;
export const DISCARD_FLOOR_BYTES = 16 * 1024 * 1024;

export function discardBound(bodyLimit: number): number {
  return Math.max(DISCARD_BODY_LIMITS * bodyLimit, DISCARD_FLOOR_BYTES);
}

/**
 * Reads and throws away what is left of a body the service refuses (413, 415, 503), at most
 * `bound` bytes and `timeoutMs`, so the refusal can be sent and the connection closed without
 * unread bytes: closing a socket with unread data resets it, and a client still sending (curl
 * with a 12 MB body) then sees EPIPE or ECONNRESET instead of the answer. A body declared longer
 * than `bound` is not read at all (reading part of it would not spare the reset). Holds nothing:
 * each chunk is dropped as it comes.
 */
export function discardRest(source: IncomingMessage, bound: number, timeoutMs: number): Promise<void> {
  const declared = Number(source.headers['content-length'] ?? 0);
  if (source.complete || source.destroyed || declared > bound) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (): void => {
      clearTimeout(timer);
      source.off('data', onData).off('end', finish).off('close', finish).off('error', finish);
      resolve();
    };
    const onData = (chunk: Buffer): void => {
      seen += chunk.length;
      if (seen >= bound) finish();
    };
    const timer = setTimeout(finish, timeoutMs);
    // The body guard may still be piped from the source; the bytes go nowhere now.
    source.unpipe();
    source.on('data', onData).once('end', finish).once('close', finish).once('error', finish);
    source.resume();
  });
}
