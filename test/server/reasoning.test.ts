/**
 * Reasoning (issue 14) through the service and the command line: the `reasoning` field of the
 * answer, and `profile` / `reasoning_started` passed through to the library.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../bin/cli.js';
import { assertResultShape, inlineApp } from './helpers.js';

const OPEN_IN_PROMPT = 'The user asks about Paris.\n</think>\n\nIt is sunny.';
const STARTED = 'The user asks about Paris and';

let app: FastifyInstance;
beforeAll(async () => {
  app = await inlineApp({ bodyLimit: 4096, maxBatch: 3 });
});
afterAll(async () => {
  await app.close();
});

function post(payload: unknown) {
  return app.inject({ method: 'POST', url: '/parse', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
}

const INTERLEAVED =
  '<think>Need the weather first.</think>Checking.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>';
const WEATHER = [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];

describe('POST /parse: reasoning in the openai and anthropic shapes', () => {
  it('openai: the reasoning goes to message.reasoning_content, never into content', async () => {
    const res = await post({ text: INTERLEAVED, tools: WEATHER, shape: 'openai' });
    expect(res.statusCode).toBe(200);
    const shaped = res.json<{ message: Record<string, unknown>; finish_reason: string }>();
    expect(shaped.message.reasoning_content).toBe('Need the weather first.');
    expect(shaped.message.content).toBe('Checking.');
    expect(shaped.finish_reason).toBe('tool_calls');
  });

  it('anthropic: a thinking block stands where the model thought, before its text and tool_use', async () => {
    const res = await post({ text: INTERLEAVED, tools: WEATHER, shape: 'anthropic' });
    expect(res.statusCode).toBe(200);
    const shaped = res.json<{ message: { content: { type: string }[] }; stop_reason: string }>();
    expect(shaped.message.content).toEqual([
      { type: 'thinking', thinking: 'Need the weather first.', signature: '' },
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'tc_0', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(shaped.stop_reason).toBe('tool_use');
  });
});

describe('POST /parse: reasoning', () => {
  it('answers reasoning apart from prose under the gateway profile', async () => {
    const res = await post({ text: OPEN_IN_PROMPT, profile: 'gateway' });
    expect(res.statusCode).toBe(200);
    const result = res.json<Record<string, unknown>>();
    expect(Object.keys(result)).toEqual(['calls', 'prose', 'reasoning', 'user_response', 'done_marker', 'canonical_text', 'tool_parse_errors', 'protocol_violations', 'dropped', 'recovered_from_stray_count']);
    expect(result.reasoning).toBe('The user asks about Paris.');
    expect(result.prose).toBe('It is sunny.');
  });

  it('accepts reasoning_started: a response cut off before any close is all reasoning', async () => {
    const started = (await post({ text: STARTED, profile: 'gateway', reasoning_started: true })).json<Record<string, unknown>>();
    expect(started.reasoning).toBe(STARTED);
    expect(started.prose).toBe('');
    const plain = (await post({ text: STARTED, profile: 'gateway' })).json<Record<string, unknown>>();
    expect(plain.reasoning).toBeNull();
    expect(plain.prose).toBe(STARTED);
  });

  it('passes both to every response of a batch and every message of a transcript', async () => {
    const batch = (await post({ profile: 'gateway', reasoning_started: true, responses: [{ id: 'a', text: STARTED }, { id: 'b', text: 'x</think>y', reasoning_started: false }] })).json<{
      results: { id: string; result: Record<string, unknown> }[];
    }>();
    expect(batch.results.map((r) => [r.id, r.result.reasoning, r.result.prose])).toEqual([
      ['a', STARTED, ''],
      // `false` says the prompt opened no block: the close is a stray marker, not the end of reasoning.
      ['b', null, 'x\n\ny'],
    ]);
    const transcript = (await post({ profile: 'gateway', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: OPEN_IN_PROMPT }] })).json<{
      results: { index: number; result: Record<string, unknown> }[];
    }>();
    expect(transcript.results.map((r) => [r.index, r.result.reasoning])).toEqual([[1, 'The user asks about Paris.']]);
  });

  it('leaves the harn answer as it was: no reasoning field', async () => {
    const result: unknown = (await post({ text: '<think>a</think>b' })).json();
    assertResultShape(result);
    expect(result.prose).toBe('b');
  });

  it('refuses a reasoning_started that is not a boolean and an unknown profile', async () => {
    for (const body of [{ text: 'x', reasoning_started: 'yes' }, { text: 'x', profile: 'fast' }]) {
      const res = await post(body);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('invalid_request');
    }
  });
});

function fakeIo(stdin: string): { io: CliIo; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    readText: () => Promise.reject(Object.assign(new Error('missing'), { code: 'ENOENT' })),
    readStdin: () => Promise.resolve(stdin),
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    serve: () => Promise.resolve(),
  };
  return { io, out, err };
}

describe('tool-parse parse: reasoning', () => {
  it('prints reasoning with --profile gateway, and takes --reasoning-started', async () => {
    const plain = fakeIo(OPEN_IN_PROMPT);
    expect(await runCli(['parse', '--profile', 'gateway'], plain.io)).toBe(0);
    expect((JSON.parse(plain.out.join('')) as { reasoning: unknown }).reasoning).toBe('The user asks about Paris.');
    const started = fakeIo(STARTED);
    expect(await runCli(['parse', '--profile=gateway', '--reasoning-started'], started.io)).toBe(0);
    expect(JSON.parse(started.out.join(''))).toMatchObject({ reasoning: STARTED, prose: '' });
  });

  it('refuses an unknown profile as a usage error', async () => {
    const c = fakeIo('x');
    expect(await runCli(['parse', '--profile', 'fast'], c.io)).toBe(2);
    expect(c.err.join('')).toContain('--profile must be one of gateway, harn');
  });
});
