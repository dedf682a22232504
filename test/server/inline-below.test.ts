/**
 * INLINE_BELOW_BYTES: with the pool, bodies under the bound parse on the HTTP thread and larger
 * ones in a worker. The misbehaving worker fixture tells the two apart for real: its `__crash__`
 * marker kills a worker thread, while on the HTTP thread the marker is plain text.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { poolApp } from './helpers.js';

const BOUND = 512;

function bodyOfBytes(bytes: number): string {
  const head = JSON.stringify({ text: '__crash__ <tool_call>look({"path": "a.rs"})</tool_call> ', tools: ['look'] });
  // Pad inside the text so the body is exactly `bytes` long (ASCII, so bytes = characters).
  const pad = 'x'.repeat(Math.max(0, bytes - head.length));
  return head.replace('</tool_call> ', `</tool_call> ${pad}`);
}

function workCount(metricsText: string, thread: 'main' | 'worker'): number {
  const line = metricsText.split('\n').find((l) => l.startsWith(`tool_parse_worker_parse_seconds_count{thread="${thread}"}`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

describe('INLINE_BELOW_BYTES routing', () => {
  let app: FastifyInstance | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  it('parses a body under the bound on the HTTP thread and a larger one in a worker', async () => {
    app = await poolApp({ inlineBelowBytes: BOUND, defaultMetrics: false });
    const small = bodyOfBytes(BOUND - 1);
    const large = bodyOfBytes(BOUND);
    expect(Buffer.byteLength(small)).toBe(BOUND - 1);
    expect(Buffer.byteLength(large)).toBe(BOUND);

    const inline = await app.inject({ method: 'POST', url: '/parse', headers: { 'content-type': 'application/json' }, payload: small });
    expect(inline.statusCode).toBe(200);
    expect(inline.json().calls.map((c: { name: string }) => c.name)).toEqual(['look']);

    // At the bound the body goes to a worker, where the marker kills the thread.
    const pooled = await app.inject({ method: 'POST', url: '/parse', headers: { 'content-type': 'application/json' }, payload: large });
    expect(pooled.statusCode).toBe(500);

    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    // Warm-up parses once on each side, then the small body adds one on the main thread.
    expect(workCount(metrics, 'main')).toBe(2);
    expect(workCount(metrics, 'worker')).toBe(1);
  }, 60_000);

  it('sends every body to the pool when the bound is 0', async () => {
    app = await poolApp({ inlineBelowBytes: 0 });
    const res = await app.inject({ method: 'POST', url: '/parse', headers: { 'content-type': 'application/json' }, payload: bodyOfBytes(200) });
    expect(res.statusCode).toBe(500);
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(workCount(metrics, 'main')).toBe(0);
  }, 60_000);

  it('rejects a negative or fractional bound as programmer misuse', async () => {
    await expect(buildApp({ pool: 'inline', inlineBelowBytes: -1 })).rejects.toThrow(/inlineBelowBytes/);
    await expect(buildApp({ pool: 'inline', inlineBelowBytes: 1.5 })).rejects.toThrow(TypeError);
  });
});

describe('work time of a task', () => {
  it('is measured inside the thread and reported on /metrics by thread', async () => {
    const app = await buildApp({ pool: 'inline', defaultMetrics: false });
    try {
      const res = await app.inject({ method: 'POST', url: '/parse', headers: { 'content-type': 'application/json' }, payload: bodyOfBytes(4096) });
      expect(res.statusCode).toBe(200);
      const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
      const sumLine = metrics.split('\n').find((l) => l.startsWith('tool_parse_worker_parse_seconds_sum{thread="main"}'))!;
      const sum = Number(sumLine.split(' ').at(-1));
      // Warm-up plus one 4 KB parse: more than nothing, far less than a second.
      expect(workCount(metrics, 'main')).toBe(2);
      expect(sum).toBeGreaterThan(0);
      expect(sum).toBeLessThan(1);
    } finally {
      await app.close();
    }
  });
});
