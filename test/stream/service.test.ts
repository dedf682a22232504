/**
 * POST /parse/stream: both body forms, the NDJSON answer ending in exactly the one-shot result,
 * the options refused as /parse refuses them, bad lines, characters cut across TCP chunks, and
 * the final parse of a long stream replayed in the pool with the same bytes as on the HTTP
 * thread. Loopback only; every wait bounded.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseToolCalls } from '../../src/index.js';
import { inlineApp, listen, poolApp } from '../server/helpers.js';
import { duplex, ndjson, ndjsonLine } from './client.js';

const TEXT = 'Hi.\n<tool_call>{"name": "look", "arguments": {"path": "a"}}</tool_call>\nDone.';

function postStream(base: string, body: string | Uint8Array, contentType: string, query = ''): Promise<Response> {
  return fetch(`${base}/parse/stream${query}`, { method: 'POST', headers: { 'content-type': contentType }, body, signal: AbortSignal.timeout(20_000) });
}

/** The body of an NDJSON stream: the options, then the text cut every `size` characters. */
function ndjsonBody(options: unknown, text: string, size: number): string {
  let body = ndjsonLine(options);
  for (let i = 0; i < text.length; i += size) body += ndjsonLine({ text: text.slice(i, i + size) });
  return body;
}

let app: FastifyInstance;
let base: string;
beforeAll(async () => {
  app = await inlineApp();
  base = await listen(app);
});
afterAll(async () => {
  await app.close();
});

describe('POST /parse/stream, NDJSON body', () => {
  it('answers NDJSON events and, last, exactly what /parse answers for the whole text', async () => {
    const res = await postStream(base, ndjsonBody({ tools: ['look'] }, TEXT, 5), 'application/x-ndjson');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const lines = ndjson(await res.text());
    const last = lines.at(-1)!;
    expect(last.type).toBe('result');
    expect(last.partial).toBe(false);
    const oneShot = await (await fetch(`${base}/parse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: TEXT, tools: ['look'] }) })).json();
    expect(last.result).toEqual(oneShot);
    const events = lines.slice(0, -1);
    expect(events.filter((e) => e.type === 'call_end').map((e) => e.call)).toEqual(parseToolCalls(TEXT, { tools: ['look'] }).calls);
    expect(events.filter((e) => e.type === 'text').map((e) => e.text).join('')).toBe(parseToolCalls(TEXT, { tools: ['look'] }).prose);
    expect(events.filter((e) => e.type === 'call_arguments_delta').map((e) => e.delta).join('')).toBe('{"path":"a"}');
  });

  it('takes the reading options of /parse on its first line (include, profile)', async () => {
    const res = await postStream(base, ndjsonBody({ tools: ['look'], include: ['calls'], profile: 'harn' }, TEXT, 7), 'application/x-ndjson');
    const last = ndjson(await res.text()).at(-1)!;
    expect(last.result).toEqual({ calls: parseToolCalls(TEXT, { tools: ['look'], profile: 'harn' }).calls });
  });

  it('refuses bad options with the 400 /parse gives, naming the field under options', async () => {
    const bad = await postStream(base, ndjsonBody({ tools: ['look'], shape: 'xml' }, TEXT, 9), 'application/x-ndjson');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: { code: 'invalid_request', message: 'options.shape must be one of "tool-parse", "openai", "anthropic"' } });
    const unknown = await postStream(base, ndjsonBody({ tool_fromat: 'json' }, TEXT, 9), 'application/x-ndjson');
    expect(await unknown.json()).toEqual({ error: { code: 'invalid_request', message: 'options.tool_fromat is not a known field' } });
    const tools = await postStream(base, ndjsonBody({ tools: [{ name: 3 }] }, TEXT, 9), 'application/x-ndjson');
    expect(tools.status).toBe(400);
    expect(((await tools.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'invalid_tools', message: expect.stringMatching(/^options\.tools\[0\]/) });
    const notJson = await postStream(base, '{"tools": [\n', 'application/x-ndjson');
    expect(await notJson.json()).toEqual({ error: { code: 'invalid_json', message: 'line 1 of the stream body is not valid JSON' } });
    const empty = await postStream(base, '', 'application/x-ndjson');
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
  });

  it('ends with an invalid_stream error event and the partial result at a bad text line', async () => {
    const body = ndjsonLine({ tools: ['look'] }) + ndjsonLine({ text: 'Hi.' }) + ndjsonLine({ txt: 'x' }) + ndjsonLine({ text: 'never read' });
    const res = await postStream(base, body, 'application/x-ndjson');
    expect(res.status).toBe(200);
    const lines = ndjson(await res.text());
    expect(lines.at(-2)).toEqual({ type: 'stream_error', error: { code: 'invalid_stream', message: 'line 3.txt is not a known field' } });
    expect(lines.at(-1)).toMatchObject({ type: 'result', partial: true, result: { prose: 'Hi.', calls: [] } });
  });

  it('refuses a content type that is neither form with a 415 before reading the body', async () => {
    const res = await postStream(base, JSON.stringify({ text: TEXT }), 'application/json');
    expect(res.status).toBe(415);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'unsupported_media_type', message: expect.stringContaining('application/x-ndjson or text/plain'),
    });
  });
});

describe('POST /parse/stream, text/plain body', () => {
  it('reads its options from the query: tools as names or as JSON', async () => {
    const byNames = ndjson(await (await postStream(base, TEXT, 'text/plain', '?tools=look,read&reasoning_started=false')).text()).at(-1)!;
    expect(byNames.result).toEqual(parseToolCalls(TEXT, { tools: ['look', 'read'], reasoning_started: false }));
    const json = encodeURIComponent(JSON.stringify([{ name: 'look', parameters: { type: 'object', properties: { path: { type: 'integer' } } } }]));
    const byJson = ndjson(await (await postStream(base, TEXT, 'text/plain', `?tools=${json}&validate=report`)).text()).at(-1)!;
    const expected = parseToolCalls(TEXT, { tools: JSON.parse(decodeURIComponent(json)) as unknown, validate: 'report' });
    expect((byJson.result as { protocol_violations: unknown[] }).protocol_violations).toHaveLength(expected.protocol_violations.length);
    expect(expected.protocol_violations.length).toBeGreaterThan(0);
  });

  it('refuses a bad query parameter with a 400 naming it under query', async () => {
    const res = await postStream(base, TEXT, 'text/plain', '?profile=loose');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'invalid_request', message: 'query.profile must be one of "gateway", "harn"' } });
    const twice = await postStream(base, TEXT, 'text/plain', '?shape=openai&shape=anthropic');
    expect(((await twice.json()) as { error: { message: string } }).error.message).toBe('query.shape is given more than once');
  });

  it('decodes a character cut across two TCP chunks whole (3- and 4-byte UTF-8)', async () => {
    const text = 'Sé ｜ 𝄞 done <tool_call>{"name": "look", "arguments": {"path": "𝄞"}}</tool_call>';
    const bytes = new TextEncoder().encode(text);
    const stream = duplex(base, '/parse/stream?tools=look', 'text/plain');
    // Cut inside every multi-byte character: one byte per write, each written before the next.
    for (let i = 0; i < bytes.length; i += 1) await stream.write(bytes.subarray(i, i + 1));
    stream.end();
    const lines = ndjson(await stream.done);
    expect(lines.at(-1)!.result).toEqual(parseToolCalls(text, { tools: ['look'] }));
    expect(lines.filter((e) => e.type === 'call_end').map((e) => (e.call as { arguments: unknown }).arguments)).toEqual([{ path: '𝄞' }]);
  });

  it('passes the halves of a surrogate pair in two NDJSON lines on as they are', async () => {
    const text = 'Clef \ud834\udd1e <tool_call>{"name": "look", "arguments": {"path": "\ud834\udd1e"}}</tool_call>';
    const cut = text.indexOf('\udd1e');
    // JSON.stringify writes each lone half as an escape, so each line is valid JSON.
    const body = ndjsonLine({ tools: ['look'] }) + ndjsonLine({ text: text.slice(0, cut) }) + ndjsonLine({ text: text.slice(cut) });
    const lines = ndjson(await (await postStream(base, body, 'application/x-ndjson')).text());
    expect(lines.at(-1)!.result).toEqual(parseToolCalls(text, { tools: ['look'] }));
  });

  it('ends with invalid_stream on bytes that are not UTF-8', async () => {
    const res = await postStream(base, new Uint8Array([0x48, 0x69, 0xff, 0xfe]), 'text/plain', '?tools=look');
    const lines = ndjson(await res.text());
    expect(lines.at(-2)).toEqual({ type: 'stream_error', error: { code: 'invalid_stream', message: 'the stream body is not valid UTF-8' } });
    expect(lines.at(-1)).toMatchObject({ type: 'result', partial: true });
  });

  it('answers an empty body with the result of the empty text', async () => {
    const lines = ndjson(await (await postStream(base, '', 'text/plain', '?tools=look')).text());
    expect(lines).toEqual([{ type: 'result', partial: false, result: parseToolCalls('', { tools: ['look'] }) }]);
  });
});

describe('full duplex', () => {
  it('writes the answer while the request body is still arriving (anthropic: message_start at once)', async () => {
    const stream = duplex(base, '/parse/stream', 'application/x-ndjson');
    await stream.write(ndjsonLine({ tools: ['look'], shape: 'anthropic' }));
    const head = await stream.until((text) => text.includes('event: message_start'));
    expect(stream.ended).toBe(false);
    expect(head).toContain('"role":"assistant"');
    await stream.write(ndjsonLine({ text: TEXT }));
    stream.end();
    expect(await stream.done).toContain('event: message_stop');
  });
});

describe('the final parse of a long stream in the pool', () => {
  let pool: FastifyInstance;
  let poolBase: string;
  let inlineHere: FastifyInstance;
  let inlineBase: string;
  beforeAll(async () => {
    // Every stream's final parse goes to the pool: the replay must say what the HTTP thread would.
    pool = await poolApp({ streamPoolAtChars: 0 });
    poolBase = await listen(pool);
    inlineHere = await inlineApp();
    inlineBase = await listen(inlineHere);
  });
  afterAll(async () => {
    await pool.close();
    await inlineHere.close();
  });

  const long = `<think>plan</think>${'Prose. '.repeat(300)}${TEXT}\n<tool_call>{"name": "look", "arguments": {"path": "b"}}</tool_call>`;
  for (const shape of ['tool-parse', 'openai', 'anthropic'] as const) {
    it(`gives the bytes the HTTP thread gives (${shape})`, async () => {
      const body = ndjsonBody({ tools: ['look'], shape }, long, 4);
      const [fromPool, fromInline] = await Promise.all([
        postStream(poolBase, body, 'application/x-ndjson').then((r) => r.text()),
        postStream(inlineBase, body, 'application/x-ndjson').then((r) => r.text()),
      ]);
      // Only the id and time stamps of each stream differ.
      const plain = (text: string): string => text.replace(/"tp-[^"]+"/g, '"id"').replace(/"created":\d+/g, '"created":0');
      expect(plain(fromPool)).toBe(plain(fromInline));
      expect(fromPool.length).toBeGreaterThan(2000);
    });
  }

  it('says internal_error when the worker replaying the stream dies, and the service goes on', async () => {
    const res = await postStream(poolBase, ndjsonBody({ tools: ['look'] }, `${TEXT} __crash__`, 6), 'application/x-ndjson');
    expect(res.status).toBe(200);
    const lines = ndjson(await res.text());
    expect(lines.at(-1)).toEqual({ type: 'stream_error', error: { code: 'internal_error', message: 'internal error while parsing' } });
    const again = ndjson(await (await postStream(poolBase, ndjsonBody({ tools: ['look'] }, TEXT, 6), 'application/x-ndjson')).text());
    expect(again.at(-1)).toMatchObject({ type: 'result', partial: false });
  });
});
