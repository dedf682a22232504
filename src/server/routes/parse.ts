/**
 * POST /parse and POST /scan. The body arrives as raw bytes (the JSON content-type parser in
 * app.ts keeps it unparsed) and goes to a worker, which validates it against the schema shown
 * here and answers with a ready JSON string. Fastify's own body validation is switched off for
 * these routes for that reason: the schema is still the route's, for the OpenAPI document.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dispatch, overloaded, type Outcome } from '../dispatch.js';
import type { ServiceMetrics } from '../metrics.js';
import type { ParseRunner } from '../runner/types.js';
import type { RouteName } from '../runner/wire.js';
import {
  batchResultSchema, errorResponses, parseRequestSchema, parseResultSchema, scanRequestSchema, scanResultSchema,
  transcriptResultSchema, type SchemaLimits,
} from '../schemas.js';

export interface ParseRoutesOptions {
  runner: ParseRunner;
  metrics: ServiceMetrics;
  limits: SchemaLimits;
  bodyLimit: number;
  maxResponseBytes: number;
}

const validatedInWorker = () => () => true;

export function parseRoutes(app: FastifyInstance, options: ParseRoutesOptions): void {
  const { runner, metrics } = options;

  // perf: the answer goes out as bytes. Node's HTTP writer handles a large string by joining it
  // with the header block and encoding it inside the socket write; encoding it here first cut the
  // HTTP thread's CPU per 80 KB request (300 KB answer) from about 3.4 to 2.2 ms and raised the
  // pool's req/s by about a fifth (docs/performance.md, "Overload", item 3).
  const answer = (reply: FastifyReply, outcome: Outcome): FastifyReply => {
    if (outcome.retryAfter !== undefined) reply.header('retry-after', String(outcome.retryAfter));
    return reply.code(outcome.status).type('application/json; charset=utf-8').send(Buffer.from(outcome.body, 'utf8'));
  };

  const handler = (route: RouteName) => async (request: FastifyRequest, reply: FastifyReply) => {
    const stop = metrics.parseDuration.startTimer({ route });
    // No body at all (no content type either) reaches here as undefined: an empty body.
    const raw = request.body instanceof Uint8Array ? request.body : new Uint8Array(0);
    // A client that goes away stops its parse: the task leaves the queue, or its worker is
    // replaced. (request.signal is not used: Fastify 5.12.8 fires it once the body is read.)
    const gone = new AbortController();
    const onClose = (): void => {
      if (!reply.raw.writableFinished) gone.abort();
    };
    reply.raw.once('close', onClose);
    const outcome = await dispatch(runner, route, raw, { maxResponseBytes: options.maxResponseBytes, signal: gone.signal });
    reply.raw.off('close', onClose);
    stop();
    if (outcome.logDetail !== undefined) {
      request.log.error({ detail: outcome.logDetail, status: outcome.status }, 'parse failed');
    }
    return answer(reply, outcome);
  };

  // Shed before the body is read. With the queue full, reading and buffering an 80 KB body only
  // to refuse it is what keeps the HTTP thread busy under overload (and the health probes
  // waiting); answering first lets Node discard the unread body as it arrives, and the
  // keep-alive connection stays usable for the client's retry.
  const shedWhenFull = (_request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    if (runner.saturated) answer(reply, overloaded());
    else done();
  };

  app.post('/parse', {
    bodyLimit: options.bodyLimit,
    onRequest: shedWhenFull,
    validatorCompiler: validatedInWorker,
    schema: {
      summary: 'Parse one response, a batch of responses, or a transcript into tool calls',
      body: parseRequestSchema(options.limits),
      response: { 200: { oneOf: [parseResultSchema, batchResultSchema, transcriptResultSchema] }, ...errorResponses },
    },
  }, handler('parse'));

  app.post('/scan', {
    bodyLimit: options.bodyLimit,
    onRequest: shedWhenFull,
    validatorCompiler: validatedInWorker,
    schema: {
      summary: 'The structural units of one response (for debugging dialects)',
      body: scanRequestSchema,
      response: { 200: scanResultSchema, ...errorResponses },
    },
  }, handler('scan'));
}
