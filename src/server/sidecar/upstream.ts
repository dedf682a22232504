/**
 * The sidecar's client for the upstream model server: one undici `Pool` per upstream origin,
 * keep-alive, so every forwarded request reuses a warm connection. Failures are sorted into the
 * catalogue's upstream codes here, once; a client that went away is its own outcome, not an error.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Pool, type Dispatcher } from 'undici';
import type { ErrorCodeValue } from '../errors.js';

export interface UpstreamOptions {
  /** The base URL as an OpenAI client takes it (`http://vllm:8000/v1`), no trailing slash. */
  baseUrl: string;
  /** Longest wait for the answer's headers, and then for each piece of its body. */
  timeoutMs: number;
  /** Connections kept to the upstream (default: undici's, unbounded). */
  connections?: number;
}

export type UpstreamResponse = Dispatcher.ResponseData;

/** Why the upstream gave no usable answer; `code` is the catalogue's. */
export class UpstreamFailure extends Error {
  constructor(readonly code: ErrorCodeValue | 'client_gone', message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UpstreamFailure';
  }
}

const TIMEOUT_CODES: ReadonlySet<string> = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** The catalogue's reading of an error undici raised (or of the caller's abort). */
export function upstreamFailureOf(error: unknown, signal: AbortSignal | undefined, timeoutMs: number): UpstreamFailure {
  if (error instanceof UpstreamFailure) return error;
  if (signal?.aborted) return new UpstreamFailure('client_gone', 'the client went away', { cause: error });
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && TIMEOUT_CODES.has(code)) {
    return new UpstreamFailure('upstream_timeout', `the upstream did not answer within ${timeoutMs} ms (UPSTREAM_TIMEOUT_MS)`, { cause: error });
  }
  return new UpstreamFailure('upstream_unreachable', 'the upstream could not be reached', { cause: error });
}

export class Upstream {
  private readonly pool: Pool;
  /** The base URL's path (`/v1`), which every upstream route is under. */
  private readonly prefix: string;
  readonly timeoutMs: number;

  constructor(options: UpstreamOptions) {
    const url = new URL(options.baseUrl);
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs;
    this.pool = new Pool(url.origin, {
      ...(options.connections !== undefined ? { connections: options.connections } : {}),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 30_000,
    });
  }

  /**
   * One request to `<base URL><path>`. Resolves once the headers are in (the body is the
   * caller's to read); rejects only with UpstreamFailure.
   */
  async request(method: 'GET' | 'POST', path: string, headers: IncomingHttpHeaders, body: Uint8Array | null, signal?: AbortSignal): Promise<UpstreamResponse> {
    try {
      return await this.pool.request({
        method,
        path: this.prefix + path,
        headers,
        body: body === null ? null : Buffer.from(body.buffer, body.byteOffset, body.byteLength),
        ...(signal !== undefined ? { signal } : {}),
      });
    } catch (error) {
      throw upstreamFailureOf(error, signal, this.timeoutMs);
    }
  }

  /**
   * Ends every connection. Called when the app closes, after its drain has waited for answers
   * under way (SHUTDOWN_TIMEOUT_MS): a stream still running then is cut, not waited for.
   */
  close(): Promise<void> {
    return this.pool.destroy();
  }
}

/** Reads a whole body, refusing past `limit` bytes (the rest is not read). */
export async function readBody(response: UpstreamResponse, limit: number, signal: AbortSignal | undefined, timeoutMs: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of response.body) {
      const part = chunk as Buffer;
      bytes += part.byteLength;
      if (bytes > limit) {
        response.body.destroy();
        throw new UpstreamFailure('upstream_bad_response', `the upstream's answer is larger than the limit of ${limit} bytes (MAX_RESPONSE_BYTES)`);
      }
      parts.push(part);
    }
  } catch (error) {
    throw upstreamFailureOf(error, signal, timeoutMs);
  }
  return Buffer.concat(parts, bytes);
}
