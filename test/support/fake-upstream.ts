/**
 * A fake OpenAI-compatible model server for the sidecar's tests and load test: Fastify on
 * 127.0.0.1, answering `POST /v1/chat/completions` (whole or as server-sent events) and
 * `GET /v1/models` with canned answers, after a chosen delay. The request's `model` picks the
 * answer from the `answers` table. It records what reached it (headers and bodies) and how many
 * answers were cut short by the caller going away.
 */
import Fastify, { type FastifyInstance } from 'fastify';

export interface CannedAnswer {
  /** The assistant text, as a model server without a tool parser returns it. */
  content?: string;
  /** Tool calls the server parsed itself (OpenAI form). */
  toolCalls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  reasoning?: string;
  finish?: string;
  /** An error answer instead: this status and body. */
  error?: { status: number; body: unknown };
  /** Streaming: characters per content delta (default 7). */
  piece?: number;
  /** Streaming: stop after this many content deltas, ending the body without [DONE]. */
  cutAfter?: number;
  /** Streaming: after this many content deltas, send nothing more until the caller goes away. */
  hangAfter?: number;
  /** A 200 with this content type and body instead of a completion (a server answering nonsense). */
  raw?: { type: string; body: string };
  /** Wait this long before the headers (overrides the server's delay). */
  delayMs?: number;
}

export interface FakeUpstream {
  /** The base URL an OpenAI client takes: http://127.0.0.1:PORT/v1. */
  readonly url: string;
  readonly requests: { headers: Record<string, unknown>; body: Record<string, unknown> }[];
  /** Answers whose caller went away before they were finished. */
  readonly aborted: number;
  /** Model list requests seen. */
  readonly modelRequests: number;
  /** Content deltas written to streams so far, all streams together. */
  readonly contentDeltas: number;
  close(): Promise<void>;
}

export interface FakeUpstreamOptions {
  answers: Record<string, CannedAnswer>;
  /** Milliseconds before each answer's headers (default 0). */
  delayMs?: number;
  /** Milliseconds between streamed deltas (default 0). */
  pieceDelayMs?: number;
  /** Keep no record of requests (load tests). */
  quiet?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const CREATED = 1_760_000_000;

function completionOf(id: string, model: string, answer: CannedAnswer): unknown {
  const message: Record<string, unknown> = { role: 'assistant', content: answer.content ?? null };
  if (answer.reasoning !== undefined) message.reasoning_content = answer.reasoning;
  if (answer.toolCalls !== undefined) message.tool_calls = answer.toolCalls;
  return {
    id, object: 'chat.completion', created: CREATED, model, system_fingerprint: 'fp_fake',
    choices: [{ index: 0, message, logprobs: null, finish_reason: answer.finish ?? (answer.toolCalls ? 'tool_calls' : 'stop') }],
    usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
  };
}

function chunk(id: string, model: string, delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: CREATED, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
}

export async function startFakeUpstream(options: FakeUpstreamOptions): Promise<FakeUpstream> {
  const app: FastifyInstance = Fastify({ logger: false, keepAliveTimeout: 60_000 });
  const state = { aborted: 0, modelRequests: 0, contentDeltas: 0 };
  const requests: FakeUpstream['requests'] = [];
  let served = 0;
  let closing: Promise<void> | undefined;

  app.get('/v1/models', async () => {
    state.modelRequests++;
    return { object: 'list', data: Object.keys(options.answers).map((id) => ({ id, object: 'model', created: CREATED, owned_by: 'fake' })) };
  });

  app.post('/v1/chat/completions', async (request, reply) => {
    const body = request.body as Record<string, unknown>;
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) state.aborted++;
    });
    if (!options.quiet) requests.push({ headers: { ...request.headers }, body });
    const model = String(body.model);
    const answer = options.answers[model];
    const delay = answer?.delayMs ?? options.delayMs ?? 0;
    if (delay > 0) await sleep(delay);
    if (answer === undefined) return reply.code(404).send({ error: { message: `model ${model} not found`, type: 'invalid_request_error', code: 'model_not_found' } });
    if (answer.error) return reply.code(answer.error.status).send(answer.error.body);
    if (answer.raw) return reply.code(200).type(answer.raw.type).send(answer.raw.body);
    const id = `chatcmpl-fake-${++served}`;
    if (body.stream !== true) return completionOf(id, model, answer);

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const write = async (text: string) => {
      if (res.destroyed) return;
      res.write(text);
      if (options.pieceDelayMs) await sleep(options.pieceDelayMs);
    };
    await write(chunk(id, model, { role: 'assistant', content: '' }));
    if (answer.reasoning !== undefined) await write(chunk(id, model, { reasoning_content: answer.reasoning }));
    const text = answer.content ?? '';
    const size = answer.piece ?? 7;
    let pieces = 0;
    for (let at = 0; at < text.length; at += size) {
      if (answer.cutAfter !== undefined && pieces >= answer.cutAfter) {
        res.end();
        return;
      }
      if (answer.hangAfter !== undefined && pieces >= answer.hangAfter) {
        // Nothing more until the caller goes away; bounded so a broken test cannot hang here.
        await new Promise<void>((resolve) => {
          res.once('close', () => resolve());
          setTimeout(resolve, 10_000).unref();
        });
        return;
      }
      await write(chunk(id, model, { content: text.slice(at, at + size) }));
      state.contentDeltas++;
      pieces++;
    }
    for (const [index, call] of (answer.toolCalls ?? []).entries()) {
      await write(chunk(id, model, { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
      await write(chunk(id, model, { tool_calls: [{ index, function: { arguments: call.function.arguments } }] }));
    }
    await write(chunk(id, model, {}, answer.finish ?? (answer.toolCalls ? 'tool_calls' : 'stop')));
    const streamOptions = body.stream_options as { include_usage?: boolean } | undefined;
    if (streamOptions?.include_usage) {
      await write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: CREATED, model, choices: [], usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } })}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  });

  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `${address}/v1`,
    requests,
    get aborted() {
      return state.aborted;
    },
    get modelRequests() {
      return state.modelRequests;
    },
    get contentDeltas() {
      return state.contentDeltas;
    },
    // Idempotent: a test may close it early to take the upstream away.
    close: () => (closing ??= app.close()),
  } as FakeUpstream;
}
