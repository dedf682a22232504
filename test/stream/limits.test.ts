/**
 * The limits of POST /parse/stream, each with its test: STREAM_IDLE_TIMEOUT_MS, BODY_LIMIT over
 * streamed bytes, a client that goes away, MAX_STREAMS; and the stream metrics. Loopback only;
 * every wait bounded in time, every loop in count.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { parseToolCalls } from '../../src/index.js';
import type { AppOptions } from '../../src/server/app.js';
import { eventually, inlineApp, listen, poolApp } from '../server/helpers.js';
import { duplex, ndjson, ndjsonLine, type DuplexStream } from './client.js';

const TEXT = 'Hi.\n<tool_call>{"name": "look", "arguments": {"path": "a"}}</tool_call>\n';

const apps: FastifyInstance[] = [];
const clients: DuplexStream[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  for (const app of apps.splice(0)) await app.close();
});

async function serve(options: AppOptions, pooled = false): Promise<string> {
  const app = pooled ? await poolApp(options) : await inlineApp(options);
  apps.push(app);
  return listen(app);
}

function open(base: string, path = '/parse/stream', type = 'application/x-ndjson'): DuplexStream {
  const client = duplex(base, path, type);
  clients.push(client);
  return client;
}

/** One sample of a metric from /metrics (0 when absent). */
async function metric(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1));
}

/** An anthropic stream says message_start as soon as it opens, so a test can tell it is open. */
async function openedAnthropic(base: string): Promise<DuplexStream> {
  const client = open(base);
  await client.write(ndjsonLine({ tools: ['look'], shape: 'anthropic' }));
  await client.until((text) => text.includes('message_start'));
  return client;
}

describe('STREAM_IDLE_TIMEOUT_MS', () => {
  it('ends a stream that sends no chunk for that long with an error event and the partial result', async () => {
    const base = await serve({ streamIdleTimeoutMs: 300 });
    const client = open(base);
    await client.write(ndjsonLine({ tools: ['look'] }));
    await client.write(ndjsonLine({ text: 'Hi.\n<tool_call>{"name": "look", ' }));
    const lines = ndjson(await client.done);
    expect(client.ended).toBe(false);
    expect(lines.at(-2)).toEqual({ type: 'stream_error', error: { code: 'stream_idle_timeout', message: 'no chunk arrived for 300 ms (STREAM_IDLE_TIMEOUT_MS)' } });
    const partial = 'Hi.\n<tool_call>{"name": "look", ';
    expect(lines.at(-1)).toEqual({ type: 'result', partial: true, result: parseToolCalls(partial, { tools: ['look'] }) });
    expect(await metric(base, 'tool_parse_stream_duration_seconds_count{outcome="stream_idle_timeout"}')).toBe(1);
  });

  it('answers 408 when not even the options line came', async () => {
    const base = await serve({ streamIdleTimeoutMs: 300 });
    const client = open(base);
    const res = await client.response;
    expect(res.statusCode).toBe(408);
    expect(JSON.parse(await client.done)).toEqual({ error: { code: 'stream_idle_timeout', message: 'no chunk arrived for 300 ms (STREAM_IDLE_TIMEOUT_MS)' } });
  });
});

describe('BODY_LIMIT over streamed bytes', () => {
  it('ends the stream with body_too_large once the bytes received pass the limit, with the result of what came before', async () => {
    const base = await serve({ bodyLimit: 400 });
    const client = open(base);
    await client.write(ndjsonLine({ tools: ['look'] }));
    const pieces: string[] = [];
    // 100-byte lines: the fourth passes 400 bytes. Bounded: at most 10 lines.
    for (let i = 0; i < 10 && client.text() === ''; i++) {
      const piece = `piece ${i} `.padEnd(80, '.');
      pieces.push(piece);
      await client.write(ndjsonLine({ text: piece }));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const lines = ndjson(await client.done);
    expect(lines.at(-2)).toEqual({ type: 'stream_error', error: { code: 'body_too_large', message: 'the stream body passed the limit of 400 bytes (BODY_LIMIT)' } });
    const last = lines.at(-1) as { type: string; partial: boolean; result: { prose: string } };
    expect(last).toMatchObject({ type: 'result', partial: true });
    // Every line within the first 400 bytes is in the result, the one that passed the limit is not.
    let bytes = Buffer.byteLength(ndjsonLine({ tools: ['look'] }));
    const fitted = pieces.filter((piece) => (bytes += Buffer.byteLength(ndjsonLine({ text: piece }))) <= 400).join('');
    expect(last.result).toEqual(parseToolCalls(fitted, { tools: ['look'] }));
    expect(pieces.length).toBeGreaterThanOrEqual(3);
  });

  it('counts a text/plain body the same way', async () => {
    const base = await serve({ bodyLimit: 64 });
    const res = await fetch(`${base}/parse/stream?tools=look`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(200), signal: AbortSignal.timeout(10_000) });
    const lines = ndjson(await res.text());
    expect(lines.some((l) => (l.error as { code?: string } | undefined)?.code === 'body_too_large')).toBe(true);
    // Exactly the bytes within the limit were read, however the body was cut into packets.
    expect(lines.at(-1)).toEqual({ type: 'result', partial: true, result: parseToolCalls('x'.repeat(64), { tools: ['look'] }) });
  });
});

describe('a client that goes away', () => {
  it('frees its stream at once: the open-streams gauge drops, the stream is counted as client_gone', async () => {
    const base = await serve({});
    const client = await openedAnthropic(base);
    await client.write(ndjsonLine({ text: 'Hi.\n<tool_call>{"name": "look", ' }));
    expect(await metric(base, 'tool_parse_streams_open')).toBe(1);
    client.destroy();
    expect(await eventually(async () => (await metric(base, 'tool_parse_streams_open')) === 0, 5_000)).toBe(true);
    expect(await metric(base, 'tool_parse_stream_duration_seconds_count{outcome="client_gone"}')).toBe(1);
  });

  it('stops its final parse in the pool: the worker running it is replaced', async () => {
    const base = await serve({ streamPoolAtChars: 0, taskTimeoutMs: 30_000 }, true);
    const client = open(base);
    await client.write(ndjsonLine({ tools: ['look'] }));
    // The fixture worker sleeps 20 s on this marker: the client leaves long before.
    await client.write(ndjsonLine({ text: `${TEXT} __sleep_20000__` }));
    client.end();
    // Time for the body's end to reach the service and the task a worker (a pause, not a measurement).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    client.destroy();
    expect(await eventually(async () => (await metric(base, 'tool_parse_pool_worker_restarts_total')) === 1, 10_000)).toBe(true);
    expect(await metric(base, 'tool_parse_streams_open')).toBe(0);
  });
});

describe('MAX_STREAMS', () => {
  it('answers 503 too_many_streams with Retry-After before reading any body, and admits again once a stream closes', async () => {
    const base = await serve({ maxStreams: 2 });
    const first = await openedAnthropic(base);
    await openedAnthropic(base);
    // Not one byte of this body is written: the answer comes from the headers alone.
    const third = open(base);
    const res = await third.response;
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(JSON.parse(await third.done)).toEqual({ error: { code: 'too_many_streams', message: '2 streams are open (MAX_STREAMS); retry later' } });
    first.end(ndjsonLine({ text: TEXT }));
    await first.done;
    expect(await eventually(async () => (await metric(base, 'tool_parse_streams_open')) === 1, 5_000)).toBe(true);
    const fourth = await openedAnthropic(base);
    fourth.end();
    expect(await fourth.done).toContain('message_stop');
  });
});

describe('shutdown', () => {
  it('ends an open stream with shutting_down and its partial result, so closing does not wait on it', async () => {
    const app = await inlineApp({ shutdownTimeoutMs: 20_000 });
    const base = await listen(app);
    const client = open(base);
    await client.write(ndjsonLine({ tools: ['look'] }));
    await client.write(ndjsonLine({ text: TEXT }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Bounded: the close resolves once the stream has ended, long before SHUTDOWN_TIMEOUT_MS.
    const closed = app.close().then(() => 'closed');
    const lines = ndjson(await client.done);
    expect(client.ended).toBe(false);
    expect(lines.at(-2)).toEqual({ type: 'stream_error', error: { code: 'shutting_down', message: 'the service is shutting down' } });
    expect(lines.at(-1)).toEqual({ type: 'result', partial: true, result: parseToolCalls(TEXT, { tools: ['look'] }) });
    expect(await Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve('still open'), 15_000))])).toBe('closed');
  });
});

describe("Node's whole-request timeout", () => {
  it('is off, so a stream may last longer than any request body may take; headers still have theirs', async () => {
    const app = await inlineApp();
    apps.push(app);
    expect(app.server.requestTimeout).toBe(0);
    expect(app.server.headersTimeout).toBe(60_000);
  });
});

describe('stream metrics', () => {
  it('counts events by type and stream durations by outcome', async () => {
    const base = await serve({});
    const res = await fetch(`${base}/parse/stream?tools=look`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: TEXT, signal: AbortSignal.timeout(10_000) });
    const lines = ndjson(await res.text());
    const count = (type: string): number => lines.filter((l) => l.type === type).length;
    expect(count('call_end')).toBe(1);
    for (const type of ['text', 'call_start', 'call_arguments_delta', 'call_end']) {
      expect(await metric(base, `tool_parse_stream_events_total{type="${type}"}`)).toBe(count(type));
    }
    expect(await metric(base, 'tool_parse_stream_duration_seconds_count{outcome="complete"}')).toBe(1);
    expect(await metric(base, 'tool_parse_streams_open')).toBe(0);
  });
});
