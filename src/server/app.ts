/**
 * `buildApp(options)`: the HTTP service as a Fastify instance. No `listen`, no `process.env`,
 * nothing started on import; `start.ts` reads the environment and listens.
 *
 *   POST body --(raw bytes, BODY_LIMIT)--> runner --(worker: decode, validate, parse)--> JSON string --> reply
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import swagger from '@fastify/swagger';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { DEFAULT_BODY_LIMIT, DEFAULT_MAX_BATCH, DEFAULT_SHUTDOWN_TIMEOUT_MS, DEFAULT_TASK_TIMEOUT_MS, QUEUE_PER_THREAD } from './config.js';
import { defaultThreads } from './cpu.js';
import { ErrorCode, errorBody, RETRY_AFTER_SECONDS } from './errors.js';
import { createMetrics } from './metrics.js';
import { requestIdOf } from './request-id.js';
import { opsRoutes, QUIET_PATHS } from './routes/ops.js';
import { parseRoutes } from './routes/parse.js';
import { InlineRunner } from './runner/inline-runner.js';
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
  maxBatch?: number;
  /** How long closing waits for running parses before the pool is torn down. */
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
  /** A pino level, or false for no logs (the default). */
  logLevel?: string | false;
  /** Pino destination (tests capture logs through it). */
  logStream?: { write(line: string): void };
  /** Also export process metrics (CPU, memory, event loop); default true. */
  defaultMetrics?: boolean;
  /** Another worker module speaking the same task protocol (test fixtures). */
  workerFile?: string | URL;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Where parse tasks run. */
    parseRunner: ParseRunner;
  }
}

/** Batches under this many characters of text are parsed in one task (see README.md). */
export const DEFAULT_SPLIT_MIN_CHARS = 2048;

function positiveInt(options: AppOptions, field: keyof AppOptions, fallback: number): number {
  const value = options[field] ?? fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`options.${field} must be a positive integer; got ${String(value)}`);
  }
  return value;
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
  const poolKind = options.pool ?? 'piscina';
  if (poolKind !== 'piscina' && poolKind !== 'inline') throw new TypeError(`options.pool must be "piscina" or "inline"; got ${String(poolKind)}`);
  const threads = positiveInt(options, 'threads', poolKind === 'piscina' ? defaultThreads() : 1);
  const maxQueue = positiveInt(options, 'maxQueue', threads * QUEUE_PER_THREAD);
  const taskTimeoutMs = positiveInt(options, 'taskTimeoutMs', DEFAULT_TASK_TIMEOUT_MS);
  const bodyLimit = positiveInt(options, 'bodyLimit', DEFAULT_BODY_LIMIT);
  const maxBatch = positiveInt(options, 'maxBatch', DEFAULT_MAX_BATCH);
  const shutdownTimeoutMs = positiveInt(options, 'shutdownTimeoutMs', DEFAULT_SHUTDOWN_TIMEOUT_MS);
  const splitMinChars = positiveInt(options, 'splitMinChars', DEFAULT_SPLIT_MIN_CHARS);
  const drainDelayMs = options.drainDelayMs ?? 0;
  if (!Number.isSafeInteger(drainDelayMs) || drainDelayMs < 0) {
    throw new TypeError(`options.drainDelayMs must be a non-negative integer; got ${String(drainDelayMs)}`);
  }
  const inlineBelowBytes = options.inlineBelowBytes ?? 0;
  if (!Number.isSafeInteger(inlineBelowBytes) || inlineBelowBytes < 0) {
    throw new TypeError(`options.inlineBelowBytes must be a non-negative integer; got ${String(inlineBelowBytes)}`);
  }
  const workerNice = options.workerNice ?? 0;
  if (!Number.isSafeInteger(workerNice) || workerNice < 0 || workerNice > 19) {
    throw new TypeError(`options.workerNice must be an integer from 0 to 19; got ${String(workerNice)}`);
  }
  const limits: WorkerLimits = { maxBatch, splitMinChars };

  const app = Fastify({
    logger: loggerOptions(options),
    logController: new LogController({ disableRequestLogging: (request) => QUIET_PATHS.has(request.url) }),
    requestIdHeader: false,
    genReqId: (raw: IncomingMessage) => requestIdOf(raw.headers['x-request-id']) ?? randomUUID(),
    bodyLimit,
    // Answered by the draining hook below, with the service's own error shape.
    return503OnClosing: false,
    requestTimeout: 60_000,
  });

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
  // preClose runs before the listener closes: readiness turns false here, and in-flight
  // requests then finish while server.close() refuses new connections.
  app.addHook('preClose', async () => {
    draining = true;
    if (drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, drainDelayMs));
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
    if (!draining || request.url === '/healthz' || request.url === '/readyz') return;
    reply.header('connection', 'close').header('retry-after', String(RETRY_AFTER_SECONDS));
    return reply.code(503).send(errorBody(ErrorCode.ShuttingDown, 'the service is shutting down'));
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // A keep-alive socket that goes idle after server.close() began would hold the close
    // open until its keep-alive timeout; answers during the drain close their connection.
    if (draining) reply.header('connection', 'close');
  });
  app.addHook('onResponse', async (request, reply) => {
    metrics.requests.inc({
      route: request.routeOptions.url ?? 'unmatched',
      method: request.method,
      status: String(reply.statusCode),
    });
  });

  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(errorBody(ErrorCode.NotFound, `no route ${request.method} ${request.url.split('?')[0]}`));
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send(errorBody(ErrorCode.BodyTooLarge, `request body is larger than the limit of ${bodyLimit} bytes (BODY_LIMIT)`));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
      const type = request.headers['content-type'] ?? 'none';
      return reply.code(415).send(errorBody(ErrorCode.UnsupportedMediaType, `content type ${JSON.stringify(type)} is not supported; send application/json`));
    }
    if (status >= 400 && status < 500) {
      request.log.info({ code: error.code }, 'request rejected');
      return reply.code(status).send(errorBody(ErrorCode.InvalidRequest, error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(errorBody(ErrorCode.Internal, 'internal error'));
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
  parseRoutes(app, { runner, metrics, limits, bodyLimit });
  opsRoutes(app, { runner, metrics, draining: () => draining });

  try {
    await runner.warm();
  } catch (error) {
    await runner.close().catch(() => undefined);
    throw new Error('the parse workers failed to start (warm-up parse failed)', { cause: error });
  }
  return app;
}
