/**
 * The Piscina pool over real sockets (port 0 on 127.0.0.1), with a fixture worker whose tasks
 * really run long, spin or crash: body limits, saturation (503), timeout (504), crash (500)
 * and recovery, batches spread over the pool, and a broken worker failing the start.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assertResultShape, CANONICAL_TEXT, eventually, listen, poolApp, postJson } from './helpers.js';

// Worker threads load the library through tsx here; a loaded CI machine needs room.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });

let app: FastifyInstance | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

async function metric(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line === undefined ? Number.NaN : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('body limit over a socket', () => {
  it('answers 413 with the limit and keeps serving', async () => {
    app = await poolApp({ bodyLimit: 1024 });
    const base = await listen(app);
    const big = await postJson(base, '/parse', { text: 'y'.repeat(4000) });
    expect(big.status).toBe(413);
    const body = (await big.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('body_too_large');
    expect(body.error.message).toContain('1024');
    const small = await postJson(base, '/parse', { text: CANONICAL_TEXT, tools: ['look'] });
    expect(small.status).toBe(200);
    assertResultShape(await small.json());
  });

  it('answers 415 for a non-JSON body', async () => {
    app = await poolApp();
    const base = await listen(app);
    const res = await fetch(`${base}/parse`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(res.status).toBe(415);
  });
});

/**
 * Listens, then fills a one-thread pool with MAX_QUEUE=1: one request sleeping in the worker
 * (1.5 s) and one waiting behind it, so the next request finds the queue full.
 */
async function fillQueue(service: FastifyInstance) {
  const runner = service.parseRunner;
  const base = await listen(service);
  const running = postJson(base, '/parse', { text: '__sleep_1500__' });
  expect(await eventually(() => runner.active > 0)).toBe(true);
  const queued = postJson(base, '/parse', { text: '__sleep_10__' });
  expect(await eventually(() => runner.queueSize >= 1)).toBe(true);
  return { base, running, queued };
}

describe('saturation', () => {
  it('sheds with 503 and Retry-After when the queue is full, and stays healthy', async () => {
    app = await poolApp({ threads: 1, maxQueue: 1 });
    const { base, running, queued } = await fillQueue(app);

    const shed = await postJson(base, '/parse', { text: CANONICAL_TEXT });
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await shed.json()) as { error: { code: string } }).error.code).toBe('overloaded');

    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'not_ready', reason: 'queue full' });

    expect((await running).status).toBe(200);
    expect((await queued).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect((await postJson(base, '/parse', { text: CANONICAL_TEXT })).status).toBe(200);
  });
});

describe('shedding before the body is read', () => {
  /** POST over `agent`; resolves with the status, the body and whether the socket was reused. */
  function rawPost(agent: Agent, base: string, body: string): Promise<{ status: number; body: string; reused: boolean }> {
    return new Promise((resolve, reject) => {
      const req = request(`${base}/parse`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, reused: req.reusedSocket }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('answers 503 to a full queue without reading the body, and the connection carries the next request', async () => {
    app = await poolApp({ threads: 1, maxQueue: 1, bodyLimit: 64 * 1024 });
    const { base, running, queued } = await fillQueue(app);

    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // Over BODY_LIMIT: a service that read the body would answer 413; shedding comes first.
      const oversized = JSON.stringify({ text: 'x'.repeat(100 * 1024) });
      const shed = await rawPost(agent, base, oversized);
      expect(shed.status).toBe(503);
      expect((JSON.parse(shed.body) as { error: { code: string } }).error.code).toBe('overloaded');

      expect((await running).status).toBe(200);
      expect((await queued).status).toBe(200);
      const next = await rawPost(agent, base, JSON.stringify({ text: CANONICAL_TEXT, tools: ['look'] }));
      expect(next.status).toBe(200);
      expect(next.reused).toBe(true);
      assertResultShape(JSON.parse(next.body));
    } finally {
      agent.destroy();
    }
  });
});

describe('worker priority', () => {
  /** Niceness of every thread of this process (field 19 of /proc/self/task/<tid>/stat). */
  function threadNiceness(): Map<number, number> {
    const out = new Map<number, number>();
    for (const tid of readdirSync('/proc/self/task')) {
      try {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
      } catch {
        // The thread ended between the listing and the read.
      }
    }
    return out;
  }

  it.runIf(process.platform === 'linux')('starts each worker thread at WORKER_NICE and leaves the HTTP thread alone', async () => {
    const before = threadNiceness();
    const own = before.get(process.pid) ?? 0;
    const nice = Math.min(19, own + 7);
    app = await poolApp({ threads: 2, workerNice: nice });
    const base = await listen(app);
    expect((await postJson(base, '/parse', { text: CANONICAL_TEXT, tools: ['look'] })).status).toBe(200);
    const lowered = [...threadNiceness()].filter(([tid, n]) => !before.has(tid) && n === nice);
    expect(lowered.length).toBeGreaterThanOrEqual(2);
    expect(threadNiceness().get(process.pid)).toBe(own);
  });
});

describe('timeout', () => {
  it('answers 504 for a parse past TASK_TIMEOUT_MS, replaces the worker, and leaves other requests alone', async () => {
    app = await poolApp({ threads: 2, taskTimeoutMs: 1500 });
    const runner = app.parseRunner;
    const base = await listen(app);
    const spinning = postJson(base, '/parse', { text: '__spin__' });
    expect(await eventually(() => runner.active > 0)).toBe(true);
    const others = await Promise.all([1, 2, 3].map(() => postJson(base, '/parse', { text: CANONICAL_TEXT, tools: ['look'] })));
    for (const res of others) {
      expect(res.status).toBe(200);
      assertResultShape(await res.json());
    }
    const timedOut = await spinning;
    expect(timedOut.status).toBe(504);
    const body = (await timedOut.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('parse_timeout');
    expect(await metric(base, 'tool_parse_pool_tasks_timed_out_total')).toBe(1);
    expect(await eventually(async () => (await metric(base, 'tool_parse_pool_worker_restarts_total')) >= 1)).toBe(true);
    expect(await eventually(() => runner.threads === 2, 15_000)).toBe(true);
    const after = await postJson(base, '/parse', { text: CANONICAL_TEXT, tools: ['look'] });
    expect(after.status).toBe(200);
  });
});

describe('worker crash', () => {
  it('answers 500 with a generic message for the crashed request, and the pool recovers', async () => {
    app = await poolApp({ threads: 2 });
    const runner = app.parseRunner;
    const base = await listen(app);
    const crashed = await postJson(base, '/parse', { text: '__crash__' });
    expect(crashed.status).toBe(500);
    const body = (await crashed.json()) as { error: { code: string; message: string } };
    expect(body.error).toEqual({ code: 'internal_error', message: 'internal error while parsing' });
    for (let i = 0; i < 4; i++) {
      const res = await postJson(base, '/parse', { text: CANONICAL_TEXT, tools: ['look'] });
      expect(res.status).toBe(200);
    }
    expect(await metric(base, 'tool_parse_pool_worker_restarts_total')).toBeGreaterThanOrEqual(1);
    expect(await eventually(() => runner.threads === 2, 15_000)).toBe(true);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });
});

describe('batches over the pool', () => {
  it('spreads a large batch over the workers and answers in request order', async () => {
    app = await poolApp({ threads: 2, splitMinChars: 1 });
    const base = await listen(app);
    const responses = Array.from({ length: 6 }, (_, i) => ({ id: `r${i}`, text: i % 2 === 0 ? CANONICAL_TEXT : `prose ${i}` }));
    const res = await postJson(base, '/parse', { tools: ['look'], responses });
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as { results: { id: string; result: unknown }[] };
    expect(results.map((r) => r.id)).toEqual(responses.map((r) => r.id));
    results.forEach((r, i) => {
      assertResultShape(r.result);
      expect(r.result.calls.length).toBe(i % 2 === 0 ? 1 : 0);
    });
  });

  it('answers 500 for a batch whose item crashes its worker', async () => {
    app = await poolApp({ threads: 2, splitMinChars: 1 });
    const base = await listen(app);
    const res = await postJson(base, '/parse', { responses: [{ text: 'fine' }, { text: '__crash__' }] });
    expect(res.status).toBe(500);
    expect((await postJson(base, '/parse', { responses: [{ text: 'a' }, { text: 'b' }] })).status).toBe(200);
  });
});

describe('start-up', () => {
  it('fails fast when the workers cannot load', async () => {
    await expect(poolApp({ workerFile: new URL('../fixtures/broken-worker.ts', import.meta.url) }))
      .rejects.toThrow('the parse workers failed to start');
  });
});

describe('graceful close', () => {
  it('turns readiness false, lets in-flight requests finish, then closes the pool', async () => {
    const closing = await poolApp({ threads: 1, drainDelayMs: 1_000 });
    const runner = closing.parseRunner;
    const base = await listen(closing);
    const inFlight = postJson(base, '/parse', { text: `__sleep_1500__ ${CANONICAL_TEXT}`, tools: ['look'] });
    expect(await eventually(() => runner.active > 0)).toBe(true);
    const closed = closing.close();
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'not_ready', reason: 'draining' });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const late = await postJson(base, '/parse', { text: 'x' });
    expect(late.status).toBe(503);
    expect(await late.json()).toEqual({ error: { code: 'shutting_down', message: 'the service is shutting down' } });
    const res = await inFlight;
    expect(res.status).toBe(200);
    assertResultShape(await res.json());
    await closed;
    expect(runner.threads).toBe(0);
    expect(runner.ready).toBe(false);
  });
});
