/**
 * Answers are parsed in the parse pool, not on the HTTP thread: a large upstream text goes to a
 * worker (the worker-thread histogram counts it), whole or at a stream's end, the HTTP thread
 * keeps answering while the worker is busy, small texts stay inline (INLINE_BELOW_BYTES), and a parse past TASK_TIMEOUT_MS
 * is the pool's 504. The test worker sleeps or spins on markers in the text (fixtures).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseToolCalls } from '../../src/index.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { listen, poolApp } from './helpers.js';

const TOOLS = [{ type: 'function', function: { name: 'look', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
const CALL = '<tool_call>\n{"name": "look", "arguments": {"path": "a.rs"}}\n</tool_call>';
const SPIN = `__spin__ ${'x'.repeat(3000)}`;
const LARGE = `${'Reading the tree first. '.repeat(200)}__sleep_300__\n${CALL}`;

let upstream: FakeUpstream;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  upstream = await startFakeUpstream({
    answers: { large: { content: LARGE }, 'large-stream': { content: LARGE, piece: 500 }, small: { content: CALL }, spin: { content: SPIN }, 'spin-stream': { content: SPIN, piece: 1000 } },
  });
  app = await poolApp({ upstreamUrl: upstream.url, inlineBelowBytes: 2048, taskTimeoutMs: 3_000 });
  base = await listen(app);
});

afterAll(async () => {
  await app.close();
  await upstream.close();
});

const complete = (model: string) =>
  fetch(`${base}/v1/chat/completions`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(20_000),
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'go' }], tools: TOOLS }),
  });

async function workerTasks(): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^tool_parse_worker_parse_seconds_count\{thread="worker"\} (\d+)/m.exec(text)?.[1] ?? 0);
}

describe('sidecar parses in the pool', () => {
  it('a large text goes to a worker, and the HTTP thread answers while it parses', async () => {
    const before = await workerTasks();
    const order: string[] = [];
    const pending = complete('large').then(async (res) => {
      order.push('completion');
      return res;
    });
    // The worker sleeps on the marker; the HTTP thread is free to answer a probe meanwhile.
    while (upstream.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const health = await fetch(`${base}/healthz`);
    order.push('healthz');
    const res = await pending;
    expect(health.status).toBe(200);
    expect(order).toEqual(['healthz', 'completion']);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[] };
    const expected = parseToolCalls(LARGE, { tools: TOOLS }).calls.map((c) => [c.name, c.arguments]);
    expect(body.choices[0]!.message.tool_calls.map((c) => [c.function.name, JSON.parse(c.function.arguments) as unknown])).toEqual(expected);
    expect(await workerTasks()).toBe(before + 1);
  });

  it("a large streamed text is parsed in a worker at the stream's end, with the same calls", async () => {
    const before = await workerTasks();
    const res = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(20_000),
      body: JSON.stringify({ model: 'large-stream', messages: [], tools: TOOLS, stream: true }),
    });
    const frames = (await res.text()).split('\n\n').filter((f) => f.startsWith('data: {'));
    const args = new Map<number, [string, string]>();
    let content = '';
    for (const frame of frames) {
      const delta = (JSON.parse(frame.slice(6)) as { choices: { delta: { content?: string; tool_calls?: { index: number; function: { name?: string; arguments: string } }[] } }[] }).choices[0]!.delta;
      content += delta.content ?? '';
      for (const call of delta.tool_calls ?? []) {
        const [name, a] = args.get(call.index) ?? ['', ''];
        args.set(call.index, [name + (call.function.name ?? ''), a + call.function.arguments]);
      }
    }
    const expected = parseToolCalls(LARGE, { tools: TOOLS });
    expect([...args.values()].map(([name, a]) => [name, JSON.parse(a) as unknown])).toEqual(expected.calls.map((c) => [c.name, c.arguments]));
    expect(content).toBe(expected.prose);
    expect(await workerTasks()).toBe(before + 1);
  });

  it('a small text parses on the HTTP thread (no worker task)', async () => {
    const before = await workerTasks();
    const res = await complete('small');
    expect(res.status).toBe(200);
    expect(await workerTasks()).toBe(before);
  });

  it('a parse past TASK_TIMEOUT_MS is the pool\'s 504 parse_timeout', async () => {
    const res = await complete('spin');
    expect(res.status).toBe(504);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('parse_timeout');
  });

  it('a streamed text whose parse fails in the pool is passed on unparsed, with the failure in the diagnostics', async () => {
    const res = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-tool-parse-diagnostics': 'body' }, signal: AbortSignal.timeout(20_000),
      body: JSON.stringify({ model: 'spin-stream', messages: [], tools: TOOLS, stream: true }),
    });
    const frames = (await res.text()).split('\n\n').filter((f) => f.startsWith('data: {'));
    const chunks = frames.map((f) => JSON.parse(f.slice(6)) as { choices: { delta: { content?: string }; finish_reason: string | null }[]; tool_parse_diagnostics?: { tool_parse_errors: string[] }[] });
    expect(chunks.map((c) => c.choices[0]!.delta.content ?? '').join('')).toBe(SPIN);
    const last = chunks.at(-1)!;
    expect(last.choices[0]!.finish_reason).toBe('stop');
    expect(last.tool_parse_diagnostics![0]!.tool_parse_errors[0]).toMatch(/passed on unparsed/);
  });

  it('counts the answers and their calls in /metrics', async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toMatch(/^tool_parse_sidecar_completions_total\{mode="once",outcome="parsed"\} 2$/m);
    expect(text).toMatch(/^tool_parse_sidecar_completions_total\{mode="stream",outcome="parsed"\} 2$/m);
    expect(text).toMatch(/^tool_parse_sidecar_tool_calls_total\{source="parsed"\} 3$/m);
    expect(text).toMatch(/^tool_parse_sidecar_upstream_seconds_count\{mode="once"\} 3$/m);
  });
});
