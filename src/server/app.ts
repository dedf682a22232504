/**
 * `buildApp(options)`: the HTTP service as a Fastify instance. No `listen`, no `process.env`,
 * nothing started on import; `start.ts` reads the environment and listens.
 *
 *   POST body --(raw bytes, BODY_LIMIT)--> runner --(worker: decode, validate, parse)--> JSON string --> reply
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import swagger from '@fastify/swagger';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { DEFAULT_SPLIT_MIN_CHARS, POOL_KINDS, resolveNumeric, upstreamBaseUrl, type NumericOptions } from './config.js';
import { defaultThreads } from './cpu.js';
import { errorBody, errorJson, isSidecarPath, openaiErrorBody, RETRY_AFTER_SECONDS, statusOf, type ErrorCodeValue } from './errors.js';
import { discardBound, discardRest, guardedBody, InflightBytes, IntakeError, overloadedByBytes, refusedHeaders } from './intake.js';
import { createMetrics } from './metrics.js';
import { requestIdOf } from './request-id.js';
import { opsRoutes, QUIET_PATHS } from './routes/ops.js';
import { parseRoutes } from './routes/parse.js';
import { streamRoutes } from './routes/stream.js';
import { InlineRunner } from './runner/inline-runner.js';
import { sidecarRoutes, type Sidecar } from './sidecar/routes.js';
import { PiscinaRunner } from './runner/piscina-runner.js';
import { SizeRoutedRunner } from './runner/size-routed-runner.js';
import type { ParseRunner } from './runner/types.js';
import type { WorkerLimits } from './runner/wire.js';

export interface AppOptions {
  /** `piscina` (default): worker threads. `inline`: parse on the HTTP thread. */
  pool?: 'piscina' | 'inline';
  threads?: number;
  maxQueue?: number;
  taskTimeoutMs?: number;
  bodyLimit?: number;
  /** How long a request body may take to arrive before a 408 (default 10 s). */
  bodyTimeoutMs?: number;
  maxBatch?: number;
  /** Answers larger than this are a 422 `response_too_large` (default 32 MiB). */
  maxResponseBytes?: number;
  /** Request body bytes held at once (read, queued, parsing); past it new bodies get 503. Default: 1/8 of the memory limit. */
  maxInflightBytes?: number;
  /** How long closing waits for running parses and answers still being written. */
  shutdownTimeoutMs?: number;
  /**
   * On close, how long to keep listening with readiness false (new parses get 503) before the
   * listener closes, so a load balancer that polls /readyz stops sending first. Default 0:
   * on Kubernetes the preStop sleep does this job.
   */
  drainDelayMs?: number;
  /**
   * With the pool, request bodies under this many bytes parse on the HTTP thread (see
   * docs/performance.md, "Crossover"). Default 0: every body goes to the pool.
   */
  inlineBelowBytes?: number;
  /**
   * Niceness the pool's worker threads take at start (Linux), so the HTTP thread runs first when
   * both want a CPU. Default 0 (unchanged); the service's WORKER_NICE defaults to 10.
   */
  workerNice?: number;
  /** Batches whose texts total at least this many characters are spread over the pool. */
  splitMinChars?: number;
  /** Streams open at once; past it a new one gets 503 before its body is read (default 512). */
  maxStreams?: number;
  /** A stream that sends no chunk for this long ends with an error event and its partial result (default 30 s). */
  streamIdleTimeoutMs?: number;
  /** With the pool, streams of at least this many characters run their final parse there (see docs/performance.md, "Streaming"). */
  streamPoolAtChars?: number;
  /** A pino level, or false for no logs (the default). */
  logLevel?: string | false;
  /** Pino destination (tests capture logs through it). */
  logStream?: { write(line: string): void };
  /** Also export process metrics (CPU, memory, event loop); default true. */
  defaultMetrics?: boolean;
  /** Another worker module speaking the same task protocol (test fixtures). */
  workerFile?: string | URL;
  /**
   * An OpenAI-compatible base URL (`http://vllm:8000/v1`): serves the sidecar's `/v1` routes in
   * front of it (docs/design.md, "Sidecar"). Absent: the parse API only.
   */
  upstreamUrl?: string | null;
  /** The sidecar's wait for the upstream: its headers, then each gap in its body (default 300 s). */
  upstreamTimeoutMs?: number;
  /**
   * `reasoning_started` for every answer the sidecar parses: whether the upstream model's
   * template opens its reasoning block in the prompt. Null or absent: each text says (and a
   * stream holds a plain answer until its end; see the README's "Streaming").
   */
  upstreamReasoningStarted?: boolean | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Where parse tasks run. */
    parseRunner: ParseRunner;
  }
}

/** Batches under this many characters of text are parsed in one task (see README.md). */
export { DEFAULT_SPLIT_MIN_CHARS };

/** The options as validated numbers, through the one table in config.ts. */
function resolvedOptions(options: AppOptions): NumericOptions & { pool: 'piscina' | 'inline' } {
  const pool = options.pool ?? 'piscina';
  if (!(POOL_KINDS as readonly string[]).includes(pool)) throw new TypeError(`options.pool must be "piscina" or "inline"; got ${String(pool)}`);
  const problems: string[] = [];
  const numeric = resolveNumeric(options, { pool, threadsDefault: defaultThreads }, (key) => `options.${key}`, problems);
  if (problems.length > 0) throw new TypeError(problems.join('; '));
  return { ...numeric, pool };
}

/** Request headers must arrive within this long (Node's own default, kept with its request timeout off). */
const HEADERS_TIMEOUT_MS = 60_000;

/** Left of SHUTDOWN_TIMEOUT_MS for closing the pool once the answers are written. */
const SHUTDOWN_MARGIN_MS = 500;

/**
 * Answers what Node's HTTP parser refused (malformed HTTP, its request timeout) in the
 * catalogue's shape, then closes the socket: nothing else can be read from it.
 */
function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const code: ErrorCodeValue = timedOut ? 'request_timeout' : 'malformed_request';
  const body = errorJson(code, timedOut ? 'the request did not arrive in time' : 'the request is not well-formed HTTP');
  const status = statusOf(code);
  socket.end(
    `HTTP/1.1 ${status} ${timedOut ? 'Request Timeout' : 'Bad Request'}\r\ncontent-type: application/json; charset=utf-8\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

function loggerOptions(options: AppOptions): FastifyServerOptions['logger'] {
  if (options.logLevel === undefined || options.logLevel === false) return false;
  return {
    level: options.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    ...(options.logStream ? { stream: options.logStream } : {}),
  };
}

export async function buildApp(options: AppOptions = {}): Promise<FastifyInstance> {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const {
    pool: poolKind, threads, maxQueue, taskTimeoutMs, bodyLimit, bodyTimeoutMs, maxBatch, maxResponseBytes, maxInflightBytes,
    shutdownTimeoutMs, drainDelayMs, inlineBelowBytes, workerNice, splitMinChars, upstreamTimeoutMs, maxStreams, streamIdleTimeoutMs, streamPoolAtChars,
  } = resolvedOptions(options);
  const upstreamUrl = options.upstreamUrl === undefined || options.upstreamUrl === null ? null : upstreamBaseUrl(options.upstreamUrl);
  if (options.upstreamUrl !== undefined && options.upstreamUrl !== null && upstreamUrl === null) {
    throw new TypeError('options.upstreamUrl must be an http or https URL without query, fragment or credentials');
  }
  const limits: WorkerLimits = { maxBatch, splitMinChars, maxResponseBytes };
  const inflight = new InflightBytes(maxInflightBytes);

  const app = Fastify({
    logger: loggerOptions(options),
    // One line per request, written in onResponse below.
    logController: new LogController({ disableRequestLogging: true }),
    // Malformed HTTP and Node's own request timeout are answered before any route, in the
    // catalogue's shape.
    clientErrorHandler,
    requestIdHeader: false,
    genReqId: (raw: IncomingMessage) => requestIdOf(raw.headers['x-request-id']) ?? randomUUID(),
    bodyLimit,
    // Answered by the draining hook below, with the service's own error shape.
    return503OnClosing: false,
    // Node's whole-request timeout would cut a stream that lasts longer; the backstop it gave
    // the other routes is the per-request timer in onRequest below.
    requestTimeout: 0,
  });
  app.server.headersTimeout = HEADERS_TIMEOUT_MS;
  const backstopMs = Math.max(60_000, 2 * bodyTimeoutMs);

  const metrics = createMetrics({ defaultMetrics: options.defaultMetrics ?? true });
  const pool = (): ParseRunner => new PiscinaRunner({
    threads, maxQueue, taskTimeoutMs, limits, workerNice, closeTimeoutMs: shutdownTimeoutMs,
    ...(options.workerFile !== undefined ? { workerFile: options.workerFile } : {}),
    events: { ...metrics.runnerEvents, onPoolError: (error) => app.log.error({ err: error }, 'worker pool error') },
  });
  let runner: ParseRunner;
  if (poolKind === 'inline') runner = new InlineRunner(limits, metrics.runnerEvents);
  else if (inlineBelowBytes > 0) runner = new SizeRoutedRunner(pool(), new InlineRunner(limits, metrics.runnerEvents), inlineBelowBytes);
  else runner = pool();
  metrics.watch(runner);
  app.decorate('parseRunner', runner);

  let draining = false;
  /** Answers not yet written to the end (parsing, or still going out to a slow reader). */
  const unfinished = new Set<ServerResponse>();
  let allFinished: (() => void) | null = null;
  // preClose runs before the listener closes: readiness turns false here, and every answer
  // already started is written to the end (bounded by SHUTDOWN_TIMEOUT_MS) before
  // server.close() closes the keep-alive sockets, which are idle by then.
  // Open streams end once the drain delay is over (a stream may last minutes): each says
  // shutting_down and gives its partial result, and then counts as an answer being written.
  let endStreams: () => void = () => undefined;
  app.addHook('preClose', async () => {
    draining = true;
    if (drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, drainDelayMs));
    endStreams();
    if (unfinished.size === 0) return;
    await new Promise<void>((resolve) => {
      allFinished = resolve;
      setTimeout(resolve, Math.max(0, shutdownTimeoutMs - drainDelayMs - SHUTDOWN_MARGIN_MS)).unref();
    });
  });
  app.addHook('onClose', async () => {
    await runner.close();
  });

  // Bodies stay raw bytes: the worker decodes and validates them (the HTTP thread never runs
  // JSON.parse on a body). Any other content type is a 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => {
    done(null, body);
  });

  app.addHook('onRequest', async (request, reply) => {
    const raw = reply.raw;
    unfinished.add(raw);
    raw.once('close', () => {
      unfinished.delete(raw);
      if (unfinished.size === 0) allFinished?.();
    });
    if (draining && request.url !== '/healthz' && request.url !== '/readyz') {
      reply.header('connection', 'close').header('retry-after', String(RETRY_AFTER_SECONDS));
      return reply.code(503).send(errorBody('shutting_down', 'the service is shutting down'));
    }
    if (request.method !== 'POST') return;
    const refused = refusedHeaders(request.headers);
    if (refused !== null) throw refused;
    // A stream accounts for its bytes as they come and has its own idle timeout.
    if (request.routeOptions.config.streamsBody === true) return;
    // A backstop only: BODY_TIMEOUT_MS (intake.ts) answers a stalled body first.
    const backstop = setTimeout(() => {
      if (!request.raw.complete) request.raw.socket?.destroy();
    }, backstopMs);
    backstop.unref();
    raw.once('close', () => clearTimeout(backstop));
    // The declared length is taken before the body is read; a stream's bytes as they come.
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > bodyLimit) return;
    if (Number.isSafeInteger(declared) && declared > 0) {
      if (!inflight.tryTake(declared)) {
        reply.header('retry-after', String(RETRY_AFTER_SECONDS));
        throw overloadedByBytes(maxInflightBytes);
      }
      raw.once('close', () => inflight.release(declared));
    }
  });
  app.addHook('preParsing', async (request, reply, payload) => {
    if (request.routeOptions.config.streamsBody === true) return payload;
    const declared = Number(request.headers['content-length'] ?? 0);
    const taken = Number.isSafeInteger(declared) && declared > 0 && declared <= bodyLimit ? declared : 0;
    const guard = guardedBody(payload, inflight, taken, bodyTimeoutMs, (bytes) => reply.raw.once('close', () => inflight.release(bytes)));
    reply.raw.once('close', () => guard.destroy());
    return guard;
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // A keep-alive socket that goes idle after server.close() began would hold the close
    // open until its keep-alive timeout; answers during the drain close their connection.
    if (draining) reply.header('connection', 'close');
  });
  app.addHook('onResponse', async (request, reply) => {
    if (!QUIET_PATHS.has(request.url)) {
      request.log.info({ method: request.method, url: request.url, statusCode: reply.statusCode, responseTime: reply.elapsedTime }, 'request completed');
    }
    metrics.requests.inc({
      route: request.routeOptions.url ?? 'unmatched',
      method: request.method,
      status: String(reply.statusCode),
    });
  });

  // The sidecar's requests are answered in OpenAI's error shape, refusals made before its route runs included.
  const bodyFor = (request: FastifyRequest, code: ErrorCodeValue, message: string): object =>
    upstreamUrl !== null && isSidecarPath(request.url) ? openaiErrorBody(code, message) : errorBody(code, message);
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(bodyFor(request, 'not_found', `no route ${request.method} ${request.url.split('?')[0]}`));
  });
  /** A refusal sent before its body was read: the rest is read and dropped first, then the connection closes. */
  const refuseBody = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (request.raw.complete) return;
    reply.header('connection', 'close');
    await discardRest(request.raw, discardBound(bodyLimit), bodyTimeoutMs);
  };
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    // A body cut short by its timeout is still arriving: the connection cannot carry another
    // request, and waiting for the rest would only wait longer.
    if (error instanceof IntakeError && error.code === 'request_timeout') reply.header('connection', 'close');
    else if (status === 413 || status === 415 || status === 503) await refuseBody(request, reply);
    if (error instanceof IntakeError) {
      if (error.code === 'overloaded') reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return reply.code(error.statusCode).send(bodyFor(request, error.code, error.message));
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send(bodyFor(request, 'body_too_large', `request body is larger than the limit of ${bodyLimit} bytes (BODY_LIMIT)`));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
      const type = request.headers['content-type'] ?? 'none';
      return reply.code(415).send(bodyFor(request, 'unsupported_media_type', `content type ${JSON.stringify(type)} is not supported; send application/json`));
    }
    if (status >= 400 && status < 500) {
      request.log.info({ code: error.code }, 'request rejected');
      return reply.code(status).send(bodyFor(request, 'invalid_request', error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(bodyFor(request, 'internal_error', 'internal error'));
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'tool-parse',
        description: 'Raw LLM responses in, tool calls out.',
        version: '0.1.0',
      },
    },
  });
  parseRoutes(app, { runner, metrics, limits, bodyLimit, maxResponseBytes });
  const streams = await streamRoutes(app, {
    runner, metrics, inflight, bodyLimit, bodyTimeoutMs, maxStreams, idleTimeoutMs: streamIdleTimeoutMs, poolAtChars: streamPoolAtChars,
  });
  endStreams = () => streams.endAll();
  const sidecar: Sidecar | null = upstreamUrl === null ? null : sidecarRoutes(app, { upstreamUrl, upstreamTimeoutMs, runner, metrics, maxResponseBytes, ...(typeof options.upstreamReasoningStarted === 'boolean' ? { reasoningStarted: options.upstreamReasoningStarted } : {}) });
  opsRoutes(app, { runner, metrics, draining: () => draining, ...(sidecar !== null ? { upstreamReadiness: sidecar.readiness } : {}) });

  try {
    await runner.warm();
  } catch (error) {
    await runner.close().catch(() => undefined);
    throw new Error('the parse workers failed to start (warm-up parse failed)', { cause: error });
  }
  return app;
}
