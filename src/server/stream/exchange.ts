/**
 * One `POST /parse/stream` exchange, full duplex: request bytes in as they are generated, the
 * framed events out as each chunk makes them certain, the final result last.
 *
 *   opening --(options valid: 200 committed)--> open --(body ends | limit | bad line)--> closing --> done
 *      \--(options refused, idle before them)--> 4xx answer
 *   client gone, at any point --> done at once: timer cleared, parser and bytes released, pool task stopped
 *
 * The HTTP thread runs the incremental part (`push`, linear in the chunk); a stream whose text
 * reaches `poolAtChars` has its final parse replayed in the pool, so the HTTP thread never runs
 * a full parse of a large text (docs/performance.md, "Streaming"). After a refusal or an early
 * end the rest of the body is read and dropped (bounded), so the client reads the answer
 * instead of a reset.
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, statusOf, type ErrorCodeValue } from '../errors.js';
import { discardBound, discardRest, type InflightBytes } from '../intake.js';
import type { ServiceMetrics } from '../metrics.js';
import { RunFailure, type ParseRunner } from '../runner/types.js';
import type { StreamFailure, StreamSpec } from '../runner/wire.js';
import type { ToolsCache } from '../worker/tools-cache.js';
import { ndjsonReader, plainReader, type BodyItem, type BodyReader } from './body-reader.js';
import type { WireFailure } from './framing.js';
import { openStream, optionsFromQuery, type StreamOptionsCheck } from './options.js';
import { StreamSession, type EventCounts } from './session.js';

export type StreamForm = 'ndjson' | 'plain';

/** What every exchange of one app shares. */
export interface StreamContext {
  runner: ParseRunner;
  metrics: ServiceMetrics;
  inflight: InflightBytes;
  cache: ToolsCache;
  check: StreamOptionsCheck;
  bodyLimit: number;
  bodyTimeoutMs: number;
  idleTimeoutMs: number;
  /** Texts of at least this many characters have their final parse in the pool (piscina only). */
  poolAtChars: number;
}

type Phase = 'opening' | 'open' | 'closing' | 'done';

/**
 * The rest of a body the stream no longer reads, read and dropped (at most 4 x BODY_LIMIT and
 * BODY_TIMEOUT_MS, see intake.ts), so a client still sending reads the answer instead of a reset;
 * a body still not complete after that loses its connection.
 */
export function dropRestOf(source: IncomingMessage, bodyLimit: number, bodyTimeoutMs: number): void {
  if (source.complete) return;
  void discardRest(source, discardBound(bodyLimit), bodyTimeoutMs).then(() => {
    if (!source.complete) source.socket?.destroy();
  });
}

function runFailureOf(error: RunFailure): WireFailure {
  switch (error.reason) {
    case 'timeout':
      return { code: 'parse_timeout', message: 'the final parse ran past the time limit (TASK_TIMEOUT_MS); its worker was replaced' };
    case 'closed':
      return { code: 'shutting_down', message: 'the service is shutting down' };
    default:
      return { code: 'internal_error', message: 'internal error while parsing' };
  }
}

export class StreamExchange {
  #phase: Phase = 'opening';
  #session: StreamSession | null = null;
  readonly #reader: BodyReader;
  #out: PassThrough | null = null;
  #idle: NodeJS.Timeout | null = null;
  #bytes = 0;
  #taken = 0;
  readonly #gone = new AbortController();
  readonly #stopTimer: (labels: { outcome: string }) => void;
  #source: Readable | null = null;
  #paused = false;

  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
    private readonly form: StreamForm,
    private readonly ctx: StreamContext,
  ) {
    this.#reader = form === 'ndjson' ? ndjsonReader() : plainReader();
    this.#stopTimer = ctx.metrics.streamDuration.startTimer();
  }

  /** Starts reading `body`; a text/plain stream opens at once from its query. */
  start(body: Readable | undefined): void {
    this.reply.raw.once('close', this.#onClose);
    this.#armIdle();
    if (this.form === 'plain') {
      const query = optionsFromQuery(this.request.query as Record<string, unknown>);
      if ('message' in query) this.#refuse('invalid_request', query.message);
      else this.#open(query.value, 'query');
      if (this.#phase === 'done') return;
    }
    // No body at all (Content-Length: 0) never reaches the content-type parser.
    if (body === undefined) {
      this.#onEnd();
      return;
    }
    this.#source = body;
    body.on('data', this.#onData);
    body.once('end', this.#onEnd);
    body.once('error', this.#onSourceError);
  }

  /** The service is closing: the stream ends now with shutting_down and its partial result. */
  shutdown(): void {
    this.#fail({ code: 'shutting_down', message: 'the service is shutting down' });
  }

  #identity(): StreamSpec['identity'] {
    return { id: `tp-${this.request.id}`, created: Math.floor(Date.now() / 1000), model: 'tool-parse' };
  }

  #open(value: unknown, where: 'options' | 'query'): void {
    const opened = openStream(value, where, this.ctx.check, this.ctx.cache, this.#identity());
    if (!opened.ok) {
      this.#refuse(opened.code, opened.message);
      return;
    }
    const session = new StreamSession(opened.spec, opened.tools.registry);
    this.#session = session;
    this.#phase = 'open';
    const out = new PassThrough();
    this.#out = out;
    const sse = session.contentType.startsWith('text/event-stream');
    this.reply.code(200).type(session.contentType).header('cache-control', 'no-cache');
    if (sse) this.reply.header('x-accel-buffering', 'no');
    void this.reply.send(out);
    this.#write(session.head());
  }

  /**
   * Writes framed events. A client that does not read its answer holds the body back: past the
   * answer's buffer the request is paused (TCP pushes back on the sender) until the answer drains,
   * so the events of a stream cannot pile up in memory; the idle timeout still runs meanwhile.
   */
  #write(text: string): void {
    const out = this.#out;
    if (text === '' || out === null) return;
    if (out.write(text) || this.#paused || this.#source === null) return;
    const source = this.#source;
    this.#paused = true;
    source.pause();
    out.once('drain', () => {
      this.#paused = false;
      if (this.#phase === 'opening' || this.#phase === 'open') source.resume();
    });
  }

  #count(counts: EventCounts): void {
    for (const [type, n] of Object.entries(counts)) this.ctx.metrics.streamEvents.inc({ type }, n);
  }

  /** perf: one timer per stream, pushed back on every chunk (`refresh`), not a new timer per chunk. */
  #armIdle(): void {
    if (this.#idle !== null) {
      this.#idle.refresh();
      return;
    }
    this.#idle = setTimeout(this.#onIdle, this.ctx.idleTimeoutMs);
    this.#idle.unref();
  }

  #clearIdle(): void {
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = null;
  }

  readonly #onIdle = (): void => {
    this.#idle = null;
    this.#fail({ code: 'stream_idle_timeout', message: `no chunk arrived for ${this.ctx.idleTimeoutMs} ms (STREAM_IDLE_TIMEOUT_MS)` });
  };

  readonly #onData = (bytes: Buffer): void => {
    if (this.#phase !== 'opening' && this.#phase !== 'open') return;
    this.#armIdle();
    const room = this.ctx.bodyLimit - this.#bytes;
    this.#bytes += bytes.length;
    if (bytes.length > room) {
      // Every byte within the limit is still read: what the partial result covers does not
      // depend on how the bytes were cut into packets.
      if (room > 0) this.#take(bytes.subarray(0, room));
      if (this.#phase === 'opening' || this.#phase === 'open') {
        this.#fail({ code: 'body_too_large', message: `the stream body passed the limit of ${this.ctx.bodyLimit} bytes (BODY_LIMIT)` });
      }
      return;
    }
    this.#take(bytes);
  };

  #take(bytes: Uint8Array): void {
    if (!this.ctx.inflight.tryTake(bytes.length)) {
      this.#fail({ code: 'overloaded', message: `request bodies in flight are at the limit of ${this.ctx.inflight.limit} bytes (MAX_INFLIGHT_BYTES); retry later` });
      return;
    }
    this.#taken += bytes.length;
    this.#items(this.#reader.feed(bytes));
  }

  #items(items: readonly BodyItem[]): void {
    for (const item of items) {
      if (this.#phase === 'opening') {
        if (item.kind === 'options') this.#open(item.value, 'options');
        else this.#refuse('invalid_json', item.kind === 'invalid' ? item.message : 'the stream body must start with its options line');
      } else if (this.#phase === 'open') {
        if (item.kind === 'invalid') this.#fail({ code: 'invalid_stream', message: item.message });
        else if (item.kind === 'text') {
          this.#write(this.#session!.push(item.text));
          this.#count(this.#session!.takeCounts());
        }
      }
      if (this.#phase !== 'opening' && this.#phase !== 'open') return;
    }
  }

  readonly #onEnd = (): void => {
    if (this.#phase !== 'opening' && this.#phase !== 'open') return;
    this.#items(this.#reader.finish());
    if (this.#phase === 'opening') this.#refuse('invalid_json', 'the stream body is empty; expected its options line');
    else if (this.#phase === 'open') this.#closeSafely(null);
  };

  readonly #onSourceError = (): void => {
    // The request stream broke (the client reset it): the close handler frees the state.
    this.#source?.off('data', this.#onData);
  };

  /** The client went away (or the answer ended): everything this stream holds is let go now. */
  readonly #onClose = (): void => {
    this.#clearIdle();
    this.ctx.inflight.release(this.#taken);
    this.#taken = 0;
    this.#session = null;
    this.#source?.off('data', this.#onData);
    if (this.#phase !== 'done') {
      this.#phase = 'done';
      this.#gone.abort();
      this.#out?.destroy();
      this.#stopTimer({ outcome: 'client_gone' });
    }
  };

  /** A refusal before the stream opened: the 4xx answer, then the rest of the body dropped. */
  #refuse(code: ErrorCodeValue, message: string): void {
    this.#phase = 'done';
    this.#clearIdle();
    this.#stopTimer({ outcome: 'refused' });
    void this.reply.code(statusOf(code)).type('application/json; charset=utf-8').send(errorBody(code, message));
    this.#dropRest();
  }

  /** The stream ends early: its failure and its partial result, then the rest of the body dropped. */
  #fail(failure: StreamFailure): void {
    if (this.#phase === 'opening') {
      this.#refuse(failure.code, failure.message);
      return;
    }
    if (this.#phase !== 'open') return;
    this.#dropRest();
    this.#closeSafely(failure);
  }

  #dropRest(): void {
    this.#source?.off('data', this.#onData);
    dropRestOf(this.request.raw, this.ctx.bodyLimit, this.ctx.bodyTimeoutMs);
  }

  /** `#close`, with anything it throws (a bug: model text never throws) ending the stream with internal_error. */
  #closeSafely(failure: StreamFailure | null): void {
    this.#close(failure).catch((error: unknown) => {
      this.request.log.error({ err: error }, 'stream close failed');
      if (this.#phase === 'done') return;
      this.#phase = 'done';
      this.#write(this.#session?.abort({ code: 'internal_error', message: 'internal error while parsing' }) ?? '');
      this.#stopTimer({ outcome: 'internal_error' });
      this.#out?.end();
    });
  }

  async #close(failure: StreamFailure | null): Promise<void> {
    const session = this.#session;
    if (session === null) return;
    this.#phase = 'closing';
    this.#clearIdle();
    let outcome: string = failure?.code ?? 'complete';
    const usePool = this.ctx.runner.kind === 'piscina' && session.chars >= this.ctx.poolAtChars;
    if (!usePool) {
      this.#write(session.end(failure));
      this.#count(session.takeCounts());
    } else {
      const task = session.endTask(failure);
      try {
        const reply = await this.ctx.runner.run(task, undefined, this.#gone.signal);
        if (this.#phase !== 'closing') return;
        if (reply.kind !== 'answer' || reply.status !== 200) {
          outcome = 'internal_error';
          this.#write(session.abort({ code: 'internal_error', message: 'internal error while parsing' }));
        } else {
          this.#write(reply.body);
          if (reply.streamEvents !== undefined) this.#count(reply.streamEvents);
        }
      } catch (error) {
        if (!(error instanceof RunFailure)) throw error;
        if (this.#phase !== 'closing') return;
        this.request.log.error({ detail: error.message, reason: error.reason }, 'stream final parse failed');
        const wire = runFailureOf(error);
        outcome = wire.code;
        this.#write(session.abort(wire));
      }
    }
    this.#phase = 'done';
    this.#session = null;
    this.#stopTimer({ outcome });
    this.#out?.end();
  }
}
