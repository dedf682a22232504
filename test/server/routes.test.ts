/**
 * Every route through `inject`, on an inline app (the same task handler the workers run):
 * the three /parse forms, /scan, the probes, metrics, the OpenAPI document, request ids, and
 * the failure-table rows that do not need a real socket or a misbehaving worker.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { ERROR_CATALOGUE, statusOf, type ErrorCodeValue } from '../../src/server/errors.js';
import { assertResultShape, CANONICAL_TEXT, inlineApp } from './helpers.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = await inlineApp({ bodyLimit: 4096, maxBatch: 3 });
});
afterAll(async () => {
  await app.close();
});

function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

function errorOf(body: string): { code: string; message: string } {
  const parsed = JSON.parse(body) as { error: { code: string; message: string } };
  expect(Object.keys(parsed)).toEqual(['error']);
  expect(Object.keys(parsed.error).sort()).toEqual(['code', 'message']);
  return parsed.error;
}

describe('POST /parse', () => {
  it('parses one response', async () => {
    const res = await post('/parse', { text: CANONICAL_TEXT, tools: ['look'] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const result: unknown = res.json();
    assertResultShape(result);
    expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([['look', { path: 'a.rs' }]]);
  });

  it('parses a batch in request order', async () => {
    const res = await post('/parse', {
      tools: ['look'],
      responses: [{ id: 'x', text: 'prose only' }, { id: 'y', text: CANONICAL_TEXT }],
    });
    expect(res.statusCode).toBe(200);
    const { results } = res.json<{ results: { id: string; result: unknown }[] }>();
    expect(results.map((r) => r.id)).toEqual(['x', 'y']);
    results.forEach((r) => assertResultShape(r.result));
  });

  it('parses a transcript, one result per assistant message', async () => {
    const res = await post('/parse', {
      tools: ['look'],
      messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: CANONICAL_TEXT }],
    });
    expect(res.statusCode).toBe(200);
    const { results } = res.json<{ results: { index: number; result: unknown }[] }>();
    expect(results.map((r) => r.index)).toEqual([1]);
    assertResultShape(results[0]!.result);
  });
});

describe('POST /scan', () => {
  it('answers the units of one response', async () => {
    const res = await post('/scan', { text: CANONICAL_TEXT, tools: ['look'] });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ source: string; units: { kind: string }[] }>();
    expect(body.source).toBe(CANONICAL_TEXT);
    expect(body.units.length).toBeGreaterThan(0);
  });
});

describe('failure table (inject rows)', () => {
  it('malformed JSON is a 400 invalid_json', async () => {
    const res = await post('/parse', '{"text": "unterminated');
    expect(res.statusCode).toBe(400);
    expect(errorOf(res.body).code).toBe('invalid_json');
  });

  it('a wrong field type is a 400 naming the field', async () => {
    const res = await post('/parse', { text: ['not', 'a', 'string'] });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res.body)).toEqual({ code: 'invalid_request', message: 'body.text must be of type string' });
  });

  it('an unknown tool_format is a 400 naming the field', async () => {
    const res = await post('/parse', { text: 'x', tool_format: 'yaml' });
    expect(res.statusCode).toBe(400);
    const error = errorOf(res.body);
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/^body\.tool_format must be one of/);
  });

  it('a body over BODY_LIMIT is a 413 with the limit in the message', async () => {
    const res = await post('/parse', { text: 'x'.repeat(5000) });
    expect(res.statusCode).toBe(413);
    const error = errorOf(res.body);
    expect(error.code).toBe('body_too_large');
    expect(error.message).toContain('4096');
  });

  it('a batch over MAX_BATCH is a 413 with the limit in the message', async () => {
    const res = await post('/parse', { responses: [{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' }] });
    expect(res.statusCode).toBe(413);
    const error = errorOf(res.body);
    expect(error.code).toBe('batch_too_large');
    expect(error.message).toContain('3');
  });

  it('a non-JSON content type is a 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await app.inject({ method: 'POST', url: '/parse', headers: { 'content-type': type }, payload: 'text=hi' });
      expect(res.statusCode).toBe(415);
      expect(errorOf(res.body).code).toBe('unsupported_media_type');
    }
  });

  it('__proto__ and constructor in the body are plain data, never a prototype change', async () => {
    const res = await post('/parse', '{"text": "x", "tools": [{"name": "look", "__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}}}]}');
    expect(res.statusCode).toBe(200);
    const top = await post('/parse', '{"text": "x", "constructor": {"prototype": {"polluted": 1}}}');
    expect(top.statusCode).toBe(400);
    expect(errorOf(top.body).message).toBe('body.constructor is not a known field');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('__proto__ in model text never changes a prototype', async () => {
    const res = await post('/parse', { text: '<tool_call>look({"__proto__": {"polluted": 1}})</tool_call>', tools: ['look'] });
    expect(res.statusCode).toBe(200);
    assertResultShape(res.json());
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a POST without a body is a 400, not a crash', async () => {
    const res = await app.inject({ method: 'POST', url: '/parse' });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res.body)).toEqual({ code: 'invalid_json', message: 'request body is empty; expected a JSON object' });
  });

  it('accepts application/json with parameters and in any case', async () => {
    for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
      const res = await app.inject({ method: 'POST', url: '/parse', headers: { 'content-type': type }, payload: '{"text": "x"}' });
      expect(res.statusCode).toBe(200);
    }
  });

  it('an unknown route is a 404 in the same error shape', async () => {
    const res = await app.inject({ method: 'GET', url: '/nope?x=1' });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res.body)).toEqual({ code: 'not_found', message: 'no route GET /nope' });
  });

  it('never answers with a stack trace', async () => {
    for (const payload of ['{', '[]', '{"text": 1}', '{"responses": 3}']) {
      const res = await post('/parse', payload);
      expect(res.statusCode).toBe(400);
      expect(res.body).not.toMatch(/\bat .*\.(ts|js):\d+/);
    }
  });
});

describe('request ids', () => {
  it('echoes a valid x-request-id', async () => {
    const res = await post('/parse', { text: 'x' }, { 'x-request-id': 'gw-1234' });
    expect(res.headers['x-request-id']).toBe('gw-1234');
  });

  it('replaces an unusable x-request-id with a fresh one', async () => {
    const res = await post('/parse', { text: 'x' }, { 'x-request-id': 'a'.repeat(500) });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs with the request id', async () => {
    const lines: string[] = [];
    const logged = await buildApp({ pool: 'inline', defaultMetrics: false, logLevel: 'info', logStream: { write: (l) => void lines.push(l) } });
    try {
      await logged.inject({ method: 'POST', url: '/parse', headers: { 'content-type': 'application/json', 'x-request-id': 'trace-me' }, payload: '{"text":"x"}' });
    } finally {
      await logged.close();
    }
    const records = lines.map((l) => JSON.parse(l) as { reqId?: string; msg: string });
    expect(records.some((r) => r.reqId === 'trace-me' && r.msg === 'request completed')).toBe(true);
  });
});

describe('probes, metrics, OpenAPI', () => {
  it('GET /healthz answers ok', async () => {
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz answers ready once warmed', async () => {
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready' });
  });

  it('GET /metrics exposes requests by route and status, durations and pool gauges', async () => {
    await post('/parse', { text: 'x' });
    await post('/parse', '{');
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    expect(text).toMatch(/tool_parse_http_requests_total\{route="\/parse",method="POST",status="200"\} [1-9]/);
    expect(text).toMatch(/tool_parse_http_requests_total\{route="\/parse",method="POST",status="400"\} [1-9]/);
    expect(text).toMatch(/tool_parse_parse_duration_seconds_count\{route="parse"\} [1-9]/);
    for (const name of ['tool_parse_pool_queue_depth', 'tool_parse_pool_utilization', 'tool_parse_pool_threads',
      'tool_parse_pool_worker_restarts_total', 'tool_parse_pool_tasks_timed_out_total']) {
      expect(text).toContain(`# TYPE ${name}`);
    }
  });

  it('GET /openapi.json documents every route with its schemas', async () => {
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ openapi: string; paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { oneOf?: { title: string; properties: Record<string, unknown> }[] } }> }; responses: Record<string, unknown> }>> }>();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(['/healthz', '/metrics', '/parse', '/parse/stream', '/readyz', '/scan']);
    // the stream's options are the query parameters of its text/plain form
    const streamParameters = (doc.paths['/parse/stream']!.post as unknown as { parameters: { name: string; in: string }[] }).parameters;
    expect(streamParameters.filter((p) => p.in === 'query').map((p) => p.name).sort()).toEqual(
      ['call_id_start', 'include', 'profile', 'reasoning_started', 'shape', 'tool_format', 'tools', 'validate'],
    );
    const parse = doc.paths['/parse']!.post!;
    const forms = parse.requestBody!.content['application/json']!.schema.oneOf!;
    expect(forms.map((f) => f.title)).toEqual(['ParseOne', 'ParseBatch', 'ParseTranscript']);
    expect(Object.keys(parse.responses).sort()).toEqual(['200', '400', '413', '415', '500', '503', '504']);
    // the batch limit shown is the one enforced
    expect((forms[1]!.properties.responses as { maxItems: number }).maxItems).toBe(3);
  });
});

describe('errors', () => {
  it('maps every code to its documented status', () => {
    const codes = Object.keys(ERROR_CATALOGUE) as ErrorCodeValue[];
    expect(codes.map((code) => [code, statusOf(code)])).toEqual([
      ['malformed_request', 400], ['invalid_json', 400], ['invalid_request', 400], ['invalid_stream', 400], ['invalid_tools', 400],
      ['not_found', 404], ['request_timeout', 408], ['stream_idle_timeout', 408], ['body_too_large', 413], ['batch_too_large', 413],
      ['unsupported_media_type', 415], ['unsupported_encoding', 415], ['response_too_large', 422], ['internal_error', 500],
      ['overloaded', 503], ['too_many_streams', 503], ['shutting_down', 503], ['parse_timeout', 504],
      ['upstream_unreachable', 502], ['upstream_bad_response', 502], ['upstream_timeout', 504],
    ]);
  });
});

describe('buildApp options', () => {
  it('throws a TypeError naming a bad option', async () => {
    await expect(buildApp({ pool: 'inline', threads: 0 })).rejects.toThrow('options.threads must be an integer from 1 to 1024; got 0');
    await expect(buildApp({ pool: 'fork' as 'inline' })).rejects.toThrow('options.pool');
  });
});

describe('README.md (service sections)', () => {
  it('documents every error code with its status, and no code that does not exist', () => {
    const doc = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## Error codes'), doc.indexOf('## Command line'));
    const rows = [...section.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map((m) => [m[2], Number(m[1])]);
    expect(new Map(rows as [string, number][])).toEqual(new Map((Object.keys(ERROR_CATALOGUE) as ErrorCodeValue[]).map((code) => [code, statusOf(code)])));
  });

  it('documents every environment variable the service reads', () => {
    const doc = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const source = readFileSync(new URL('../../src/server/config.ts', import.meta.url), 'utf8');
    const read = [...source.matchAll(/(?:env: |oneOf\()'([A-Z_]+)'/g)].map((m) => m[1]!);
    expect(read.length).toBeGreaterThanOrEqual(9);
    for (const name of [...read, 'HOST']) expect(doc).toContain(`| \`${name}\` |`);
  });
});
