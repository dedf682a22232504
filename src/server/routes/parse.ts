/**
 * POST /parse and POST /scan. The body arrives as raw bytes (the JSON content-type parser in
 * app.ts keeps it unparsed) and goes to a worker, which validates it against the schema shown
 * here and answers with a ready JSON string. Fastify's own body validation is switched off for
 * these routes for that reason: the schema is still the route's, for the OpenAPI document.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dispatch } from '../dispatch.js';
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
}

const validatedInWorker = () => () => true;

export function parseRoutes(app: FastifyInstance, options: ParseRoutesOptions): void {
  const { runner, metrics } = options;

  const handler = (route: RouteName) => async (request: FastifyRequest, reply: FastifyReply) => {
    const stop = metrics.parseDuration.startTimer({ route });
    // No body at all (no content type either) reaches here as undefined: an empty body.
    const raw = request.body instanceof Uint8Array ? request.body : new Uint8Array(0);
    const outcome = await dispatch(runner, route, raw);
    stop();
    if (outcome.logDetail !== undefined) {
      request.log.error({ detail: outcome.logDetail, status: outcome.status }, 'parse failed');
    }
    if (outcome.retryAfter !== undefined) reply.header('retry-after', String(outcome.retryAfter));
    return reply.code(outcome.status).type('application/json; charset=utf-8').send(outcome.body);
  };

  app.post('/parse', {
    bodyLimit: options.bodyLimit,
    validatorCompiler: validatedInWorker,
    schema: {
      summary: 'Parse one response, a batch of responses, or a transcript into tool calls',
      body: parseRequestSchema(options.limits),
      response: { 200: { oneOf: [parseResultSchema, batchResultSchema, transcriptResultSchema] }, ...errorResponses },
    },
  }, handler('parse'));

  app.post('/scan', {
    bodyLimit: options.bodyLimit,
    validatorCompiler: validatedInWorker,
    schema: {
      summary: 'The structural units of one response (for debugging dialects)',
      body: scanRequestSchema,
      response: { 200: scanResultSchema, ...errorResponses },
    },
  }, handler('scan'));
}
