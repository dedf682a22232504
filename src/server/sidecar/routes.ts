/**
 * The sidecar's routes, registered only when UPSTREAM_URL is set (docs/design.md, "Sidecar"):
 *
 *   POST /v1/chat/completions --(body as it came)--> upstream --> answer parsed with the request's tools
 *   GET  /v1/models           --> upstream, passed through
 *   any other /v1/*            --> 404 in OpenAI's error shape
 */
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseToolCalls, type OpenAIShaped } from '../../compose/index.js';
import { openaiErrorBody, RETRY_AFTER_SECONDS, statusOf, type ErrorCodeValue } from '../errors.js';
import type { ServiceMetrics } from '../metrics.js';
import type { ParseRunner } from '../runner/types.js';
import { isCompletion, parseWithDispatch, ParseRefused, rewriteCompletion } from './completion.js';
import { DIAGNOSTICS_FIELD, DIAGNOSTICS_HEADER, headerSummary, totalsOf, wantsBodyDiagnostics } from './diagnostics.js';
import { passedResponseHeaders, upstreamRequestHeaders } from './headers.js';
import { createSidecarMetrics } from './metrics.js';
import { upstreamReadiness } from './readiness.js';
import { RegistryCache } from './registry-cache.js';
import { readCompletionRequest, type CompletionRequest } from './request.js';
import { relayStream, type StreamSummary } from './stream.js';
import { readBody, Upstream, UpstreamFailure, type UpstreamResponse } from './upstream.js';

export interface SidecarOptions {
  upstreamUrl: string;
  upstreamTimeoutMs: number;
  runner: ParseRunner;
  metrics: ServiceMetrics;
  maxResponseBytes: number;
  /** `reasoning_started` for every answer (UPSTREAM_REASONING_STARTED); undefined: the text says. */
  reasoningStarted?: boolean;
}

export interface Sidecar {
  /** Why the upstream is not ready (null when it is), for /readyz. */
  readiness: () => Promise<string | null>;
}

function refuse(reply: FastifyReply, code: ErrorCodeValue, message: string): FastifyReply {
  if (code === 'overloaded') reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  return reply.code(statusOf(code)).type('application/json; charset=utf-8').send(openaiErrorBody(code, message));
}

const JSON_TYPE = 'application/json; charset=utf-8';
/** How long a stream cut at shutdown may take to write its last frames. */
const STREAM_END_WAIT_MS = 1_000;

export function sidecarRoutes(app: FastifyInstance, options: SidecarOptions): Sidecar {
  const { runner, maxResponseBytes } = options;
  const started = options.reasoningStarted === undefined ? {} : { reasoningStarted: options.reasoningStarted };
  const upstream = new Upstream({ baseUrl: options.upstreamUrl, timeoutMs: options.upstreamTimeoutMs });
  const metrics = createSidecarMetrics(options.metrics.registry);
  const registries = new RegistryCache();
  /** Streamed answers still being written. */
  const streaming = new Set<ServerResponse>();
  // Runs after the app's own preClose, which waits (up to SHUTDOWN_TIMEOUT_MS) for answers under
  // way: a stream still running then is cut here (it closes like a cut stream, with [DONE]), and
  // its last frames are let out before the listener closes, so its connection is idle by then
  // instead of holding the shutdown open until the upstream finishes.
  app.addHook('preClose', async () => {
    await upstream.close();
    const writing = [...streaming].map((res) => new Promise<void>((resolve) => {
      res.once('finish', resolve);
      res.once('close', resolve);
    }));
    await Promise.race([Promise.all(writing), new Promise((resolve) => setTimeout(resolve, STREAM_END_WAIT_MS).unref())]);
  });

  /** Answers an upstream failure; nothing is sent to a client that has gone. */
  const failed = (request: FastifyRequest, reply: FastifyReply, mode: 'stream' | 'once', error: unknown): FastifyReply => {
    if (!(error instanceof UpstreamFailure)) {
      metrics.completed(mode, 'internal_error');
      request.log.error({ err: error }, 'sidecar: unexpected failure');
      return refuse(reply, 'internal_error', 'internal error');
    }
    const failure = error;
    metrics.completed(mode, failure.code);
    // The cause's code or message only: undici's errors carry no headers, and nothing else is logged.
    const cause = failure.cause as { code?: unknown; message?: unknown } | undefined;
    request.log.warn({ code: failure.code, cause: cause?.code ?? cause?.message }, 'sidecar: upstream failed');
    if (failure.code === 'client_gone') return reply.code(499).send();
    return refuse(reply, failure.code, failure.message);
  };

  /** An upstream answer passed back as it came (an error status, or no tools to parse with). */
  const passOn = async (reply: FastifyReply, response: UpstreamResponse, signal: AbortSignal): Promise<FastifyReply> => {
    const body = await readBody(response, maxResponseBytes, signal, upstream.timeoutMs);
    return reply.code(response.statusCode).headers(passedResponseHeaders(response.headers)).send(body);
  };

  /** A stream's whole text parsed through the service's dispatch (the pool when it is large). */
  const wholeParse = (toolsJson: string, signal: AbortSignal, log: FastifyRequest['log']) => async (text: string, callIdStart: number) => {
    try {
      return await parseWithDispatch(text, { runner, maxResponseBytes, toolsJson, callIdStart, signal, ...started });
    } catch (error) {
      if (signal.aborted) return 'gone' as const;
      // Only a full or closing pool (503) sends the parse back here; a parse that failed in the
      // pool (timeout, crash, an answer over MAX_RESPONSE_BYTES) would fail here too, on this thread.
      if (error instanceof ParseRefused && error.outcome.status !== 503) {
        log.error({ detail: error.outcome.logDetail, status: error.outcome.status }, 'sidecar: stream parse failed; text passed on unparsed');
        return 'failed' as const;
      }
      throw error;
    }
  };

  const once = async (request: FastifyRequest, reply: FastifyReply, read: CompletionRequest, tools: unknown[] | null, response: UpstreamResponse, signal: AbortSignal): Promise<FastifyReply> => {
    if (read.toolsJson === null) {
      metrics.completed('once', 'passed');
      return passOn(reply, response, signal);
    }
    const bytes = await readBody(response, maxResponseBytes, signal, upstream.timeoutMs);
    let completion: unknown;
    try {
      completion = JSON.parse(bytes.toString('utf8'));
    } catch {
      completion = null;
    }
    if (!isCompletion(completion)) throw new UpstreamFailure('upstream_bad_response', 'the upstream answered with something other than a chat completion');
    let choices;
    try {
      const reasoning = options.reasoningStarted === undefined ? {} : { reasoning_started: options.reasoningStarted };
      const inline = (text: string) => parseToolCalls(text, { tools, profile: 'gateway', shape: 'openai', call_id_start: read.callIdStart, ...reasoning }) as OpenAIShaped;
      choices = await rewriteCompletion(completion, { runner, maxResponseBytes, toolsJson: read.toolsJson, callIdStart: read.callIdStart, signal, inline, ...started });
    } catch (error) {
      if (!(error instanceof ParseRefused)) throw error;
      metrics.completed('once', `parse_${error.outcome.status}`);
      if (error.outcome.retryAfter !== undefined) reply.header('retry-after', String(error.outcome.retryAfter));
      if (error.outcome.logDetail !== undefined) request.log.error({ detail: error.outcome.logDetail, status: error.outcome.status }, 'sidecar: parse failed');
      return reply.code(error.outcome.status).type(JSON_TYPE).send(Buffer.from(error.outcome.body, 'utf8'));
    }
    const totals = totalsOf(choices);
    metrics.parsed(totals);
    metrics.completed('once', 'parsed');
    request.log.info({ sidecar: { stream: false, upstreamStatus: response.statusCode, ...totals } }, 'sidecar: completion parsed');
    if (wantsBodyDiagnostics(request.headers)) completion[DIAGNOSTICS_FIELD] = choices;
    return reply
      .code(response.statusCode)
      .headers(passedResponseHeaders(response.headers, ['content-type']))
      .header(DIAGNOSTICS_HEADER, headerSummary(totals))
      .type(JSON_TYPE)
      .send(Buffer.from(JSON.stringify(completion), 'utf8'));
  };

  const streamed = async (request: FastifyRequest, reply: FastifyReply, read: CompletionRequest, tools: unknown[] | null, response: UpstreamResponse, signal: AbortSignal): Promise<FastifyReply> => {
    const type = String(response.headers['content-type'] ?? '');
    if (!type.toLowerCase().startsWith('text/event-stream')) {
      await response.body.dump();
      throw new UpstreamFailure('upstream_bad_response', `the upstream answered a streaming request with ${JSON.stringify(type)} instead of an event stream`);
    }
    const headers = passedResponseHeaders(response.headers, ['content-type']);
    reply.code(response.statusCode).headers(headers).header('cache-control', 'no-cache').type('text/event-stream; charset=utf-8');
    // Leaves the set in the handler's one close listener (see there).
    streaming.add(reply.raw);
    if (tools === null) {
      metrics.completed('stream', 'passed');
      return reply.send(response.body);
    }
    const summary: StreamSummary = { choices: [], ending: 'done', failure: null };
    const parseWhole = read.toolsJson === null ? null : wholeParse(read.toolsJson, signal, request.log);
    const relay = relayStream({ body: response.body, tools, callIdStart: read.callIdStart, diagnosticsInBody: wantsBodyDiagnostics(request.headers), parseWhole, ...started }, summary);
    const logged = async function* (): AsyncGenerator<string> {
      try {
        yield* relay;
      } finally {
        const totals = totalsOf(summary.choices);
        metrics.parsed(totals);
        const outcome = signal.aborted ? 'client_gone' : summary.ending === 'done' ? 'parsed' : summary.ending === 'error' ? 'upstream_error' : 'cut';
        metrics.completed('stream', outcome);
        const failure = summary.failure as { code?: unknown } | null;
        request.log.info({ sidecar: { stream: true, outcome, upstreamFailure: failure?.code ?? null, ...totals } }, 'sidecar: stream relayed');
      }
    };
    return reply.send(Readable.from(logged(), { objectMode: false }));
  };

  app.post('/v1/chat/completions', {
    schema: { summary: 'OpenAI chat completions through the upstream (UPSTREAM_URL), with tool calls parsed from its text' },
  }, async (request, reply) => {
    const raw = request.body instanceof Uint8Array ? request.body : new Uint8Array(0);
    const reading = readCompletionRequest(raw);
    if (!reading.ok) return refuse(reply, reading.code, reading.message);
    const read = reading.request;
    const mode = read.stream ? 'stream' : 'once';
    let tools: unknown[] | null = null;
    if (read.tools !== null && read.toolsJson !== null) {
      try {
        tools = registries.get(read.toolsJson, read.tools);
      } catch (error) {
        if (error instanceof TypeError) return refuse(reply, 'invalid_tools', error.message);
        throw error;
      }
    }
    // Shed before the upstream spends a generation on an answer that could not be parsed.
    if (!read.stream && tools !== null && runner.saturated) return refuse(reply, 'overloaded', 'the parse queue is full (MAX_QUEUE); retry later');

    // A client that goes away aborts the upstream request at once. One close listener does all
    // this route's work at the close: a streamed answer's response carries nine others (the
    // app's and Fastify's own), and past ten Node warns of a leak for every streamed answer.
    const gone = new AbortController();
    reply.raw.once('close', () => {
      streaming.delete(reply.raw);
      if (!reply.raw.writableFinished) gone.abort();
    });
    const stop = metrics.upstreamSeconds.startTimer({ mode });
    try {
      // The request's id (its own x-request-id, or the one made here) goes upstream, so both logs tell of one request.
      const headers = { ...upstreamRequestHeaders(request.headers), 'x-request-id': request.id };
      const response = await upstream.request('POST', '/chat/completions', headers, raw, gone.signal);
      stop();
      if (response.statusCode < 200 || response.statusCode >= 300) {
        metrics.completed(mode, 'upstream_error');
        request.log.info({ sidecar: { upstreamStatus: response.statusCode } }, 'sidecar: upstream answered an error');
        return await passOn(reply, response, gone.signal);
      }
      if (read.stream) return await streamed(request, reply, read, tools, response, gone.signal);
      return await once(request, reply, read, tools, response, gone.signal);
    } catch (error) {
      return failed(request, reply, mode, error);
    }
  });

  app.get('/v1/models', { schema: { summary: "The upstream's model list, passed through" } }, async (request, reply) => {
    const gone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) gone.abort();
    });
    try {
      const response = await upstream.request('GET', '/models', upstreamRequestHeaders(request.headers), null, gone.signal);
      return await passOn(reply, response, gone.signal);
    } catch (error) {
      return failed(request, reply, 'once', error);
    }
  });

  app.all('/v1/*', { schema: { hide: true } }, async (request, reply) =>
    refuse(reply, 'not_found', `the sidecar serves POST /v1/chat/completions and GET /v1/models; no route ${request.method} ${request.url.split('?')[0]}`));

  return { readiness: upstreamReadiness(upstream) };
}
