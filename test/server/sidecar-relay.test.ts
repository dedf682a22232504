/**
 * The stream relay on hand-made upstream bodies: two choices interleaved, events split across
 * reads and written with CRLF, a usage chunk, the upstream's own reasoning under either name,
 * an upstream error event ending the answer, and a body that says nothing at all.
 */
import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../../src/index.js';
import { relayStream, type StreamSummary } from '../../src/server/sidecar/stream.js';

const TOOLS = [{ type: 'function', function: { name: 'look', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
const TEXT_0 = 'First.\n<tool_call>\n{"name": "look", "arguments": {"path": "a.rs"}}\n</tool_call>';
const TEXT_1 = 'Second, no call.';

const chunk = (index: number, delta: object, finish: string | null = null) =>
  JSON.stringify({ id: 'chatcmpl-up', object: 'chat.completion.chunk', created: 7, model: 'up-model', choices: [{ index, delta, finish_reason: finish }] });

/** `events` as one SSE text with CRLF line ends, cut into reads of `size` bytes. */
async function* body(events: string[], size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(events.map((data) => `data: ${data}\r\n\r\n`).join(''), 'utf8');
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function relay(events: string[], size = 5): Promise<{ frames: string[]; summary: StreamSummary }> {
  const summary: StreamSummary = { choices: [], ending: 'done', failure: null };
  let text = '';
  for await (const piece of relayStream({ body: body(events, size), tools: TOOLS, callIdStart: 0, diagnosticsInBody: false, parseWhole: null }, summary)) text += piece;
  return { frames: text.split('\n\n').filter((f) => f !== ''), summary };
}

describe('relayStream', () => {
  it('relays two interleaved choices, each parsed on its own, with the upstream identity and usage', async () => {
    const pieces = (s: string) => s.match(/[\s\S]{1,6}/g)!;
    const a = pieces(TEXT_0);
    const b = pieces(TEXT_1);
    const events: string[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (a[i] !== undefined) events.push(chunk(0, { content: a[i] }));
      if (b[i] !== undefined) events.push(chunk(1, { content: b[i] }));
    }
    events.push(chunk(0, {}, 'stop'), chunk(1, {}, 'stop'));
    events.push(JSON.stringify({ id: 'chatcmpl-up', object: 'chat.completion.chunk', created: 7, model: 'up-model', choices: [], usage: { total_tokens: 9 } }));
    events.push('[DONE]');
    const { frames, summary } = await relay(events);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.slice(6)) as { id: string; created: number; model: string; usage?: unknown; choices: { index: number; delta: { content?: string; tool_calls?: { function: { name?: string; arguments: string } }[] }; finish_reason: string | null }[] });
    expect(new Set(chunks.map((c) => `${c.id} ${c.created} ${c.model}`))).toEqual(new Set(['chatcmpl-up 7 up-model']));
    const of = (index: number) => chunks.flatMap((c) => c.choices.filter((ch) => ch.index === index));
    const content = (index: number) => of(index).map((ch) => ch.delta.content ?? '').join('');
    expect(content(0)).toBe(parseToolCalls(TEXT_0, { tools: TOOLS }).prose);
    expect(content(1)).toBe(TEXT_1);
    expect(of(0).flatMap((ch) => ch.delta.tool_calls ?? []).map((c) => c.function.arguments).join('')).toBe('{"path":"a.rs"}');
    expect(of(1).some((ch) => ch.delta.tool_calls !== undefined)).toBe(false);
    expect(of(0).at(-1)!.finish_reason).toBe('tool_calls');
    expect(of(1).at(-1)!.finish_reason).toBe('stop');
    expect(chunks.at(-1)!.usage).toEqual({ total_tokens: 9 });
    expect(summary.ending).toBe('done');
    expect(summary.choices.map((c) => [c.index, c.parsed_calls])).toEqual([[0, 1], [1, 0]]);
  });

  it("passes the upstream's own reasoning on, under vLLM's `reasoning` as under `reasoning_content`, and leaves empty fields out", async () => {
    const events = [
      chunk(0, { role: 'assistant', content: '', reasoning: null, refusal: null }),
      chunk(0, { reasoning: 'The server split ' }),
      chunk(0, { reasoning: 'this off.', content: null }),
      chunk(0, { reasoning_content: 'Older name.' }),
      ...TEXT_0.match(/[\s\S]{1,6}/g)!.map((piece) => chunk(0, { content: piece })),
      chunk(0, {}, 'stop'),
      '[DONE]',
    ];
    const { frames } = await relay(events);
    const deltas = frames.slice(0, -1).map((f) => (JSON.parse(f.slice(6)) as { choices: { delta: Record<string, unknown> }[] }).choices[0]!.delta);
    expect(deltas.map((d) => d.reasoning ?? '').join('')).toBe('The server split this off.');
    expect(deltas.map((d) => d.reasoning_content ?? '').join('')).toBe('Older name.');
    expect(deltas.some((d) => 'refusal' in d)).toBe(false);
    expect(deltas.filter((d) => d.role !== undefined)).toHaveLength(1);
    expect(deltas.map((d) => d.content ?? '').join('')).toBe(parseToolCalls(TEXT_0, { tools: TOOLS }).prose);
    expect(deltas.flatMap((d) => (d.tool_calls as { function: { arguments: string } }[] | undefined) ?? []).map((c) => c.function.arguments).join('')).toBe('{"path":"a.rs"}');
  });

  it('ends at an upstream error event: the text so far first, then the error as it came, no final chunk, then [DONE]', async () => {
    const error = JSON.stringify({ error: { message: 'engine died', code: 500 } });
    const later = chunk(0, { content: ' never relayed' });
    const { frames, summary } = await relay([chunk(0, { content: 'Hello ' }), chunk(0, { content: 'there' }), error, later, '[DONE]'], 3);
    const at = frames.indexOf(`data: ${error}`);
    expect(at).toBeGreaterThan(0);
    const before = frames.slice(0, at).map((f) => JSON.parse(f.slice(6)) as { choices: { delta: { content?: string }; finish_reason: string | null }[] });
    expect(before.map((c) => c.choices[0]!.delta.content ?? '').join('')).toBe('Hello there');
    expect(before.every((c) => c.choices[0]!.finish_reason === null)).toBe(true);
    expect(frames.slice(at + 1)).toEqual(['data: [DONE]']);
    expect(summary.ending).toBe('error');
  });

  it("carries the upstream's system_fingerprint on every chunk and passes its logprobs on, in order", async () => {
    const withExtras = (delta: object, logprobs: object | null) =>
      JSON.stringify({ id: 'chatcmpl-up', object: 'chat.completion.chunk', created: 7, model: 'up-model', system_fingerprint: 'fp_up', choices: [{ index: 0, delta, logprobs, finish_reason: null }] });
    const scores = [{ token: 'Hel', logprob: -0.1 }, { token: 'lo', logprob: -0.2 }];
    const { frames } = await relay([withExtras({ content: 'Hel' }, { content: [scores[0]] }), withExtras({ content: 'lo' }, { content: [scores[1]] }), chunk(0, {}, 'stop'), '[DONE]']);
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.slice(6)) as { system_fingerprint?: string; choices: { delta: { content?: string }; logprobs?: { content: unknown[] } }[] });
    expect(chunks.every((c) => c.system_fingerprint === 'fp_up')).toBe(true);
    expect(chunks.flatMap((c) => c.choices[0]!.logprobs?.content ?? [])).toEqual(scores);
    expect(chunks.map((c) => c.choices[0]!.delta.content ?? '').join('')).toBe('Hello');
  });

  it('answers a body that says nothing with one closed choice and [DONE]', async () => {
    const { frames } = await relay([]);
    expect(frames).toHaveLength(3);
    const [open, last] = [frames[0]!, frames[1]!].map((f) => JSON.parse(f.slice(6)) as { choices: { delta: { role?: string }; finish_reason: string | null }[] });
    expect(open!.choices[0]!.delta.role).toBe('assistant');
    expect(last!.choices[0]!.finish_reason).toBe('length');
    expect(frames[2]).toBe('data: [DONE]');
  });
});
