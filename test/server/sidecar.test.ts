/**
 * The sidecar end to end: the official `openai` client calls the sidecar, the sidecar calls a
 * fake upstream (loopback) that answers raw text in the field's grammars, and the tool calls the
 * client gets are those `parseToolCalls` reads from the upstream's text, whole and streamed.
 */
import OpenAI from 'openai';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseToolCalls } from '../../src/index.js';
import { buildApp } from '../../src/server/app.js';
import { startFakeUpstream, type CannedAnswer, type FakeUpstream } from '../support/fake-upstream.js';
import { listen } from './helpers.js';

const TOOLS = [
  { type: 'function' as const, function: { name: 'look', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } },
  { type: 'function' as const, function: { name: 'run', description: 'Run a command', parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] } } },
];

/** Raw assistant texts in the field's grammars, as a server without a tool parser returns them. */
const GRAMMARS: Record<string, string> = {
  hermes: 'Reading it.\n<tool_call>\n{"name": "look", "arguments": {"path": "a.rs"}}\n</tool_call>\n<tool_call>\n{"name": "run", "arguments": {"cmd": "ls"}}\n</tool_call>',
  'kimi-k2': 'Both files.<|tool_calls_section_begin|><|tool_call_begin|>functions.look:0<|tool_call_argument_begin|>{"path": "a.rs"}<|tool_call_end|>' +
    '<|tool_call_begin|>functions.look:1<|tool_call_argument_begin|>{"path": "b.rs"}<|tool_call_end|><|tool_calls_section_end|>',
  'deepseek-v3': '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>look\n```json\n{"path": "a.rs"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
  harmony: '<|channel|>analysis<|message|>The user wants a.rs.<|end|><|start|>assistant<|channel|>commentary to=functions.look <|constrain|>json<|message|>{"path": "a.rs"}<|call|>',
  pythonic: "[look(path='a.rs'), run(cmd='make test')]",
  think: '<think>Which file? a.rs.</think>I will look.\n<tool_call>\n{"name": "look", "arguments": {"path": "a.rs"}}\n</tool_call>',
  plain: 'Nothing to call here.  ',
};

/** Answers with markers the parse takes out with no diagnostic, and no call: the content is their prose. */
const WRAPPED: Record<string, string> = {
  'harmony-final': '<|channel|>final<|message|>It will be 18°C.<|return|>',
  'command-text': '<|START_TEXT|>It will be 18°C.<|END_TEXT|>',
  'im-end': 'It will be 18°C and sunny.<|im_end|>',
};

const ANSWERS: Record<string, CannedAnswer> = {
  ...Object.fromEntries(Object.entries({ ...GRAMMARS, ...WRAPPED }).map(([name, content]) => [name, { content }])),
  // A server that parsed one call itself and left another in the text, and restated the first.
  held: {
    content: 'Also this.\n<tool_call>\n{"name": "look", "arguments": {"path": "a.rs"}}\n</tool_call>\n<tool_call>\n{"name": "run", "arguments": {"cmd": "ls"}}\n</tool_call>',
    toolCalls: [{ id: 'call_up_1', type: 'function', function: { name: 'look', arguments: '{"path":"a.rs"}' } }],
  },
  'own-reasoning': { content: '<tool_call>\n{"name": "look", "arguments": {"path": "a.rs"}}\n</tool_call>', reasoning: 'The server split this off.' },
};

const expectedCalls = (text: string) => parseToolCalls(text, { tools: TOOLS, profile: 'gateway' }).calls.map((c) => ({ name: c.name, arguments: c.arguments }));
/** Function calls as name and decoded arguments (a custom tool call would have no `function`, and fails here). */
const callsOf = (calls: readonly object[] | undefined) =>
  (calls ?? []).map((c) => {
    const { function: fn } = c as { function: { name: string; arguments: string } };
    return { name: fn.name, arguments: JSON.parse(fn.arguments) as unknown };
  });

let upstream: FakeUpstream;
let app: FastifyInstance;
let client: OpenAI;
let base: string;
const logs: string[] = [];
const SECRET = 'sk-test-very-secret-4242';

beforeAll(async () => {
  upstream = await startFakeUpstream({ answers: ANSWERS, pieceDelayMs: 1 });
  app = await buildApp({ pool: 'inline', defaultMetrics: false, upstreamUrl: upstream.url, logLevel: 'debug', logStream: { write: (line) => void logs.push(line) } });
  base = await listen(app);
  client = new OpenAI({ baseURL: `${base}/v1`, apiKey: SECRET, maxRetries: 0, timeout: 20_000 });
});

afterAll(async () => {
  await app.close();
  await upstream.close();
});

describe('non-streaming, through the openai client', () => {
  for (const name of Object.keys(GRAMMARS)) {
    it(`${name}: the client gets the calls parseToolCalls reads from the upstream's text`, async () => {
      const completion = await client.chat.completions.create({ model: name, messages: [{ role: 'user', content: 'go' }], tools: TOOLS });
      const expected = expectedCalls(GRAMMARS[name]!);
      expect(expected.length > 0).toBe(name !== 'plain');
      const message = completion.choices[0]!.message;
      expect(callsOf(message.tool_calls)).toEqual(expected);
      expect(completion.choices[0]!.finish_reason).toBe(expected.length > 0 ? 'tool_calls' : 'stop');
      // Every other field as the upstream sent it.
      expect(completion.usage).toEqual({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
      expect(completion.model).toBe(name);
      expect((completion as unknown as { system_fingerprint: string }).system_fingerprint).toBe('fp_fake');
      // No markers left in the content.
      expect(message.content ?? '').not.toMatch(/<tool_call>|<\|tool_call|tool▁call|<\|channel\|>|<think>/);
    });
  }

  it('keeps a plain answer byte for byte, and separates reasoning into reasoning_content', async () => {
    const plain = await client.chat.completions.create({ model: 'plain', messages: [{ role: 'user', content: 'hi' }], tools: TOOLS });
    expect(plain.choices[0]!.message.content).toBe(GRAMMARS.plain);
    expect(plain.choices[0]!.message.tool_calls).toBeUndefined();
    const think = await client.chat.completions.create({ model: 'think', messages: [{ role: 'user', content: 'hi' }], tools: TOOLS });
    const message = think.choices[0]!.message as { content: string | null; reasoning_content?: string };
    expect(message.reasoning_content).toBe('Which file? a.rs.');
    expect(message.content).toBe('I will look.');
    const harmony = await client.chat.completions.create({ model: 'harmony', messages: [{ role: 'user', content: 'hi' }], tools: TOOLS });
    expect((harmony.choices[0]!.message as { reasoning_content?: string }).reasoning_content).toBe('The user wants a.rs.');
  });

  for (const [name, text] of Object.entries(WRAPPED)) {
    it(`${name}: an answer with no call loses its markers, as the streamed answer does`, async () => {
      const prose = parseToolCalls(text, { tools: TOOLS, profile: 'gateway' }).prose;
      expect(prose).toBe(text.replace(/<\|[^|]*\|>|final/g, '').trim());
      const whole = await client.chat.completions.create({ model: name, messages: [{ role: 'user', content: 'hi' }], tools: TOOLS });
      expect(whole.choices[0]!.message.content).toBe(prose);
      expect(whole.choices[0]!.finish_reason).toBe('stop');
      const streamed = await client.chat.completions.stream({ model: name, messages: [{ role: 'user', content: 'hi' }], tools: TOOLS }).finalChatCompletion();
      expect(streamed.choices[0]!.message.content).toBe(prose);
    });
  }

  it("keeps the upstream's own tool_calls unchanged, first, and adds only what the text holds beyond them", async () => {
    const completion = await client.chat.completions.create({ model: 'held', messages: [{ role: 'user', content: 'go' }], tools: TOOLS });
    const calls = completion.choices[0]!.message.tool_calls!;
    expect(calls[0]).toEqual(ANSWERS.held!.toolCalls![0]);
    expect(callsOf(calls)).toEqual([{ name: 'look', arguments: { path: 'a.rs' } }, { name: 'run', arguments: { cmd: 'ls' } }]);
    expect(new Set(calls.map((c) => c.id)).size).toBe(calls.length);
  });

  it("keeps an upstream's own reasoning_content", async () => {
    const completion = await client.chat.completions.create({ model: 'own-reasoning', messages: [{ role: 'user', content: 'go' }], tools: TOOLS });
    expect((completion.choices[0]!.message as { reasoning_content?: string }).reasoning_content).toBe('The server split this off.');
    expect(callsOf(completion.choices[0]!.message.tool_calls)).toEqual([{ name: 'look', arguments: { path: 'a.rs' } }]);
  });

  it('numbers call ids after the calls the conversation already holds', async () => {
    const completion = await client.chat.completions.create({
      model: 'hermes', tools: TOOLS,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'tc_0', type: 'function', function: { name: 'look', arguments: '{"path":"x"}' } }] },
        { role: 'tool', tool_call_id: 'tc_0', content: 'ok' },
      ],
    });
    expect(completion.choices[0]!.message.tool_calls!.map((c) => c.id)).toEqual(['tc_1', 'tc_2']);
  });

  it('puts a diagnostics summary in a header, and the diagnostics in the body only when asked', async () => {
    const plain = await client.chat.completions.create({ model: 'hermes', messages: [{ role: 'user', content: 'go' }], tools: TOOLS }).withResponse();
    expect(plain.response.headers.get('x-tool-parse-diagnostics')).toBe('parsed_calls=2, upstream_calls=0, duplicate_calls=0, errors=0, violations=0, dropped=1');
    expect(plain.data).not.toHaveProperty('tool_parse_diagnostics');
    const asked = await client.chat.completions.create(
      { model: 'held', messages: [{ role: 'user', content: 'go' }], tools: TOOLS },
      { headers: { 'x-tool-parse-diagnostics': 'body' } },
    );
    const diagnostics = (asked as unknown as { tool_parse_diagnostics: { index: number; parsed_calls: number; upstream_calls: number; duplicate_calls: number }[] }).tool_parse_diagnostics;
    expect(diagnostics).toMatchObject([{ index: 0, parsed_calls: 1, upstream_calls: 1, duplicate_calls: 1 }]);
    // The sidecar's own request header does not travel upstream.
    expect(upstream.requests.at(-1)!.headers).not.toHaveProperty('x-tool-parse-diagnostics');
  });

  it('forwards the body as it is and the authorization header, and never logs the key', async () => {
    const before = upstream.requests.length;
    await client.chat.completions.create({ model: 'hermes', messages: [{ role: 'user', content: 'go' }], tools: TOOLS, temperature: 0.25, user: 'u-7' });
    const seen = upstream.requests[before]!;
    expect(seen.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(seen.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.body).toMatchObject({ model: 'hermes', temperature: 0.25, user: 'u-7', tools: TOOLS });
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.some((line) => line.includes('sidecar: completion parsed'))).toBe(true);
    expect(logs.join('\n')).not.toContain(SECRET);
  });

  it('passes a request without tools through untouched', async () => {
    const completion = await client.chat.completions.create({ model: 'hermes', messages: [{ role: 'user', content: 'go' }] });
    expect(completion.choices[0]!.message.content).toBe(GRAMMARS.hermes);
    expect(completion.choices[0]!.message.tool_calls).toBeUndefined();
  });

  it('passes GET /v1/models through, and answers other /v1 routes 404 in the OpenAI error shape', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toContain('hermes');
    const res = await fetch(`${base}/v1/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: string; type: string; message: string } };
    expect(body.error).toMatchObject({ code: 'not_found', type: 'invalid_request_error' });
    await expect(client.embeddings.create({ model: 'x', input: 'y' })).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('refuses a registry the library does not accept with 400 invalid_tools, before forwarding', async () => {
    const before = upstream.requests.length;
    const res = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'hermes', messages: [], tools: [{ type: 'function', function: { name: 7 } }] }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_tools');
    expect(upstream.requests.length).toBe(before);
  });

  it('forwards tools whose parameters are any JSON Schema ($ref to a definition, anyOf), and reads their calls', async () => {
    const tools = [
      { type: 'function' as const, function: { name: 'look', parameters: { $ref: '#/definitions/look', definitions: { look: { type: 'object', properties: { path: { type: 'string' } } } }, $schema: 'http://json-schema.org/draft-07/schema#' } } },
      { type: 'function' as const, function: { name: 'other', parameters: { anyOf: [{ type: 'object', properties: { a: { type: 'integer' } } }] } } },
    ];
    const completion = await client.chat.completions.create({ model: 'hermes', messages: [{ role: 'user', content: 'go' }], tools });
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    expect(completion.choices[0]!.message.tool_calls!.map((c) => (c as { function: { name: string } }).function.name)).toContain('look');
  });

  it("answers refusals made before the route runs (an unsupported content type) in OpenAI's error shape", async () => {
    const res = await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({ code: 'unsupported_media_type', type: 'invalid_request_error', param: null });
    // /parse keeps the service's own shape.
    const parse = await fetch(`${base}/parse`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
    expect(((await parse.json()) as { error: Record<string, unknown> }).error).not.toHaveProperty('type');
  });

  it('follows tool_choice: "none" passes the answer untouched, a named function lets only that one be called', async () => {
    const none = await client.chat.completions.create({ model: 'hermes', messages: [{ role: 'user', content: 'go' }], tools: TOOLS, tool_choice: 'none' });
    expect(none.choices[0]!.message.tool_calls).toBeUndefined();
    expect(none.choices[0]!.message.content).toBe(GRAMMARS.hermes);
    const forced = await client.chat.completions.create({ model: 'hermes', messages: [{ role: 'user', content: 'go' }], tools: TOOLS, tool_choice: { type: 'function', function: { name: 'run' } } });
    expect(callsOf(forced.choices[0]!.message.tool_calls).map((c) => c.name)).toEqual(['run']);
    const streamed = await client.chat.completions.stream({ model: 'hermes', messages: [{ role: 'user', content: 'go' }], tools: TOOLS, tool_choice: { type: 'function', function: { name: 'run' } } }).finalChatCompletion();
    expect(callsOf(streamed.choices[0]!.message.tool_calls).map((c) => c.name)).toEqual(['run']);
    const before = upstream.requests.length;
    const res = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'hermes', messages: [], tools: TOOLS, tool_choice: { type: 'function', function: { name: 'missing' } } }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'invalid_request', type: 'invalid_request_error' });
    expect(upstream.requests.length).toBe(before);
  });

  it('documents its routes in /openapi.json', async () => {
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/v1/chat/completions'] ?? {})).toEqual(['post']);
    expect(Object.keys(doc.paths['/v1/models'] ?? {})).toEqual(['get']);
  });
});

describe('streaming, through the openai client', () => {
  for (const name of Object.keys(GRAMMARS)) {
    it(`${name}: the streamed calls are parseToolCalls' calls, and the chunks keep the upstream's identity`, async () => {
      const stream = client.chat.completions.stream({ model: name, messages: [{ role: 'user', content: 'go' }], tools: TOOLS, stream_options: { include_usage: true } });
      const ids = new Set<string>();
      const models = new Set<string>();
      for await (const chunk of stream) {
        ids.add(chunk.id);
        models.add(chunk.model);
      }
      const final = await stream.finalChatCompletion();
      const expected = expectedCalls(GRAMMARS[name]!);
      expect(callsOf(final.choices[0]!.message.tool_calls)).toEqual(expected);
      expect(final.choices[0]!.finish_reason).toBe(expected.length > 0 ? 'tool_calls' : 'stop');
      expect(final.usage).toEqual({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
      expect(ids.size).toBe(1);
      expect([...ids][0]).toMatch(/^chatcmpl-fake-/);
      expect([...models]).toEqual([name]);
      expect(final.choices[0]!.message.content ?? '').not.toMatch(/<tool_call>|<\|tool_call|tool▁call|<\|channel\|>|<think>/);
    });
  }

  it('streams reasoning as reasoning_content, and the upstream tool_calls through with indexes that do not clash', async () => {
    const stream = await client.chat.completions.create({ model: 'held', messages: [{ role: 'user', content: 'go' }], tools: TOOLS, stream: true });
    const calls = new Map<number, { id?: string; name: string; arguments: string }>();
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
        const acc = calls.get(call.index) ?? { name: '', arguments: '' };
        if (call.id) acc.id = call.id;
        acc.name += call.function?.name ?? '';
        acc.arguments += call.function?.arguments ?? '';
        calls.set(call.index, acc);
      }
    }
    const list = [...calls.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => ({ id: c.id, name: c.name, arguments: JSON.parse(c.arguments) as unknown }));
    // The text's `look` came first and went out as it closed; the upstream's restatement of it
    // is left out, so the client runs it once.
    expect(list.map((c) => c.name).sort()).toEqual(['look', 'run']);
    expect([...calls.keys()].sort()).toEqual([0, 1]);

    const think = client.chat.completions.stream({ model: 'own-reasoning', messages: [{ role: 'user', content: 'go' }], tools: TOOLS });
    let reasoning = '';
    for await (const chunk of think) reasoning += (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '';
    expect(reasoning).toBe('The server split this off.');
  });

  it('streams an answer without a listener-leak warning from Node', async () => {
    // Node warns once per emitter past ten listeners of one event: with an eleventh close
    // listener on the response, every streamed answer printed a "possible memory leak" warning.
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      for (const tools of [TOOLS, undefined]) {
        const stream = await client.chat.completions.create({ model: 'hermes', messages: [{ role: 'user', content: 'go' }], ...(tools ? { tools } : {}), stream: true });
        for await (const chunk of stream) void chunk;
      }
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });

  it('passes a stream without tools through untouched', async () => {
    const stream = await client.chat.completions.create({ model: 'hermes', messages: [{ role: 'user', content: 'go' }], stream: true });
    let content = '';
    let calls = 0;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      calls += chunk.choices[0]?.delta.tool_calls?.length ?? 0;
    }
    expect(content).toBe(GRAMMARS.hermes);
    expect(calls).toBe(0);
  });

  it('puts the diagnostics in the final chunk when asked', async () => {
    const res = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-tool-parse-diagnostics': 'body' },
      body: JSON.stringify({ model: 'kimi-k2', messages: [], tools: TOOLS, stream: true }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = (await res.text()).split('\n\n').filter((f) => f.startsWith('data: '));
    expect(frames.at(-1)).toBe('data: [DONE]');
    const last = JSON.parse(frames.at(-2)!.slice(6)) as { choices: { finish_reason: string }[]; tool_parse_diagnostics: { parsed_calls: number }[] };
    expect(last.choices[0]!.finish_reason).toBe('tool_calls');
    expect(last.tool_parse_diagnostics[0]!.parsed_calls).toBe(2);
  });
});
