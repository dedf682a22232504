/**
 * Issue 11, one block per finding: output bounded by input, model text that never throws
 * through the service, back-pressure on bytes and batches, work stopped for a client that left,
 * and the edges of the error contract. Everything runs against 127.0.0.1, every loop bounded.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CANONICAL_TEXT, eventually, inlineApp, listen, poolApp, postJson } from './helpers.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let app: FastifyInstance | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

const deep = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const TOOLS = [{ name: 'look', parameters: { type: 'object', properties: { a: {} } } }];

async function errorCode(res: Response): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

/** A raw HTTP exchange over one socket: what the server wrote back, until it closes (or `ms`). */
function rawExchange(port: number, write: (socket: ReturnType<typeof connect>) => void, ms = 10_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(got);
    }, ms);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (got += chunk));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(got);
    });
    socket.on('error', () => undefined);
    socket.on('connect', () => write(socket));
  });
}

const portOf = (base: string): number => Number(new URL(base).port);

describe('1. the answer grows with the body, not faster', () => {
  it('a flood of one tag answers within 16 bytes per body byte plus 64 KiB', async () => {
    app = await inlineApp();
    const base = await listen(app);
    const body = JSON.stringify({ text: '<b>\n'.repeat(250_000) });
    const res = await postJson(base, '/parse', body);
    expect(res.status).toBe(200);
    const answer = await res.arrayBuffer();
    expect(answer.byteLength).toBeLessThanOrEqual(16 * body.length + 64 * 1024);
  });

  it('deep arguments answer linearly (no indentation growing with depth)', async () => {
    app = await inlineApp();
    const base = await listen(app);
    const body = JSON.stringify({ text: `<tool_call>{"name":"look","arguments":{"a":${deep(15_000)}}}</tool_call>`, tools: TOOLS });
    const res = await postJson(base, '/parse', body);
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBeLessThanOrEqual(16 * body.length + 64 * 1024);
  });

  it('a small deep body on the inline path answers small', async () => {
    app = await poolApp({ inlineBelowBytes: 4096 });
    const base = await listen(app);
    const body = JSON.stringify({ text: `<tool_call>{"name":"look","arguments":{"a":${deep(960)}}}</tool_call>`, tools: TOOLS });
    expect(body.length).toBeLessThan(4096);
    const res = await postJson(base, '/parse', body);
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBeLessThanOrEqual(16 * body.length + 64 * 1024);
  });

  it('an answer past MAX_RESPONSE_BYTES is a 422 with a code, in one task and split over the pool', async () => {
    const responses = Array.from({ length: 64 }, (_, i) => ({ id: String(i), text: `${CANONICAL_TEXT}\n`.repeat(40) }));
    app = await poolApp({ threads: 2, maxResponseBytes: 64 * 1024, splitMinChars: 1 });
    const base = await listen(app);
    const split = await postJson(base, '/parse', { responses, tools: ['look'] });
    expect(split.status).toBe(422);
    expect(await errorCode(split)).toBe('response_too_large');
    const one = await postJson(base, '/parse', { text: `${CANONICAL_TEXT}\n`.repeat(2000), tools: ['look'] });
    expect(one.status).toBe(422);
    expect(await errorCode(one)).toBe('response_too_large');
  });
});

describe('2. model text never throws through the service', () => {
  it('deep JSON in a call block, a tag body and after a name line answers 200', async () => {
    app = await inlineApp();
    const base = await listen(app);
    for (const text of [
      `<tool_call>{"name":"look","arguments":{"a":${deep(5000)}}}</tool_call>`,
      `<look>{"a":${deep(5000)}}</look>`,
      `<tool_call>look\n{"a":${deep(5000)}}\n</tool_call>`,
    ]) {
      const res = await postJson(base, '/parse', { text, tools: TOOLS });
      expect(res.status).toBe(200);
    }
  });
});

describe('4. stalled uploads are answered and their bytes released', () => {
  it('a body that stops arriving gets a 408 in the catalogue shape within BODY_TIMEOUT_MS', async () => {
    app = await inlineApp({ bodyTimeoutMs: 400 });
    const base = await listen(app);
    const started = Date.now();
    const reply = await rawExchange(portOf(base), (socket) => {
      socket.write('POST /parse HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"text": "');
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(reply.startsWith('HTTP/1.1 408')).toBe(true);
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({ error: { code: 'request_timeout', message: expect.stringContaining('BODY_TIMEOUT_MS') } });
  });

  it('bodies in flight past MAX_INFLIGHT_BYTES are refused with 503 without being held, and freed after', async () => {
    app = await inlineApp({ maxInflightBytes: 100_000, bodyTimeoutMs: 1500 });
    const base = await listen(app);
    const stalled = rawExchange(portOf(base), (socket) => {
      socket.write('POST /parse HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 90000\r\n\r\n{"text": "');
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const body = JSON.stringify({ text: 'x'.repeat(20_000) });
    const refused = await postJson(base, '/parse', body);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await errorCode(refused)).toBe('overloaded');
    expect((await stalled).startsWith('HTTP/1.1 408')).toBe(true);
    expect((await postJson(base, '/parse', body)).status).toBe(200);
  });
});

describe('5. a split batch counts against MAX_QUEUE as its items', () => {
  it('a batch runs one item per thread at a time, and one that does not fit behind it is shed whole', async () => {
    app = await poolApp({ threads: 1, maxQueue: 4, splitMinChars: 1 });
    const runner = app.parseRunner;
    const base = await listen(app);
    let mostActive = 0;
    const watch = setInterval(() => (mostActive = Math.max(mostActive, runner.active)), 1);
    const slow = Array.from({ length: 16 }, (_, i) => ({ id: String(i), text: `__sleep_100__ ${CANONICAL_TEXT}` }));
    const first = postJson(base, '/parse', { responses: slow, tools: ['look'] });
    expect(await eventually(() => runner.queueSize >= 4)).toBe(true);
    const fast = Array.from({ length: 16 }, (_, i) => ({ id: String(i), text: CANONICAL_TEXT }));
    const second = await postJson(base, '/parse', { responses: fast, tools: ['look'] });
    expect(second.status).toBe(503);
    expect(await errorCode(second)).toBe('overloaded');
    const done = await first;
    clearInterval(watch);
    expect(done.status).toBe(200);
    expect(((await done.json()) as { results: unknown[] }).results).toHaveLength(16);
    // One lane per thread, plus the second batch's own request task waiting its turn.
    expect(mostActive).toBeLessThanOrEqual(2);
  });
});

describe('6. a client that leaves stops its parse', () => {
  it('the running task is stopped, so the next request does not wait for the task timeout', async () => {
    app = await poolApp({ threads: 1, taskTimeoutMs: 40_000 });
    const base = await listen(app);
    const controller = new AbortController();
    const gone = fetch(`${base}/parse`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: '__spin__' }), signal: controller.signal,
    }).catch(() => null);
    expect(await eventually(() => app!.parseRunner.active > 0)).toBe(true);
    controller.abort();
    await gone;
    expect(await eventually(() => app!.parseRunner.active === 0, 8000)).toBe(true);
    const next = await postJson(base, '/parse', { text: CANONICAL_TEXT, tools: ['look'] });
    expect(next.status).toBe(200);
  });
});

describe('7. the edges of the contract', () => {
  it('malformed HTTP gets a 400 in the catalogue shape', async () => {
    app = await inlineApp();
    const base = await listen(app);
    const reply = await rawExchange(portOf(base), (socket) => socket.write('POST /parse HTTP/1.1\r\nhost: x\r\ncontent-length: nope\r\n\r\n'));
    expect(reply.startsWith('HTTP/1.1 400')).toBe(true);
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)).error.code).toBe('malformed_request');
  });

  it('a compressed body is a 415, gzip and br alike; only UTF-8 charsets are accepted', async () => {
    app = await inlineApp();
    const base = await listen(app);
    const body = JSON.stringify({ text: CANONICAL_TEXT });
    for (const encoding of ['gzip', 'br', 'deflate']) {
      const res = await postJson(base, '/parse', body, { 'content-encoding': encoding });
      expect(res.status).toBe(415);
      expect(await errorCode(res)).toBe('unsupported_encoding');
    }
    const latin1 = await postJson(base, '/parse', body, { 'content-type': 'application/json; charset=latin1' });
    expect(latin1.status).toBe(415);
    expect(await errorCode(latin1)).toBe('unsupported_media_type');
    for (const charset of ['utf-8', 'UTF8', '"utf-8"']) {
      expect((await postJson(base, '/parse', body, { 'content-type': `application/json; charset=${charset}` })).status).toBe(200);
    }
  });

  it('an oversized body gets a readable 413, with fetch and with a streamed upload', async () => {
    app = await inlineApp({ bodyLimit: 1024 * 1024 });
    const base = await listen(app);
    const big = JSON.stringify({ text: 'x'.repeat(12 * 1024 * 1024) });
    for (let i = 0; i < 4; i++) {
      const res = await postJson(base, '/parse', big);
      expect(res.status).toBe(413);
      expect(await errorCode(res)).toBe('body_too_large');
    }
    const streamed = await new Promise<number>((resolve, reject) => {
      const req = request(`${base}/parse`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      const chunk = 'x'.repeat(64 * 1024);
      req.write('{"text":"');
      for (let i = 0; i < 40; i++) req.write(chunk);
      req.end('"}');
    });
    expect(streamed).toBe(413);
  });
});
