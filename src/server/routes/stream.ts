/**
 * POST /parse/stream: one response as it is generated, its events as they become certain
 * (README, "POST /parse/stream"). Registered in its own scope, whose content types
 * (`application/x-ndjson`, `text/plain`) hand the handler the body unread, as a stream; the
 * app's body guard (a whole body within BODY_TIMEOUT_MS) does not apply, STREAM_IDLE_TIMEOUT_MS
 * and the streamed byte count do (stream/exchange.ts).
 *
 * Admission happens before any body is read: at MAX_STREAMS open streams a new one is a 503,
 * and a content type that is neither form a 415, each answered before the body is dropped.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, RETRY_AFTER_SECONDS, statusOf, type ErrorCodeValue } from '../errors.js';
import type { InflightBytes } from '../intake.js';
import type { ServiceMetrics } from '../metrics.js';
import type { ParseRunner } from '../runner/types.js';
import { errorResponses, streamOptionsSchema } from '../schemas.js';
import { dropRestOf, StreamExchange, type StreamContext, type StreamForm } from '../stream/exchange.js';
import { compileStreamOptions } from '../stream/options.js';
import { ToolsCache } from '../worker/tools-cache.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads its body as a stream: the app's whole-body guard and byte accounting stay off it. */
    streamsBody?: boolean;
  }
}

export interface StreamRoutesOptions {
  runner: ParseRunner;
  metrics: ServiceMetrics;
  inflight: InflightBytes;
  bodyLimit: number;
  bodyTimeoutMs: number;
  maxStreams: number;
  idleTimeoutMs: number;
  poolAtChars: number;
}

const FORMS: Readonly<Record<string, StreamForm>> = { 'application/x-ndjson': 'ndjson', 'text/plain': 'plain' };

function formOf(type: string | undefined): StreamForm | null {
  const media = type?.split(';')[0]?.trim().toLowerCase();
  return media === undefined ? null : FORMS[media] ?? null;
}

export interface StreamControl {
  /** Ends every open stream with `shutting_down` and its partial result (the service is closing). */
  endAll(): void;
}

export async function streamRoutes(app: FastifyInstance, options: StreamRoutesOptions): Promise<StreamControl> {
  let open = 0;
  const live = new Set<StreamExchange>();
  options.metrics.watchStreams(() => open);
  const ctx: StreamContext = {
    runner: options.runner,
    metrics: options.metrics,
    inflight: options.inflight,
    cache: new ToolsCache(),
    check: compileStreamOptions(),
    bodyLimit: options.bodyLimit,
    bodyTimeoutMs: options.bodyTimeoutMs,
    idleTimeoutMs: options.idleTimeoutMs,
    poolAtChars: options.poolAtChars,
  };

  /**
   * Refused before the body is read: the answer goes first (a client that waits for it before
   * sending reads it at once), then the body, if one comes, is read and dropped, bounded.
   */
  const refuse = (request: FastifyRequest, reply: FastifyReply, code: ErrorCodeValue, message: string): void => {
    if (code === 'too_many_streams') reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    void reply.code(statusOf(code)).send(errorBody(code, message));
    dropRestOf(request.raw, options.bodyLimit, options.bodyTimeoutMs);
  };

  const admit = (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    if (formOf(request.headers['content-type']) === null) {
      const type = request.headers['content-type'] ?? 'none';
      refuse(request, reply, 'unsupported_media_type', `content type ${JSON.stringify(type)} is not supported here; send application/x-ndjson or text/plain`);
      return;
    }
    if (open >= options.maxStreams) {
      refuse(request, reply, 'too_many_streams', `${options.maxStreams} streams are open (MAX_STREAMS); retry later`);
      return;
    }
    open += 1;
    reply.raw.once('close', () => {
      open -= 1;
    });
    done();
  };

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(Object.keys(FORMS), (_request, payload, done) => {
      done(null, payload);
    });
    scope.post('/parse/stream', {
      config: { streamsBody: true },
      onRequest: admit,
      schema: {
        summary: 'Parse one response as it is generated: events as they become certain, the result last',
        description:
          'Body: application/x-ndjson (first line the options below, then {"text": "..."} lines) or text/plain (the options as query ' +
          'parameters). Answer: application/x-ndjson events, the last line {"type":"result","partial":false,"result":{...}}; ' +
          'with shape openai or anthropic, server-sent events in that provider\'s streaming format.',
        querystring: streamOptionsSchema,
        response: { ...errorResponses },
      },
      // The options are validated by the stream itself (from the first line or the query).
      validatorCompiler: () => () => true,
    }, async (request, reply) => {
      const form = formOf(request.headers['content-type'])!;
      const exchange = new StreamExchange(request, reply, form, ctx);
      live.add(exchange);
      reply.raw.once('close', () => live.delete(exchange));
      exchange.start(request.body instanceof Readable ? request.body : undefined);
      return reply;
    });
  });
  return {
    endAll() {
      for (const exchange of live) exchange.shutdown();
    },
  };
}
