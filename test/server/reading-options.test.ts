/**
 * The /parse fields `profile`, `validate`, `shape` and `include` (in every request form, with
 * unknown values a 400), and transcripts whose assistant messages already carry `tool_calls`.
 * Batches large enough to be split over the pool carry the options in each item task.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskHandler } from '../../src/server/worker/handle.js';
import { inlineApp } from './helpers.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = await inlineApp();
});
afterAll(async () => {
  await app.close();
});

const tools = [{ type: 'function', function: { name: 'look', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } }];

async function post(payload: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await app.inject({ method: 'POST', url: '/parse', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown> };
}

describe('/parse reading options', () => {
  it('profile: the gateway default refuses implicit tools; harn keeps them', async () => {
    const text = '<tool_call>ledger({"note": "x"})</tool_call>';
    const gateway = await post({ text, tools });
    expect(gateway.body.calls).toEqual([]);
    expect((gateway.body.dropped as { reason: string }[]).map((d) => d.reason)).toEqual(['unknown_tool']);
    const harn = await post({ text, tools, profile: 'harn' });
    expect((harn.body.calls as { name: string }[]).map((c) => c.name)).toEqual(['ledger']);
  });

  it('validate: report names the call id and pointer; reject drops the call', async () => {
    const text = '<tool_call>look({"path": 3})</tool_call>';
    const report = await post({ text, tools });
    expect(report.body.protocol_violations).toEqual([
      expect.objectContaining({ kind: 'invalid_arguments', call_id: 'tc_0', failures: [{ pointer: '/path', message: 'must be string' }] }),
    ]);
    const reject = await post({ text, tools, validate: 'reject' });
    expect(reject.body.calls).toEqual([]);
    expect((reject.body.dropped as { reason: string }[]).map((d) => d.reason)).toEqual(['invalid_arguments']);
  });

  it('shape and include', async () => {
    const text = '<tool_call>look({"path": "a.rs"})</tool_call>';
    const openai = await post({ text, tools, shape: 'openai', include: ['tool_parse_errors'] });
    expect(openai.body).toEqual({
      message: { role: 'assistant', content: null, tool_calls: [{ id: 'tc_0', type: 'function', function: { name: 'look', arguments: '{"path":"a.rs"}' } }] },
      finish_reason: 'tool_calls',
      diagnostics: { tool_parse_errors: [] },
    });
    const anthropic = await post({ text, tools, shape: 'anthropic' });
    expect((anthropic.body.message as { content: unknown[] }).content).toEqual([{ type: 'tool_use', id: 'tc_0', name: 'look', input: { path: 'a.rs' } }]);
    const slim = await post({ text, tools, include: ['calls', 'tool_parse_errors'] });
    expect(Object.keys(slim.body)).toEqual(['calls', 'tool_parse_errors']);
    const batch = await post({ tools, include: ['calls'], responses: [{ text }, { text: 'none' }] });
    expect(batch.body.results).toEqual([
      { id: null, result: { calls: [{ id: 'tc_0', name: 'look', arguments: { path: 'a.rs' } }] } },
      { id: null, result: { calls: [] } },
    ]);
  });

  it.each([
    [{ text: 'x', profile: 'strict' }, /^body\.profile must be one of/],
    [{ text: 'x', validate: 'warn' }, /^body\.validate must be one of/],
    [{ text: 'x', shape: 'xml' }, /^body\.shape must be one of/],
    [{ text: 'x', include: ['calls', 'text'] }, /^body\.include\/1 must be one of|^body\.include\[1\] must be one of/],
    [{ responses: [{ text: 'x' }], shape: 'xml' }, /shape/],
    [{ messages: [], profile: 'x' }, /profile/],
  ])('an unknown value is a 400: %j', async (payload, message) => {
    const res = await post(payload);
    expect(res.status).toBe(400);
    expect((res.body.error as { message: string }).message).toMatch(message);
  });

  it('a split batch item carries the options to the worker that parses it', () => {
    const handle = createTaskHandler({ maxBatch: 8, splitMinChars: 0 } as never);
    const reply = handle({ op: 'item', text: '<tool_call>ledger({"note": "x"})</tool_call>', toolsJson: '["look"]', toolFormat: null, reading: { profile: 'harn', include: ['calls'] } });
    expect(reply.kind === 'answer' && JSON.parse(reply.body)).toEqual({ calls: [{ id: 'tc_0', name: 'ledger', arguments: { note: 'x' } }] });
  });
});

describe('/parse transcripts with tool_calls', () => {
  it('keeps the calls a message carries and reads from its text only the calls it lacks', async () => {
    const res = await post({
      tools,
      messages: [
        { role: 'user', content: 'look' },
        {
          role: 'assistant',
          content: '<tool_call>look({"path": "a.rs"})</tool_call>\n<tool_call>look({"path": "b.rs"})</tool_call>',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'look', arguments: '{"path":"a.rs"}' } }],
        },
      ],
    });
    expect(res.status).toBe(200);
    const [entry] = res.body.results as { result: { calls: { id: string; name: string; arguments: unknown }[] } }[];
    expect(entry!.result.calls.map((c) => [c.id, c.arguments])).toEqual([
      ['call_1', { path: 'a.rs' }],
      ['tc_1', { path: 'b.rs' }],
    ]);
  });
});
