/**
 * The sidecar's failure table, one row per test: upstream unreachable (502), upstream too slow
 * (504), upstream error passed through, upstream stream cut off before [DONE], client gone
 * (upstream aborted at once), body over the limit (413, nothing forwarded). Loopback only;
 * every wait is bounded.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseToolCalls } from '../../src/index.js';
import { buildApp } from '../../src/server/app.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { freePort } from '../../loadtest/server.js';
import { eventually, listen } from './helpers.js';

const TOOLS = [{ type: 'function', function: { name: 'look', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
const TWO_CALLS = '<tool_call>\n{"name": "look", "arguments": {"path": "a.rs"}}\n</tool_call>\n<tool_call>\n{"name": "look", "arguments": {"path": "b.rs"}}\n</tool_call>';
const UPSTREAM_ERROR = { error: { message: 'The model `nope` does not exist.', type: 'invalid_request_error', param: 'model', code: 'model_not_found' } };

let upstream: FakeUpstream;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  upstream = await startFakeUpstream({
    answers: {
      slow: { content: 'late', delayMs: 1_500 },
      refused: { error: { status: 422, body: UPSTREAM_ERROR } },
      // Cut after 9 pieces of 7 characters: the first call is whole, the second is not.
      cut: { content: TWO_CALLS, cutAfter: 9 },
      hang: { content: TWO_CALLS, hangAfter: 2 },
      // Stalls after the first call is whole.
      stall: { content: TWO_CALLS, hangAfter: 9 },
      nonsense: { raw: { type: 'text/html', body: '<html>gateway says hi</html>' } },
      ok: { content: TWO_CALLS },
    },
  });
  app = await buildApp({ pool: 'inline', defaultMetrics: false, upstreamUrl: upstream.url, upstreamTimeoutMs: 300, bodyLimit: 4096 });
  base = await listen(app);
});

afterAll(async () => {
  await app.close();
  await upstream.close();
});

const post = (body: unknown, headers: Record<string, string> = {}, signal: AbortSignal = AbortSignal.timeout(10_000)) =>
  fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body), signal });

const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; type: string; message: string } }).error;

describe('sidecar failure table', () => {
  it('upstream unreachable: 502 upstream_unreachable, whole or streamed; readiness says so', async () => {
    const port = await freePort();
    const logs: string[] = [];
    const lonely = await buildApp({
      pool: 'inline', defaultMetrics: false, upstreamUrl: `http://127.0.0.1:${port}/v1`, logLevel: 'trace', logStream: { write: (line) => void logs.push(line) },
    });
    try {
      for (const stream of [false, true]) {
        const res = await lonely.inject({
          method: 'POST', url: '/v1/chat/completions', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-never-logged-77' },
          payload: { model: 'm', messages: [], tools: TOOLS, stream },
        });
        expect(res.statusCode).toBe(502);
        expect(res.json()).toMatchObject({ error: { code: 'upstream_unreachable', type: 'api_error', param: null } });
      }
      const ready = await lonely.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'not_ready', reason: 'upstream unreachable' });
      const models = await lonely.inject({ method: 'GET', url: '/v1/models' });
      expect(models.statusCode).toBe(502);
      // The failure is logged, the key never.
      expect(logs.some((line) => line.includes('upstream_unreachable'))).toBe(true);
      expect(logs.join('\n')).not.toContain('sk-never-logged-77');
    } finally {
      await lonely.close();
    }
  });

  it('upstream too slow: 504 upstream_timeout after UPSTREAM_TIMEOUT_MS, whole or streamed', async () => {
    for (const stream of [false, true]) {
      const res = await post({ model: 'slow', messages: [], tools: TOOLS, stream });
      expect(res.status).toBe(504);
      const error = await errorOf(res);
      expect(error.code).toBe('upstream_timeout');
      expect(error.message).toContain('300 ms (UPSTREAM_TIMEOUT_MS)');
    }
  });

  it("upstream error: its status and body passed through, whole or streamed", async () => {
    for (const stream of [false, true]) {
      const res = await post({ model: 'refused', messages: [], tools: TOOLS, stream });
      expect(res.status).toBe(422);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual(UPSTREAM_ERROR);
    }
  });

  it('upstream stream ends without [DONE]: the calls found so far, a final chunk with finish_reason length, then [DONE]', async () => {
    const res = await post({ model: 'cut', messages: [], tools: TOOLS, stream: true });
    expect(res.status).toBe(200);
    const frames = (await res.text()).split('\n\n').filter((f) => f.startsWith('data: '));
    expect(frames.at(-1)).toBe('data: [DONE]');
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.slice(6)) as { choices: { delta: { tool_calls?: { index: number; function: { name?: string; arguments: string } }[] }; finish_reason: string | null }[] });
    const args = new Map<number, string>();
    for (const chunk of chunks) for (const call of chunk.choices[0]!.delta.tool_calls ?? []) args.set(call.index, (args.get(call.index) ?? '') + call.function.arguments);
    const received = TWO_CALLS.slice(0, 9 * 7);
    const expected = parseToolCalls(received, { tools: TOOLS }).calls.map((c) => c.arguments);
    expect(expected).toEqual([{ path: 'a.rs' }]);
    expect([...args.values()].map((a) => JSON.parse(a) as unknown)).toEqual(expected);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('length');
    expect(chunks.slice(0, -1).every((c) => c.choices[0]!.finish_reason === null)).toBe(true);
  });

  it('upstream stalls mid-stream past UPSTREAM_TIMEOUT_MS: closed like a cut stream, with the calls so far and length', async () => {
    const res = await post({ model: 'stall', messages: [], tools: TOOLS, stream: true });
    expect(res.status).toBe(200);
    const frames = (await res.text()).split('\n\n').filter((f) => f.startsWith('data: '));
    expect(frames.at(-1)).toBe('data: [DONE]');
    const last = JSON.parse(frames.at(-2)!.slice(6)) as { choices: { finish_reason: string }[] };
    expect(last.choices[0]!.finish_reason).toBe('length');
    const calls = frames.filter((f) => f.includes('"tool_calls":[') && f.includes('"name":"look"'));
    expect(calls).toHaveLength(1);
  });

  it('upstream answers 2xx with something that is not a completion: 502 upstream_bad_response, whole or streamed', async () => {
    for (const stream of [false, true]) {
      const res = await post({ model: 'nonsense', messages: [], tools: TOOLS, stream });
      expect(res.status).toBe(502);
      expect((await errorOf(res)).code).toBe('upstream_bad_response');
    }
  });

  it('client gone mid-stream: the upstream request is aborted at once', async () => {
    const before = upstream.aborted;
    const controller = new AbortController();
    const res = await post({ model: 'hang', messages: [], tools: TOOLS, stream: true }, {}, controller.signal);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    expect(await eventually(() => upstream.aborted === before + 1, 5_000)).toBe(true);
  });

  it('client gone while waiting for a whole answer: the upstream request is aborted too', async () => {
    const before = upstream.aborted;
    const slowApp = await buildApp({ pool: 'inline', defaultMetrics: false, upstreamUrl: upstream.url, upstreamTimeoutMs: 5_000 });
    const slowBase = await listen(slowApp);
    try {
      const controller = new AbortController();
      const pending = fetch(`${slowBase}/v1/chat/completions`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, signal: controller.signal,
        body: JSON.stringify({ model: 'slow', messages: [], tools: TOOLS }),
      }).catch((error: unknown) => error);
      expect(await eventually(() => upstream.requests.at(-1)?.body.model === 'slow', 5_000)).toBe(true);
      controller.abort();
      expect(await pending).toBeInstanceOf(Error);
      expect(await eventually(() => upstream.aborted === before + 1, 5_000)).toBe(true);
    } finally {
      await slowApp.close();
    }
  });

  it('the service closing mid-stream: the drain waits SHUTDOWN_TIMEOUT_MS, then the upstream request is cut', async () => {
    const before = upstream.aborted;
    const closing = await buildApp({ pool: 'inline', defaultMetrics: false, upstreamUrl: upstream.url, shutdownTimeoutMs: 800 });
    const closingBase = await listen(closing);
    const res = await fetch(`${closingBase}/v1/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(10_000),
      body: JSON.stringify({ model: 'hang', messages: [], tools: TOOLS, stream: true }),
    });
    const reader = res.body!.getReader();
    await reader.read();
    const closed = closing.close().then(() => 'closed');
    expect(await Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve('still open'), 8_000))])).toBe('closed');
    expect(await eventually(() => upstream.aborted === before + 1, 5_000)).toBe(true);
    await reader.cancel().catch(() => undefined);
  });

  it('body over BODY_LIMIT: 413 body_too_large, and nothing reaches the upstream', async () => {
    const before = upstream.requests.length;
    const res = await post({ model: 'ok', messages: [{ role: 'user', content: 'x'.repeat(5_000) }], tools: TOOLS });
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe('body_too_large');
    expect(upstream.requests.length).toBe(before);
  });

  it('a body that is not JSON: 400 invalid_json, and nothing reaches the upstream', async () => {
    const before = upstream.requests.length;
    const res = await post('{"model": ');
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe('invalid_json');
    expect(upstream.requests.length).toBe(before);
  });

  it('readiness reaches the upstream when it is up', async () => {
    const before = upstream.modelRequests;
    const res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(200);
    expect(upstream.modelRequests).toBe(before + 1);
  });
});
